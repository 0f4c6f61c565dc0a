import LinkCheckInspection
import LinkCheckRules

/// A library an image loads at run time: named by a loader call's literal
/// argument or by `.note.dlopen`, and where it resolved.
public struct LoadEdge: Sendable, Equatable {
    /// The name as the code or the note gives it.
    public var name: String
    /// The loaded image (index into the images), or `nil` when not found.
    public var target: Int?
    /// The loader call, for a call.
    public var callSite: CallSite?
    /// `call` or `note`.
    public var source: String

    /// The name of a load whose argument is not a string literal.
    public static let unknownName = "unknown"

    /// Whether the loaded name is known (a literal or a declared name).
    public var isKnown: Bool { !(source == "call" && name == Self.unknownName && target == nil) }

    public init(name: String, target: Int?, callSite: CallSite?, source: String) {
        self.name = name
        self.target = target
        self.callSite = callSite
        self.source = source
    }
}

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

    /// The library a loader call loads: its first argument when that is a
    /// string literal (`dlopen`), else the last literal the function used
    /// that looks like a library file name (`dlmopen`'s second argument,
    /// and Swift, which converts the literal before passing it); `nil` when
    /// neither is known.
    public static func loadedName(_ site: CallSite) -> String? {
        if let argument = site.firstArgument, looksLikeLibrary(argument) { return argument }
        return site.recentString.flatMap { looksLikeLibrary($0) ? $0 : nil }
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

    /// Run-time OS version queries: `uname(2)`, Foundation's
    /// `ProcessInfo.operatingSystemVersion` and `isOperatingSystemAtLeast`,
    /// UIKit's `UIDevice.systemVersion`, clang's `@available` helpers.
    /// Mangled Swift names hold the identifiers verbatim, so raw names are
    /// searched without demangling.
    static func isVersionQuery(_ name: String) -> Bool {
        name == "uname" || name == "__isOSVersionAtLeast" || name == "__isPlatformVersionAtLeast"
            || name == "_availability_version_check"
            || ["operatingSystemVersion", "isOperatingSystemAtLeast", "13systemVersion"].contains { name.contains($0) }
    }
}

extension Analyzer {
    /// For each function that loads code (``LoaderCalls/loadingAPIs``): a
    /// note when the function (or
    /// what it calls, two levels down) queries the OS version first, a
    /// warning when it does not (the guide: conditional loading belongs
    /// behind a run-time version check).
    func versionCheckFindings(_ index: Int, code: CodeIndex) -> [Finding] {
        var findings: [Finding] = []
        let loaders = code.callsToImport.keys.filter { name in
            rules.rules(matchingSymbol: name).contains { match in
                match.rule.category == .conditionalLoading && LoaderCalls.loadingAPIs.contains(match.matcher.pattern)
            }
        }
        for loader in loaders.sorted() {
            let byFunction = Dictionary(grouping: code.callsToImport[loader] ?? [], by: \.caller)
            for (function, sites) in byFunction.sorted(by: { ($0.key ?? -1) < ($1.key ?? -1) }) {
                let checked = function.map { code.importsReached(from: $0, depth: 2).filter(LoaderCalls.isVersionQuery) } ?? []
                let rule = checked.isEmpty ? BuiltInRules.unguardedLoad : BuiltInRules.guardedLoad
                let caller = function.map { displayName(code.functions[$0].name) } ?? Self.uncoveredCode(sites)
                let detail = checked.isEmpty
                    ? "\(caller) calls \(loader) without a run-time OS version check"
                    : "\(caller) calls \(loader) after a run-time OS version check (\(checked.sorted().map(displayName).joined(separator: ", ")))"
                var finding = Finding(builtIn: rule, kind: .versionCheck, image: images[index].path, symbol: loader, detail: detail)
                locate(&finding, sites: sites, in: code, api: loader)
                findings.append(finding)
            }
        }
        return findings
    }

    /// `code at 0x1a2b (no symbol covers it)`, `code at 0x1a2b and 0x1c00
    /// (no symbol covers them)`: calls outside every function symbol, by
    /// address.
    static func uncoveredCode(_ sites: [CallSite]) -> String {
        let addresses = sites.map(\.address).sorted().map { "0x" + String($0, radix: 16) }
        let shown = addresses.count > 3 ? addresses.prefix(2) + ["\(addresses.count - 2) more places"] : addresses[...]
        let list = shown.count > 1 ? shown.dropLast().joined(separator: ", ") + " and " + shown.last! : shown.joined()
        return "code at \(list) (no symbol covers \(addresses.count == 1 ? "it" : "them"))"
    }

    /// A finding per library an image loads: an error when it is unsafe and
    /// the loader is in code an extension links (or, without roles, in any
    /// framework), a note when it is safe (or only the app can run the
    /// loader), a warning when it is not found.
    func loadFindings(unsafeImages: Set<Int>) -> (findings: [Finding], passedThrough: Set<Int>) {
        var findings: [Finding] = []
        var passedThrough = Set<Int>()
        for (index, edges) in loads where index < scannedCount {
            let inExtensionScope = roles[index].role == .extension || !extensionsReaching[index].isEmpty
                || (!policy.assignsRoles && roles[index].role == .framework)
            for edge in edges where edge.isKnown {
                let from = edge.callSite.map { site in
                    let function = site.caller.flatMap { codeIndex[index]?.functions[$0].name }
                    return " (from " + (function.map { "\(displayName($0)) at 0x\(String(site.address, radix: 16))" }
                        ?? "code at 0x\(String(site.address, radix: 16)) that no symbol covers") + ")"
                } ?? (edge.source == "note" ? " (declared in .note.dlopen)" : "")
                let rule: Rule
                let detail: String
                let severity: Severity
                var context = ""
                if let target = edge.target {
                    passedThrough.insert(target)
                    let where_ = "\(edge.name) → \(images[target].path)"
                    if unsafeImages.contains(target) {
                        rule = BuiltInRules.unsafeLoad
                        severity = inExtensionScope ? .error : .note
                        context = inExtensionScope ? "" : " (only the containing app runs this code)"
                    } else {
                        rule = BuiltInRules.safeLoad
                        severity = rule.severity
                    }
                    detail = "loads \(where_)\(from)"
                } else {
                    rule = BuiltInRules.missingLoad
                    severity = rule.severity
                    detail = "loads \(edge.name)\(from), which is not found where the loader would look"
                }
                var finding = Finding(
                    builtIn: rule, kind: .loadedLibrary, image: images[index].path, symbol: edge.name,
                    chain: [images[index].linkName, edge.name], detail: detail, severity: severity)
                finding.message += context
                if let site = edge.callSite, let code = codeIndex[index] {
                    locate(&finding, sites: [site], in: code, api: edge.name)
                }
                findings.append(finding)
            }
        }
        return (findings, passedThrough)
    }
}
