import LinkCheckCodeIndex
import LinkCheckImage
import LinkCheckRules

/// Which loader calls name a library, and how to read it.
public enum LoaderCalls {
    /// The C loaders whose call names a library file.
    public static let libraryLoaders: Set<String> = ["dlopen", "dlmopen"]

    /// The matcher patterns of the APIs that load code (rather than look
    /// up a symbol or class in code already loaded): the calls the guide
    /// wants behind a run-time version check.
    public static let loadingAPIs: Set<String> = [
        "dlopen", "dlmopen", "CFBundleLoadExecutable", "Foundation.Bundle.load", "Foundation.Bundle.loadAndReturnError",
    ]

    /// How many levels of callees of a function that loads code may hold
    /// its OS version check.
    public static let versionCheckDepth = 2

    /// Whether `name` is an import a conditional-loading rule of `rules`
    /// matches as a code-loading API (``loadingAPIs``).
    public static func loadsCode(_ name: String, rules: RuleSet) -> Bool {
        rules.rules(matchingSymbol: name).contains { match in
            match.rule.category == .conditionalLoading && loadingAPIs.contains(match.matcher.pattern)
        }
    }

    /// What `code`, the code of `image`, asks the loader for: each call to a
    /// library loader (``libraryLoaders``), in address order, with the name
    /// it loads when that is known (``loadedName(_:)``) — once per name and
    /// calling function — or as a load of an unknown name. The toolchain's
    /// own code (``ToolchainCode``: compiler-rt's availability check loads
    /// CoreFoundation) asks for nothing the image loads conditionally.
    public static func requests(in code: CodeIndex, of image: BinaryImage) -> [LoadRequest] {
        var requests: [LoadRequest] = []
        var seen = Set<String>()
        let toolchain = ToolchainCode.functions(in: code, of: image)
        let sites = libraryLoaders.sorted().flatMap { code.callsToImport[$0] ?? [] }.sorted { $0.address < $1.address }
        for site in sites where site.caller.map({ toolchain[$0] == nil }) ?? true {
            // A name the code computes at run time is listed as unknown.
            guard let name = loadedName(site) else {
                requests.append(LoadRequest(names: [], callSite: site, source: .call))
                continue
            }
            guard seen.insert("\(name)\u{0}\(site.caller ?? -1)").inserted else { continue }
            requests.append(LoadRequest(names: [name], callSite: site, source: .call))
        }
        return requests
    }

    /// The library a loader call loads: its first argument when that is a
    /// string literal (`dlopen`), else the last literal the function used
    /// that looks like a library file name (`dlmopen`'s second argument,
    /// and Swift, which converts the literal before passing it); `nil` when
    /// neither is known.
    public static func loadedName(_ site: CallSite) -> String? {
        literalArgument(site, where: looksLikeLibrary)
    }

    /// The literal a call passes, as far as the code shows it: its first
    /// argument when that is a string literal `accepts`, else the last
    /// literal the function used before the call when `accepts` takes it
    /// (Swift converts a literal before passing it); `nil` when neither is.
    static func literalArgument(_ site: CallSite, where accepts: (String) -> Bool) -> String? {
        if let argument = site.firstArgument, accepts(argument) { return argument }
        return site.recentString.flatMap { accepts($0) ? $0 : nil }
    }

    /// `libfoo.so`, `libfoo.so.1`, `/path/to/libfoo.so`,
    /// `$ORIGIN/libfoo.so`, `Foo.framework/Foo`, `libfoo.dylib`: a path made
    /// of file-name characters (letters, digits, non-ASCII, `._-+@~,=` and
    /// `/`, and `$`, `{`, `}` for the loader's `$ORIGIN`), so never a printf
    /// format (`%.*s/%s%s.so`, from which code builds a name at run time) or
    /// a sentence that mentions a library.
    static func looksLikeLibrary(_ text: String) -> Bool {
        guard text.utf8.count < 256, text.unicodeScalars.allSatisfy(isFileNameCharacter) else { return false }
        return text.hasSuffix(".so") || text.contains(".so.") || text.hasSuffix(".dylib") || text.contains(".framework/")
    }

    private static func isFileNameCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", ".", "_", "-", "+", "@", "~", ",", "=", "/", "$", "{", "}": true
        default: scalar.value >= 0x80
        }
    }

    /// Objective-C selectors that query the OS version: `-[UIDevice
    /// systemVersion]`, `-[NSProcessInfo operatingSystemVersion]`,
    /// `-[NSProcessInfo isOperatingSystemAtLeastVersion:]` and
    /// `operatingSystemVersionString`.
    static let versionQuerySelectors: Set<String> = [
        "systemVersion", "operatingSystemVersion", "isOperatingSystemAtLeastVersion:", "operatingSystemVersionString",
    ]

    /// Run-time OS version queries: `uname(2)`, Foundation's
    /// `ProcessInfo.operatingSystemVersion` and `isOperatingSystemAtLeast`,
    /// UIKit's `UIDevice.systemVersion`, clang's `@available` helpers and
    /// the Swift standard library's `#available` one
    /// (`_stdlib_isOSVersionAtLeast`). Mangled Swift names hold the
    /// identifiers verbatim, so raw names are searched without demangling.
    @Sendable static func isVersionQuery(_ name: String) -> Bool {
        name == "uname" || name == "__isOSVersionAtLeast" || name == "__isPlatformVersionAtLeast"
            || name == "_availability_version_check"
            || versionQueryFragments.contains { ByteSearch.contains(name, $0) }
    }

    /// What the raw name of a Swift or Objective-C version query holds.
    private static let versionQueryFragments = [
        "operatingSystemVersion", "isOperatingSystemAtLeast", "13systemVersion", "_stdlib_isOSVersionAtLeast",
    ]
    .map { Array($0.utf8) }
}
