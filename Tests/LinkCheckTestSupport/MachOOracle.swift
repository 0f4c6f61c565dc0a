import Foundation

/// LLVM's Mach-O tools as oracles: what `llvm-objdump`, `llvm-nm`,
/// `llvm-readobj` and `llvm-lipo` print, parsed. `arch` picks a slice of a
/// fat file (`arm64`, `x86_64`, `armv7`); `nil` reads a thin file.
///
/// The toolchain's `llvm-objdump` and `llvm-nm` (LLVM 21) read chained
/// fixups; Debian's LLVM 14 gives `llvm-readobj`, the one that names
/// `MH_APP_EXTENSION_SAFE`, and `llvm-lipo`.
public enum MachOOracle {
    /// The `mach_header` as `llvm-objdump --macho --private-header` prints
    /// it: `MH_MAGIC_64`, `ARM64`, `ALL`, `DYLIB`, and the flags' names
    /// without `MH_` (`TWOLEVEL`, `APP_EXTENSION_SAFE`).
    public struct Header: Sendable, Equatable {
        public var magic: String
        public var cpuType: String
        public var cpuSubtype: String
        public var fileType: String
        public var flags: Set<String>

        public init(magic: String, cpuType: String, cpuSubtype: String, fileType: String, flags: Set<String>) {
            self.magic = magic
            self.cpuType = cpuType
            self.cpuSubtype = cpuSubtype
            self.fileType = fileType
            self.flags = flags
        }
    }

    /// One load command of `llvm-objdump --macho --private-headers`: its
    /// `cmd` (`LC_RPATH`) and its other lines as key and value
    /// (`path` → `@executable_path/Frameworks`, with the `(offset N)`
    /// suffix removed).
    public struct LoadCommand: Sendable, Equatable {
        public var command: String
        public var fields: [String: String]
    }

    /// A bind of a pointer slot to an imported symbol: from the bind and
    /// lazy-bind opcodes (`--bind --lazy-bind`), or from chained fixups
    /// (`--dyld-info`). `library` is the install name's short form
    /// (`UIKit`, `libobjc`).
    public struct Binding: Sendable, Hashable {
        public var section: String
        public var library: String
        public var symbol: String

        public init(section: String, library: String, symbol: String) {
            self.section = section
            self.library = library
            self.symbol = symbol
        }
    }

    public static var objdumpTool: String { MachOFixtures.toolchainBin.appendingPathComponent("llvm-objdump").path }
    public static var nmTool: String { MachOFixtures.toolchainBin.appendingPathComponent("llvm-nm").path }
    static var ar: String { MachOFixtures.toolchainBin.appendingPathComponent("llvm-ar").path }
    static var readobj: String { MachOFixtures.llvm14Bin.appendingPathComponent("llvm-readobj").path }
    static var lipo: String { MachOFixtures.llvm14Bin.appendingPathComponent("llvm-lipo").path }

    /// The toolchain's `llvm-objdump` and `llvm-nm` are there to run.
    public static var isAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: nmTool) && FileManager.default.isExecutableFile(atPath: objdumpTool)
    }

    /// What `llvm-objdump --macho OPTIONS [--arch=A] PATH` prints.
    ///
    /// - Throws: ``CommandFailure`` when llvm-objdump exits non-zero.
    public static func objdump(_ options: [String], _ path: URL, arch: String? = nil) throws -> String {
        try Command.run(objdumpTool, objdumpArguments(options, path, arch: arch)).standardOutput
    }

    /// `llvm-objdump --macho OPTIONS [--arch=A] PATH`, run to its end
    /// whatever its exit status.
    public static func captureObjdump(_ options: [String], _ path: URL, arch: String? = nil) throws -> CommandOutput {
        try Command.capture(objdumpTool, objdumpArguments(options, path, arch: arch))
    }

    /// What `llvm-nm OPTIONS [--arch=A] PATH` prints.
    ///
    /// - Throws: ``CommandFailure`` when llvm-nm exits non-zero.
    public static func nm(_ options: [String], _ path: URL, arch: String? = nil) throws -> String {
        try Command.run(nmTool, options + archArguments(arch) + [path.path]).standardOutput
    }

    private static func objdumpArguments(_ options: [String], _ path: URL, arch: String?) -> [String] {
        ["--macho"] + options + archArguments(arch) + [path.path]
    }

    /// `--arch=A` for the slice `arch` of a fat file, nothing for a thin one.
    private static func archArguments(_ arch: String?) -> [String] {
        arch.map { ["--arch=\($0)"] } ?? []
    }

    private static func objdumpLines(_ path: URL, _ arch: String?, _ options: [String]) throws -> [Substring] {
        try objdump(options, path, arch: arch).split(separator: "\n")
    }

    /// `llvm-lipo -archs`: the architectures of a fat file in file order,
    /// or the one of a thin file.
    public static func architectures(_ path: URL) throws -> [String] {
        try Command.run(lipo, ["-archs", path.path]).standardOutput.split(separator: " ")
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
    }

    /// `llvm-objdump --macho --private-header`'s header (the first, for an
    /// archive).
    public static func header(_ path: URL, arch: String? = nil) throws -> Header {
        let lines = try objdumpLines(path, arch, ["--private-header"])
        guard let index = lines.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces).hasPrefix("magic ") }),
            index + 1 < lines.count
        else {
            throw OracleFailure(description: "llvm-objdump printed no Mach header for \(path.path)")
        }
        // "MH_MAGIC_64   ARM64        ALL  0x00       DYLIB    16       1608   NOUNDEFS DYLDLINK TWOLEVEL"
        let fields = lines[index + 1].split(separator: " ").map(String.init)
        guard fields.count >= 7 else { throw OracleFailure(description: "unexpected header line: \(lines[index + 1])") }
        return Header(magic: fields[0], cpuType: fields[1], cpuSubtype: fields[2], fileType: fields[4], flags: Set(fields.dropFirst(7)))
    }

    /// `llvm-objdump --macho --private-headers`' load commands, in order.
    public static func loadCommands(_ path: URL, arch: String? = nil) throws -> [LoadCommand] {
        var commands: [LoadCommand] = []
        for line in try objdumpLines(path, arch, ["--private-headers"]) {
            let text = line.trimmingCharacters(in: .whitespaces)
            guard let space = text.firstIndex(of: " ") else { continue }
            let key = String(text[..<space])
            var value = text[space...].trimmingCharacters(in: .whitespaces)
            if let offset = value.range(of: #" \(offset \d+\)$"#, options: .regularExpression) {
                value.removeSubrange(offset)
            }
            if key == "cmd" {
                commands.append(LoadCommand(command: value, fields: [:]))
            } else if !commands.isEmpty, commands[commands.count - 1].fields[key] == nil {
                commands[commands.count - 1].fields[key] = value
            }
        }
        return commands
    }

    /// The `LC_RPATH` paths, in load-command order.
    public static func rpaths(_ path: URL, arch: String? = nil) throws -> [String] {
        try loadCommands(path, arch: arch).filter { $0.command == "LC_RPATH" }.compactMap { $0.fields["path"] }
    }

    /// `llvm-objdump --macho --dylibs-used`: the install names of the
    /// dylibs an image links, in load-command order (a dylib's own
    /// `LC_ID_DYLIB` first).
    public static func dylibsUsed(_ path: URL, arch: String? = nil) throws -> [String] {
        try objdumpLines(path, arch, ["--dylibs-used"]).compactMap { line in
            // "\t/usr/lib/libobjc.A.dylib (compatibility version 1.0.0, current version 1.0.0)"
            guard line.hasPrefix("\t"), let open = line.range(of: " (compatibility version") else { return nil }
            return line[line.index(after: line.startIndex)..<open.lowerBound].trimmingCharacters(in: .whitespaces)
        }
    }

    /// `llvm-nm -m -u`: each undefined symbol with the library its
    /// two-level ordinal names (`(from UIKit)`), `nil` when nm names none
    /// (an object file).
    public static func undefinedSymbols(_ path: URL, arch: String? = nil) throws -> [String: String?] {
        var symbols: [String: String?] = [:]
        for line in try nm(["-m", "-u"], path, arch: arch).split(separator: "\n") {
            // "                 (undefined) external _OBJC_CLASS_$_UIApplication (from UIKit)"
            guard let external = line.range(of: "external ") else { continue }
            var rest = line[external.upperBound...]
            var library: String?
            if let from = rest.range(of: " (from ", options: .backwards), rest.hasSuffix(")") {
                library = String(rest[from.upperBound..<rest.index(before: rest.endIndex)])
                rest = rest[..<from.lowerBound]
            }
            symbols[String(rest)] = library
        }
        return symbols
    }

    /// The symbols bound to pointer slots: bind and lazy-bind opcodes for
    /// an image with `LC_DYLD_INFO(_ONLY)`, the chained fixups' binds
    /// otherwise (`llvm-objdump --dyld-info` prints only those).
    public static func bindings(_ path: URL, arch: String? = nil) throws -> Set<Binding> {
        var bindings = Set<Binding>()
        if try usesChainedFixups(path, arch: arch) {
            for line in try objdumpLines(path, arch, ["--dyld-info"]) {
                // "__DATA  __objc_classrefs 0xC000  0x8010000000000001 bind   0x0    UIKit   _OBJC_CLASS_$_UIApplication"
                let fields = line.split(separator: " ").map(String.init)
                if fields.count >= 8, fields[4] == "bind" {
                    bindings.insert(Binding(section: fields[1], library: fields[6], symbol: fields[7]))
                }
            }
            return bindings
        }
        var table = ""
        for line in try objdumpLines(path, arch, ["--bind", "--lazy-bind"]) {
            if line.hasSuffix("table:") { table = String(line); continue }
            let fields = line.split(separator: " ").map(String.init)
            guard fields.count >= 5, fields[2].hasPrefix("0x") else { continue }
            switch table {
            case "Bind table:" where fields.count >= 7:
                // "__DATA   __objc_classrefs   0x0000C0C8 pointer         0 UIKit            _OBJC_CLASS_$_UIApplication"
                bindings.insert(Binding(section: fields[1], library: fields[5], symbol: fields[6]))
            case "Lazy bind table:":
                // "__DATA   __la_symbol_ptr    0x0000C018 libobjc          _objc_msgSend"
                bindings.insert(Binding(section: fields[1], library: fields[3], symbol: fields[4]))
            default:
                continue
            }
        }
        return bindings
    }

    /// Whether the image has `LC_DYLD_CHAINED_FIXUPS`.
    public static func usesChainedFixups(_ path: URL, arch: String? = nil) throws -> Bool {
        try loadCommands(path, arch: arch).contains { $0.command == "LC_DYLD_CHAINED_FIXUPS" }
    }

    /// The pointer formats of the chained fixups' segments
    /// (`DYLD_CHAINED_PTR_64`), from `llvm-objdump --chained-fixups`.
    public static func chainedPointerFormats(_ path: URL, arch: String? = nil) throws -> Set<String> {
        Set(
            try objdumpLines(path, arch, ["--chained-fixups"]).compactMap { line in
                // "  pointer_format = 2 (DYLD_CHAINED_PTR_64)"
                guard line.contains("pointer_format = "), let open = line.firstIndex(of: "("), line.hasSuffix(")") else { return nil }
                return String(line[line.index(after: open)..<line.index(before: line.endIndex)])
            })
    }

    /// The section names (`__objc_selrefs`, `__objc_stubs`), in order.
    public static func sections(_ path: URL, arch: String? = nil) throws -> [String] {
        try objdumpLines(path, arch, ["--section-headers"]).compactMap { line in
            // "  7 __objc_selrefs   00000010 000000000000c008 DATA"
            let fields = line.split(separator: " ")
            return fields.count >= 4 && Int(fields[0]) != nil ? String(fields[1]) : nil
        }
    }

    /// The C strings of a `cstring_literals` section (`__TEXT,__cstring`,
    /// `__TEXT,__objc_methname`) by virtual address.
    public static func cStrings(_ path: URL, arch: String? = nil, section: String = "__TEXT,__cstring") throws -> [UInt64: String] {
        var strings: [UInt64: String] = [:]
        for line in try objdumpLines(path, arch, ["--section=\(section)"]) {
            // "00000000000040f8  openURL:"
            guard let space = line.firstIndex(of: " "), let address = UInt64(line[..<space], radix: 16) else { continue }
            strings[address] = String(line[space...].dropFirst(2))
        }
        return strings
    }

    /// The selector names `__DATA,__objc_selrefs` (or `__DATA_CONST`)
    /// references. With bind opcodes the slots hold addresses, which
    /// `llvm-objdump --section` resolves; in a chained image they hold
    /// encoded rebases it cannot resolve ("not in a literal section"), so
    /// the rebase targets of `--dyld-info` are looked up among the C
    /// strings instead.
    public static func selectorReferences(_ path: URL, arch: String? = nil) throws -> Set<String> {
        if try usesChainedFixups(path, arch: arch) {
            var strings = try cStrings(path, arch: arch, section: "__TEXT,__cstring")
            if try sections(path, arch: arch).contains("__objc_methname") {
                strings.merge(try cStrings(path, arch: arch, section: "__TEXT,__objc_methname")) { first, _ in first }
            }
            var selectors = Set<String>()
            for line in try objdumpLines(path, arch, ["--dyld-info"]) {
                // "__DATA  __objc_selrefs  0xC010  0x00100000000040B4 rebase   0x40B4"
                let fields = line.split(separator: " ")
                guard fields.count >= 6, fields[1] == "__objc_selrefs", fields[4] == "rebase",
                    let target = UInt64(fields[5].dropFirst(2), radix: 16)
                else { continue }
                guard let name = strings[target] else {
                    throw OracleFailure(description: "selector reference to 0x\(String(target, radix: 16)) is no C string in \(path.path)")
                }
                selectors.insert(name)
            }
            return selectors
        }
        var selectors = Set<String>()
        for segment in ["__DATA", "__DATA_CONST"] {
            for line in try objdumpLines(path, arch, ["--section=\(segment),__objc_selrefs"]) {
                // "000000000000c0b0  __TEXT:__cstring:openURL:" (segment:section:string)
                guard let segment = line.range(of: "  __TEXT:"),
                    let section = line[segment.upperBound...].firstIndex(of: ":")
                else { continue }
                selectors.insert(String(line[line.index(after: section)...]))
            }
        }
        return selectors
    }

    /// Whether `llvm-readobj --file-headers` lists `MH_APP_EXTENSION_SAFE`
    /// for the image (the slice `arch` of a fat file).
    public static func isApplicationExtensionSafe(_ path: URL, arch: String? = nil) throws -> Bool {
        let directory = try TemporaryDirectory()
        let file = try slice(path, arch, to: directory.path("slice"))
        return try Command.run(readobj, ["--file-headers", file.path]).standardOutput.contains("MH_APP_EXTENSION_SAFE (0x2000000)")
    }

    /// `llvm-ar t`: the member names of a static archive (the slice `arch`
    /// of a fat file).
    public static func archiveMembers(_ path: URL, arch: String? = nil) throws -> [String] {
        let directory = try TemporaryDirectory()
        let file = try slice(path, arch, to: directory.path("slice.a"))
        return try Command.run(ar, ["t", file.path]).standardOutput.split(separator: "\n").map(String.init)
    }

    /// `path` itself when it is thin, else its slice `arch` taken out with
    /// `llvm-lipo -thin` to `output`: for tools that read every slice of a
    /// fat file (`FAT_MAGIC` or `FAT_MAGIC_64`, big-endian).
    private static func slice(_ path: URL, _ arch: String?, to output: URL) throws -> URL {
        let magic = try FileHandle(forReadingFrom: path).read(upToCount: 4) ?? Data()
        guard magic == Data([0xca, 0xfe, 0xba, 0xbe]) || magic == Data([0xca, 0xfe, 0xba, 0xbf]) else { return path }
        guard let arch else { throw OracleFailure(description: "\(path.path) is a fat file: name the slice") }
        try Command.run(lipo, ["-thin", arch, path.path, "-output", output.path])
        return output
    }
}

/// An oracle tool printed something the parser did not expect.
public struct OracleFailure: Error, CustomStringConvertible {
    public var description: String
}
