import LinkCheckImage
import LinkCheckInspection

/// Renders what the inspector sees of one image (`linkcheck inspect`): for
/// ELF a focused `readelf -h -d --dyn-syms`; for Mach-O `otool -L` and
/// `dyld_info -imports` in one.
public enum InspectRenderer {
    /// Plain text: header, dependencies, search paths, then imports and
    /// exports (ELF with versions: `name@VERSION` for imports and hidden
    /// versions, `name@@VERSION` for a default version, as readelf prints
    /// them; Mach-O imports with the library each binds to).
    public static func text(_ image: BinaryImage) -> String {
        var lines = ["\(image.name):"]
        switch image.facts {
        case .elf(let facts):
            lines.append(
                "  class: ELF\(image.architecture.is64Bit ? 64 : 32)  data: \(image.architecture.byteOrder.rawValue.uppercased())  machine: \(image.architecture)  type: \(facts.fileType)  OS/ABI: \(facts.osABI)"
            )
            if let soname = image.declaredName { lines.append("  SONAME: \(soname)") }
            for needed in image.dependencyNames { lines.append("  DT_NEEDED: \(needed)") }
            for kind in [SearchPath.Kind.rpath, .runpath] {
                let paths = image.searchPaths.filter { $0.kind == kind }.map(\.path)
                if !paths.isEmpty { lines.append("  DT_\(kind == .rpath ? "RPATH" : "RUNPATH"): \(paths.joined(separator: ":"))") }
            }
            if facts.flags != 0 { lines.append("  DT_FLAGS: 0x\(String(facts.flags, radix: 16))") }
            if facts.flags1 != 0 { lines.append("  DT_FLAGS_1: 0x\(String(facts.flags1, radix: 16))") }
            lines.append("  symbol table: \(facts.symbolTable.rawValue)")
        case .macho(let facts):
            let platform =
                image.platform.map { "  platform: \($0.platform.rawValue) \($0.minimumOS)" + ($0.sdk.map { " (SDK \($0))" } ?? "") } ?? ""
            lines.append(
                "  Mach-O \(image.architecture.is64Bit ? 64 : 32)-bit  machine: \(image.architecture)  type: \(facts.fileType)\(platform)")
            lines.append("  flags: \(facts.flagNames.joined(separator: " "))")
            lines.append(
                "  MH_APP_EXTENSION_SAFE: \(facts.appExtensionSafe ? "yes" : "no")  fixups: \(facts.fixups.rawValue)"
                    + (facts.encrypted ? "  encrypted" : "") + (facts.codeSigned ? "  code signature" : ""))
            if let installName = image.declaredName { lines.append("  LC_ID_DYLIB: \(installName)") }
            for dependency in image.dependencies { lines.append("  \(loadCommand(dependency.kind)): \(dependency.name)") }
            for path in image.searchPaths { lines.append("  LC_RPATH: \(path.path)") }
            if !image.objcClassReferences.isEmpty {
                lines.append("  Objective-C classes referenced: \(image.objcClassReferences.joined(separator: " "))")
            }
            if !image.selectorReferences.isEmpty {
                lines.append("  selectors referenced: \(image.selectorReferences.joined(separator: " "))")
            }
        }
        lines.append("  imports (\(image.imports.count)):")
        lines += image.imports.map { "    \(row($0, imported: true, in: image))" }
        lines.append("  exports (\(image.exports.count)):")
        lines += image.exports.map { "    \(row($0, imported: false, in: image))" }
        lines += image.warnings.map { "  warning: \($0)" }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The load command that makes a dependency of `kind`.
    static func loadCommand(_ kind: Dependency.Kind) -> String {
        switch kind {
        case .needed: "LC_LOAD_DYLIB"
        case .weak: "LC_LOAD_WEAK_DYLIB"
        case .reexport: "LC_REEXPORT_DYLIB"
        case .upward: "LC_LOAD_UPWARD_DYLIB"
        case .lazy: "LC_LAZY_LOAD_DYLIB"
        }
    }

    /// The library a Mach-O import binds to, as `dyld_info -imports` names
    /// it: the dependency's install name, `this-image`, `main-executable`,
    /// `flat-namespace` or `weak`.
    static func library(_ reference: LibraryReference?, in image: BinaryImage) -> String? {
        switch reference {
        case nil: nil
        case .dependency(let index)?: image.dependencies.indices.contains(index) ? image.dependencies[index].name : "ordinal \(index + 1)"
        case .selfImage?: "this-image"
        case .mainExecutable?: "main-executable"
        case .flatLookup?: "flat-namespace"
        case .weakLookup?: "weak"
        }
    }

    /// The calls to imported functions: address, caller, callee, how.
    public static func callSites(_ analysis: CodeAnalysis?, machine: String) -> String {
        guard let analysis else { return "  call sites: not analysed for \(machine)\n" }
        var lines = ["  call sites to imported functions:"]
        for site in analysis.callSites {
            guard case .imported(let name) = site.callee else { continue }
            let caller = site.caller.map { analysis.functions[$0].name } ?? "?"
            var how = site.isTailCall ? "jump" : "call"
            if site.throughGOT { how += " via GOT" }
            let argument = site.firstArgument.map { " \"\($0)\"" } ?? ""
            lines.append("    0x\(String(site.address, radix: 16)) in \(caller): \(how) \(name)\(argument)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func row(_ symbol: Symbol, imported: Bool, in image: BinaryImage) -> String {
        if image.format == .macho {
            return symbol.name + (library(symbol.library, in: image).map { "  (from \($0))" } ?? "")
        }
        let type = symbol.type.description.padding(toLength: 7, withPad: " ", startingAt: 0)
        let binding = symbol.binding.description.padding(toLength: 7, withPad: " ", startingAt: 0)
        guard let version = symbol.version else { return "\(type) \(binding) \(symbol.name)" }
        let separator = imported || symbol.isVersionHidden ? "@" : "@@"
        return "\(type) \(binding) \(symbol.name)\(separator)\(version)"
    }

    /// The JSON document: an array with one object per image and one with
    /// `path` and `error` per file that failed. Every image has `path`,
    /// `format` (`elf` or `macho`), `machine`, `class`, `type`, `needed`,
    /// `imports`, `exports` and `warnings`; ELF images also `data`,
    /// `osabi`, `soname`, `runpath`, `rpath`, `flags`, `flags1`,
    /// `symbolTable` (each symbol with `name`, `version`, `binding`,
    /// `type`); Mach-O slices `name` (with the slice), `slice`, `member`,
    /// `platform`, `minOS`, `sdk`, `installName`, `dependencies` (`name`,
    /// `kind`), `rpaths`, `appExtensionSafe`, `objcClassRefs` and
    /// `selectorRefs`, and imports with the `library` they bind to. With
    /// `callSites` (by image name), each image analysed also has
    /// `callSites`: the calls to imported functions, each with `address`,
    /// `caller`, `callee`, `tailCall`, `throughGOT` and `firstArgument`, as
    /// the text lists them; `null` when its machine is not analysed.
    public static func json(
        _ results: [Result<[BinaryImage], InspectionError>], callSites: [String: CodeAnalysis?]? = nil
    ) -> String {
        encode(
            results.flatMap { result -> [Entry] in
                switch result {
                case .failure(let failure): return [Entry(first: nil, second: InspectedEntry(failure))]
                case .success(let images):
                    return images.map { image in
                        var entry = InspectedEntry(image)
                        if let analysis = callSites?[image.name] {
                            entry.callSites = analysis.map { .analysed(CallSiteEntry.imports($0)) } ?? .notAnalysed
                        }
                        return Entry(first: BinaryImageJSON(image), second: entry)
                    }
                }
            })
    }

    /// A file that could not be inspected (`path` and `error`), or an image:
    /// the keys ``BinaryImageJSON`` gives, then inspect's own
    /// (``InspectedEntry``).
    typealias Entry = MergedJSON<BinaryImageJSON, InspectedEntry>

    /// What inspect says beside ``BinaryImageJSON``: a failure's path and
    /// error; an image's symbols, ELF header and dynamic-section facts,
    /// Mach-O slice and Objective-C references, and call sites.
    struct InspectedEntry: Encodable {
        /// A failure's path (an image's is ``BinaryImageJSON/path``).
        var path: String?
        var name, slice, member: String?
        var error: String?
        var osabi: String?
        var runpath, rpath: [String]?
        var flags, flags1: UInt64?
        var objcClassRefs, selectorRefs: [String]?
        var imports, exports: [SymbolEntry]?
        /// Absent without `--call-sites`; `null` for a machine not analysed.
        var callSites: CallSites?

        init(_ failure: InspectionError) {
            path = failure.path
            error = TextRenderer.reason(failure)
        }

        init(_ image: BinaryImage) {
            imports = image.imports.map { SymbolEntry($0, in: image) }
            exports = image.exports.map { SymbolEntry($0, in: image) }
            switch image.facts {
            case .elf(let facts):
                osabi = facts.osABI
                runpath = image.searchPaths.filter { $0.kind == .runpath }.map(\.path)
                rpath = image.searchPaths.filter { $0.kind == .rpath }.map(\.path)
                flags = facts.flags
                flags1 = facts.flags1
            case .macho:
                name = image.name == image.identity.displayPath ? nil : image.name
                slice = image.identity.slice
                member = image.identity.member
                objcClassRefs = image.objcClassReferences
                selectorRefs = image.selectorReferences
            }
        }
    }

    /// The `callSites` of an image: an array, or `null` when its machine
    /// is not analysed.
    enum CallSites: Encodable {
        case analysed([CallSiteEntry])
        case notAnalysed

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .analysed(let sites): try container.encode(sites)
            case .notAnalysed: try container.encodeNil()
            }
        }
    }

    struct CallSiteEntry: Encodable {
        var address: String
        var caller: String?
        var callee: String
        var tailCall, throughGOT: Bool
        var firstArgument: String?

        /// The calls to imported functions in `analysis`.
        static func imports(_ analysis: CodeAnalysis) -> [CallSiteEntry] {
            analysis.callSites.compactMap { site in
                guard case .imported(let name) = site.callee else { return nil }
                return CallSiteEntry(
                    address: "0x\(String(site.address, radix: 16))", caller: site.caller.map { analysis.functions[$0].name },
                    callee: name, tailCall: site.isTailCall, throughGOT: site.throughGOT, firstArgument: site.firstArgument)
            }
        }
    }

    struct SymbolEntry: Encodable {
        var name: String
        var version: String?
        /// `true` for a hidden (non-default) version, `name@VER` in readelf.
        var versionHidden: Bool?
        var binding, type: String?
        /// For a Mach-O import: the library it binds to.
        var library: String?

        init(_ symbol: Symbol, in image: BinaryImage) {
            name = symbol.name
            if image.format == .macho {
                library = InspectRenderer.library(symbol.library, in: image)
                return
            }
            version = symbol.version
            versionHidden = symbol.version == nil ? nil : symbol.isVersionHidden
            binding = symbol.binding.description
            type = symbol.type.description
        }
    }
}
