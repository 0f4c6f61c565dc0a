import LinkCheckCodeIndex
import LinkCheckImage
import LinkCheckRules

/// Code the toolchain links into every binary it builds, whose loader calls
/// and look-ups by name are not the image's own conditional loading:
///
/// - compiler-rt's availability check, behind `@available` and
///   `#available` (`__isOSVersionAtLeast`, `__isPlatformVersionAtLeast`,
///   `_initializeAvailabilityCheck`, `compatibilityInitializeAvailabilityCheck`,
///   `parseSystemVersionPList`), which `dlopen`s CoreFoundation and `dlsym`s
///   its functions to read the OS version;
/// - ARCLite, which the linker adds for old deployment targets
///   (`__ARCLite__load`, `__arclite_*`);
/// - the Swift runtime's compatibility libraries (`swift51override_*`,
///   `swift56override_*`, `swift_*Compatibility*`, `swift_*BackDeploy*`)
///   and other `swift::` support code (C++ names with `N5swift`, `NK5swift`).
///
/// All three are Apple platforms' (the toolchain's libraries on Linux are
/// shared objects of their own, whose code is theirs): only Mach-O images
/// hold them. A function is recognised by its name, or, in a function no
/// symbol names (Mach-O `sub_<hex>`, from `LC_FUNCTION_STARTS` in a
/// stripped image), by what compiler-rt's code loads: every `dlopen` and
/// `dlsym` it makes passes CoreFoundation's path or one of the
/// CoreFoundation names the availability check looks up
/// (``availabilityCheckLiterals``).
public enum ToolchainCode {
    /// Which part of the toolchain a function comes from.
    public enum Origin: String, Sendable, CaseIterable {
        case availabilityCheck = "availability-check"
        case arcLite = "arclite"
        case swiftSupport = "swift-support"

        /// How a report names it.
        public var description: String {
            switch self {
            case .availabilityCheck: "the toolchain's availability check (compiler-rt)"
            case .arcLite: "ARCLite (the toolchain's ARC support for older OSes)"
            case .swiftSupport: "the Swift runtime's compatibility and support code"
            }
        }
    }

    /// The part of the toolchain the function named `name` (raw; for
    /// Mach-O without the leading `_`) comes from, by name; `nil` for any
    /// other function. Mangled C++ names keep the identifiers verbatim:
    /// ARCLite's `static void __ARCLite__load()` is `_ZL15__ARCLite__loadv`,
    /// the Swift compatibility libraries' `swift::getRootSuperclass()`
    /// lambda `_ZZN5swift17getRootSuperclassEv…`.
    public static func origin(ofFunction name: String) -> Origin? {
        if availabilityCheckFunctions.contains(name) { return .availabilityCheck }
        var bytesOfName = name
        return bytesOfName.withUTF8 { bytes in
            if availabilityCheckEntryPointBytes.contains(where: { bytes.starts(with: $0) }) { return .availabilityCheck }
            if arcLiteFragments.contains(where: { ByteSearch.contains(bytes, $0) }) { return .arcLite }
            // Asked of every function of an index: the bytes are searched
            // first, the rare name that holds a fragment is looked at again.
            let plain = UnsafeBufferPointer(rebasing: bytes.drop { $0 == UInt8(ascii: "_") })
            if ByteSearch.contains(bytes, overrideMarker) && isSwiftOverride(name)
                || (bytes.starts(with: "_Z".utf8) && swiftNamespaces.contains { ByteSearch.contains(bytes, $0) })
                || (plain.starts(with: "swift_".utf8) && swiftSupportWords.contains { ByteSearch.contains(plain, $0) })
            {
                return .swiftSupport
            }
            return nil
        }
    }

    /// What the C names of the Swift compatibility libraries' functions
    /// hold (`swift_getFunctionTypeMetadataGlobalActorBackDeploy`,
    /// `swift_…_Compatibility50`).
    static let swiftSupportWords = ["Compatibility", "BackDeploy", "override"].map { Array($0.utf8) }

    /// What ARCLite's function names hold (`__ARCLite__load`, `__arclite_…`).
    static let arcLiteFragments = ["__ARCLite__", "__arclite_"].map { Array($0.utf8) }

    /// What every Swift override's name holds.
    static let overrideMarker = Array("override_".utf8)

    /// What a mangled C++ name in namespace `swift` holds.
    static let swiftNamespaces = ["N5swift", "NK5swift"].map { Array($0.utf8) }

    /// What `@available` (and Swift's `#available`, on older OSes) calls:
    /// compiler-rt's entry points, which answer whether the OS is at least
    /// a version.
    public static let availabilityCheckEntryPoints: Set<String> = ["__isOSVersionAtLeast", "__isPlatformVersionAtLeast"]

    /// ``availabilityCheckEntryPoints``' UTF-8 bytes.
    static let availabilityCheckEntryPointBytes = availabilityCheckEntryPoints.sorted().map { Array($0.utf8) }

    /// compiler-rt's own functions besides the `__is…VersionAtLeast`
    /// entry points.
    static let availabilityCheckFunctions: Set<String> = [
        "_initializeAvailabilityCheck", "compatibilityInitializeAvailabilityCheck", "parseSystemVersionPList",
    ]

    /// `swift51override_conformsToProtocol`, alone or inside a C++ name
    /// (`_ZN5swift33swift56override_…`): `swift`, digits, `override_`.
    static func isSwiftOverride(_ name: String) -> Bool {
        var rest = name[...]
        while let range = rest.range(of: "override_") {
            let before = rest[..<range.lowerBound]
            let digits = before.reversed().prefix { $0.isASCII && $0.isNumber }
            if !digits.isEmpty, before.dropLast(digits.count).hasSuffix("swift") { return true }
            rest = rest[range.upperBound...]
        }
        return false
    }

    /// What compiler-rt's availability check passes to `dlopen` and
    /// `dlsym`: CoreFoundation's path and the functions and constants it
    /// reads the OS version with.
    public static let availabilityCheckLiterals: Set<String> = [
        "/System/Library/Frameworks/CoreFoundation.framework/CoreFoundation", "_availability_version_check",
        "kCFAllocatorNull", "CFDataCreateWithBytesNoCopy", "CFPropertyListCreateWithData", "CFPropertyListCreateFromXMLData",
        "CFStringCreateWithCStringNoCopy", "CFDictionaryGetValue", "CFGetTypeID", "CFStringGetTypeID", "CFStringGetCString",
        "CFRelease", "CFBundleGetVersionNumber", "_CFStringCreateWithBytesNoCopy",
    ]

    /// The functions of `code`, the code of `image`, that hold its call
    /// sites and references (``CodeIndex/siteCallers``) and are the
    /// toolchain's (indexes into ``CodeIndex/functions``), with where they
    /// come from; none in an ELF image.
    public static func functions(in code: CodeIndex, of image: BinaryImage) -> [Int: Origin] {
        guard image.format == .macho else { return [:] }
        var found: [Int: Origin] = [:]
        for index in code.siteCallers {
            if let origin = origin(ofFunction: code.functions[index].name) { found[index] = origin }
        }
        // A function no symbol names: its loader calls tell.
        var loads: [Int: Bool] = [:]
        for loader in ["dlopen", "dlsym"] {
            for site in code.callsToImport[loader] ?? [] {
                guard let caller = site.caller, found[caller] == nil, code.functions[caller].name.hasPrefix("sub_") else { continue }
                let isAvailabilityCheck = LoaderCalls.literalArgument(site, where: availabilityCheckLiterals.contains) != nil
                loads[caller] = (loads[caller] ?? true) && isAvailabilityCheck
            }
        }
        for (caller, allAvailabilityCheck) in loads where allAvailabilityCheck { found[caller] = .availabilityCheck }
        return found
    }

    /// The imports of interest (``CodeIndex/callsToImport``, message sends
    /// aside) that the toolchain's functions of `code`, the code of `image`,
    /// call, by origin: `[.availabilityCheck: ["dlopen", "dlsym"]]`.
    public static func calls(in code: CodeIndex, of image: BinaryImage) -> [Origin: Set<String>] {
        let toolchain = functions(in: code, of: image)
        guard !toolchain.isEmpty else { return [:] }
        var calls: [Origin: Set<String>] = [:]
        for (name, sites) in code.callsToImport where !name.hasPrefix("objc_msgSend") {
            for origin in Set(sites.compactMap({ $0.caller.flatMap { toolchain[$0] } })) { calls[origin, default: []].insert(name) }
        }
        return calls
    }

    /// One note per origin for the whole run, naming the images (by
    /// ``BinaryImage/shortName``, in order) whose toolchain code calls what
    /// (`calls`: each image's ``calls(in:of:)``): "the toolchain's availability
    /// check (compiler-rt) in 2 images (Kit.framework, Net.framework) calls
    /// dlopen, dlsym: the toolchain's own code, not the images' conditional
    /// loading; left out of the findings".
    static func remarks(_ calls: [(image: String, calls: [Origin: Set<String>])]) -> [String] {
        Origin.allCases.compactMap { origin in
            let images = calls.filter { $0.calls[origin] != nil }
            guard !images.isEmpty else { return nil }
            let functions = images.reduce(into: Set<String>()) { $0.formUnion($1.calls[origin]!) }.sorted()
            // The slices of a fat file share a name: each is named, and
            // counted, once (a fat file is one image to a reader).
            let names = images.map(\.image).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
            let count = names.count == 1 ? "1 image" : "\(names.count) images"
            return "\(origin.description) in \(count) (\(names.joined(separator: ", "))) calls \(functions.joined(separator: ", ")): "
                + "the toolchain's own code, not the images' conditional loading; left out of the findings"
        }
    }
}
