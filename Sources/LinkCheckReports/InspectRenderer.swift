import LinkCheckInspection

/// Renders what the inspector sees of one image (`linkcheck inspect`): a
/// focused `readelf -h -d --dyn-syms`.
public enum InspectRenderer {
    /// Plain text: header, dynamic section, imports and exports with
    /// versions (`name@VERSION` for imports and hidden versions,
    /// `name@@VERSION` for a default version, as readelf prints them).
    public static func text(_ image: BinaryImage) -> String {
        var lines = [
            "\(image.path):",
            "  class: ELF\(image.elfClass.rawValue)  data: \(image.dataEncoding.rawValue.uppercased())  machine: \(image.machine)  type: \(image.fileType)  OS/ABI: \(image.osABI)",
        ]
        if let soname = image.dynamic.soname { lines.append("  SONAME: \(soname)") }
        for needed in image.dynamic.needed { lines.append("  DT_NEEDED: \(needed)") }
        if !image.dynamic.rpath.isEmpty { lines.append("  DT_RPATH: \(image.dynamic.rpath.joined(separator: ":"))") }
        if !image.dynamic.runpath.isEmpty { lines.append("  DT_RUNPATH: \(image.dynamic.runpath.joined(separator: ":"))") }
        if image.dynamic.flags != 0 { lines.append("  DT_FLAGS: 0x\(String(image.dynamic.flags, radix: 16))") }
        if image.dynamic.flags1 != 0 { lines.append("  DT_FLAGS_1: 0x\(String(image.dynamic.flags1, radix: 16))") }
        lines.append("  symbol table: \(image.symbolTable.rawValue)")
        lines.append("  imports (\(image.imports.count)):")
        lines += image.imports.map { "    \(row($0, imported: true))" }
        lines.append("  exports (\(image.exports.count)):")
        lines += image.exports.map { "    \(row($0, imported: false))" }
        lines += image.warnings.map { "  warning: \($0)" }
        return lines.joined(separator: "\n") + "\n"
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

    private static func row(_ symbol: Symbol, imported: Bool) -> String {
        let type = symbol.type.description.padding(toLength: 7, withPad: " ", startingAt: 0)
        let binding = symbol.binding.description.padding(toLength: 7, withPad: " ", startingAt: 0)
        guard let version = symbol.version else { return "\(type) \(binding) \(symbol.name)" }
        let separator = imported || symbol.isVersionHidden ? "@" : "@@"
        return "\(type) \(binding) \(symbol.name)\(separator)\(version)"
    }

    /// The JSON document: an array with one object per image (`path`,
    /// `class`, `data`, `machine`, `type`, `osabi`, `soname`, `needed`,
    /// `runpath`, `rpath`, `flags`, `flags1`, `symbolTable`, `imports`,
    /// `exports`, each symbol with `name`, `version`, `binding`, `type`),
    /// and one with `path` and `error` per file that failed. With
    /// `callSites` (by image path), each image analysed also has
    /// `callSites`: the calls to imported functions, each with `address`,
    /// `caller`, `callee`, `tailCall`, `throughGOT` and `firstArgument`, as
    /// the text lists them; `null` when its machine is not analysed.
    public static func json(
        _ results: [Result<BinaryImage, InspectionError>], callSites: [String: CodeAnalysis?]? = nil
    ) -> String {
        encode(results.map { result in
            var entry = Entry(result)
            if case .success(let image) = result, let analysis = callSites?[image.path] {
                entry.callSites = analysis.map { .analysed(CallSiteEntry.imports($0)) } ?? .notAnalysed
            }
            return entry
        })
    }

    struct Entry: Encodable {
        var path: String
        var error: String?
        var `class`: Int?
        var data, machine, type, osabi, soname: String?
        var needed, runpath, rpath: [String]?
        var flags, flags1: UInt64?
        var symbolTable: String?
        var imports, exports: [SymbolEntry]?
        var warnings: [String]?
        /// Absent without `--call-sites`; `null` for a machine not analysed.
        var callSites: CallSites?

        init(_ result: Result<BinaryImage, InspectionError>) {
            switch result {
            case .failure(let failure):
                path = failure.path
                error = TextRenderer.reason(failure)
            case .success(let image):
                path = image.path
                `class` = image.elfClass.rawValue
                data = image.dataEncoding.rawValue
                machine = image.machine.name
                type = image.fileType.description
                osabi = image.osABI
                soname = image.dynamic.soname
                needed = image.dynamic.needed
                runpath = image.dynamic.runpath
                rpath = image.dynamic.rpath
                flags = image.dynamic.flags
                flags1 = image.dynamic.flags1
                symbolTable = image.symbolTable.rawValue
                imports = image.imports.map(SymbolEntry.init)
                exports = image.exports.map(SymbolEntry.init)
                warnings = image.warnings
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
        var binding, type: String

        init(_ symbol: Symbol) {
            name = symbol.name
            version = symbol.version
            versionHidden = symbol.version == nil ? nil : symbol.isVersionHidden
            binding = symbol.binding.description
            type = symbol.type.description
        }
    }
}
