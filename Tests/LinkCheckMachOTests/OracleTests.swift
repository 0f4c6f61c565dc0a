import Foundation
import LinkCheckMachO
import LinkCheckTestSupport
import Testing

/// The reader agrees with the toolchain's own Mach-O tools, run at test time
/// on every slice of the corpus: `llvm-nm -m -u` (undefined symbols and
/// their libraries) and `llvm-objdump --macho` (`--exports-trie`,
/// `--dylibs-used`, `--rpaths`, `--indirect-symbols`, `--function-starts`,
/// `--bind`/`--lazy-bind`/`--weak-bind`/`--rebase`, `--dyld-info`,
/// `--section` of `__objc_selrefs`, `--objc-meta-data`).
@Suite(.enabled(if: MachOOracle.isAvailable, "needs the toolchain's llvm-nm and llvm-objdump"))
struct OracleTests {
    static var paths: [String] { MachOCorpus.truthFiles.map { MachOCorpus.path($0) } }

    @Test(arguments: paths)
    func undefinedSymbolsEqualLlvmNm(_ path: String) throws {
        let file = try MachOFile(path: path)
        for slice in file.slices {
            let arch = Oracle.arch(of: slice, in: file)
            // The symbol table alone: `--no-dyldinfo`.
            let plain = try Oracle.nm(path, arch: arch, ["-m", "-u", "--no-dyldinfo"])
            for image in slice.images {
                let expected = plain[image.archiveMember ?? ""] ?? []
                #expect(
                    image.nlistUndefined.map(Self.nmLine(image)).sorted() == expected.sorted(),
                    "\(path) \(arch ?? "") \(image.archiveMember ?? "")")
            }
            // By default llvm-nm adds the symbols of the bind, lazy-bind and
            // weak-bind opcodes missing from the symbol table of an image
            // flagged MH_NLIST_OUTOFSYNC_WITH_DYLDINFO (it does not read
            // chained fixups): ours are the symbol table plus those imports.
            let withDyldInfo = try Oracle.nm(path, arch: arch, ["-m", "-u"])
            for image in slice.images {
                var names = Set(
                    image.nlistUndefined.map { symbol in
                        symbol.name + (image.nmLibraryName(symbol).map { " (\($0))" } ?? "")
                    })
                if image.header.flags.contains(.nlistOutOfSyncWithDyldInfo) && image.fixupFormat == .opcodes {
                    let known = Set(image.nlistUndefined.map(\.name))
                    for entry in image.imports where !known.contains(entry.name) {
                        names.insert("\(entry.name) (from \(image.objdumpLibraryName(entry.library)))")
                    }
                }
                let listed = Set((withDyldInfo[image.archiveMember ?? ""] ?? []).compactMap(Self.nmName))
                #expect(names == listed, "\(path) \(arch ?? "") \(image.archiveMember ?? "")")
            }
        }
    }

    @Test(arguments: paths)
    func exportsEqualObjdumpExportsTrie(_ path: String) throws {
        let file = try MachOFile(path: path)
        for slice in file.slices {
            guard case .image(let image) = slice.contents else { continue }
            let arch = Oracle.arch(of: slice, in: file)
            let lines = try Oracle.objdump(path, arch: arch, ["--exports-trie"]).drop { $0 != "Exports trie:" }.dropFirst()
            let trie = image.exports.filter { $0.source == .exportsTrie }
            #expect(trie.count == image.exports.count || trie.isEmpty, "\(path) \(arch ?? "")")
            // llvm-objdump prints an absolute symbol's value plus the image
            // base (0 in the corpus's dylibs), and a resolver's offset without
            // it; ours are virtual addresses, so these agree where the base is 0.
            #expect(trie.map { Self.exportLine($0, in: image) }.sorted() == lines.filter { !$0.isEmpty }.sorted(), "\(path) \(arch ?? "")")
        }
    }

    @Test(arguments: paths)
    func dylibsAndRpathsEqualObjdump(_ path: String) throws {
        let file = try MachOFile(path: path)
        for slice in file.slices {
            guard case .image(let image) = slice.contents else { continue }
            let arch = Oracle.arch(of: slice, in: file)
            let used = try Oracle.objdump(path, arch: arch, ["--dylibs-used"]).filter { $0.hasPrefix("\t") }
            var expected = image.dependencies.map { Self.dylibLine($0.installName, $0.compatibilityVersion, $0.currentVersion, $0.kind) }
            if let name = image.installName, let id = image.loadCommands.first(where: { $0.name == "LC_ID_DYLIB" }) {
                _ = id
                let idLine = used.first { $0.hasPrefix("\t\(name) (") }
                #expect(idLine != nil, "\(path) \(arch ?? "")")
                expected.insert(idLine ?? "", at: 0)
            }
            #expect(expected == used, "\(path) \(arch ?? "")")
            let rpaths = try Oracle.objdump(path, arch: arch, ["--rpaths"])
            #expect(image.rpaths == Array(rpaths.filter { !$0.isEmpty }), "\(path) \(arch ?? "")")
        }
    }

    @Test(arguments: paths)
    func loadCommandsSegmentsAndSectionsEqualObjdumpPrivateHeaders(_ path: String) throws {
        let file = try MachOFile(path: path)
        for slice in file.slices {
            guard case .image(let image) = slice.contents else { continue }
            let arch = Oracle.arch(of: slice, in: file)
            let label = "\(path) \(arch ?? "")"
            var commands: [String] = []
            var sections: [String] = []
            var segments: [String] = []
            var fields: [String: String] = [:]
            var command = ""
            func flush() {
                if fields["sectname"] != nil {
                    sections.append(
                        ["segname", "sectname", "addr", "size", "offset", "reloff", "nreloc", "reserved1", "reserved2"]
                            .map { fields[$0].map(Self.number) ?? "-" }.joined(separator: " "))
                } else if command.hasPrefix("LC_SEGMENT") {
                    segments.append(
                        ["segname", "vmaddr", "vmsize", "fileoff", "filesize"].map { fields[$0].map(Self.number) ?? "-" }.joined(
                            separator: " "))
                }
                fields = [:]
            }
            var entryOffset: String?
            var cryptID: String?
            for line in try Oracle.objdump(path, arch: arch, ["--private-headers"]) {
                let words = line.split(separator: " ", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                if line.hasPrefix("Load command") || line == "Section" {
                    flush()
                    continue
                }
                guard words.count == 2 else { continue }
                if words[0] == "cmd" {
                    command = words[1]
                    commands.append(command)
                } else if fields[words[0]] == nil {
                    fields[words[0]] = words[1]
                }
                if command == "LC_MAIN" && words[0] == "entryoff" { entryOffset = words[1] }
                if command.hasPrefix("LC_ENCRYPTION_INFO") && words[0] == "cryptid" { cryptID = words[1] }
            }
            flush()
            #expect(image.loadCommands.map(\.name) == commands, "\(label)")
            #expect(image.loadCommands.count == Int(image.header.loadCommandCount), "\(label)")
            #expect(
                image.segments.map { "\($0.name) \($0.address) \($0.virtualSize) \($0.fileOffset) \($0.fileSize)" } == segments, "\(label)")
            #expect(
                image.sections.map {
                    "\($0.segmentName) \($0.name) \($0.address) \($0.size) \($0.fileOffset) \($0.relocationsOffset) \($0.relocationCount) \($0.reserved1) \($0.reserved2)"
                } == sections, "\(label)")
            #expect(image.entryPoint.map { "\($0.offset)" } == entryOffset, "\(label)")
            if let main = image.entryPoint {
                // LC_MAIN's entryoff is from the base: main's address.
                #expect(image.exports.first { $0.name == "_main" }?.address == main.address, "\(label)")
            }
            #expect(image.encryption.map { "\($0.cryptID)" } == cryptID, "\(label)")
        }
    }

    /// A field of `--private-headers` as a decimal number (`0x…` is
    /// hexadecimal; "12 (index into …)" is 12); a name as it is.
    static func number(_ field: String) -> String {
        let first = String(field.prefix { $0 != " " })
        if first.hasPrefix("0x"), let value = UInt64(first.dropFirst(2), radix: 16) { return "\(value)" }
        return first
    }

    @Test(arguments: paths)
    func stubsAndSymbolPointersEqualObjdumpIndirectSymbols(_ path: String) throws {
        let file = try MachOFile(path: path)
        for slice in file.slices {
            guard case .image(let image) = slice.contents else { continue }
            let arch = Oracle.arch(of: slice, in: file)
            let label = "\(path) \(arch ?? "")"
            // "address index name" per section; the name is LOCAL or
            // ABSOLUTE for entries without a symbol.
            var section = ""
            var listed: [String: String] = [:]
            for line in try Oracle.objdump(path, arch: arch, ["--indirect-symbols"]) {
                if line.hasPrefix("Indirect symbols for (") {
                    section = String(line.dropFirst("Indirect symbols for (".count).prefix { $0 != ")" })
                    continue
                }
                let fields = line.split(separator: " ")
                guard fields.count >= 2, fields[0].hasPrefix("0x"), let address = UInt64(fields[0].dropFirst(2), radix: 16) else {
                    continue
                }
                listed["\(section) \(hex(address))"] = String(fields[fields.count - 1])
            }
            let ours =
                image.symbolStubs.map { ("\($0.section) \(hex($0.address))", $0.name, $0.importIndex) }
                + image.symbolPointers.map { ("\($0.section) \(hex($0.address))", $0.name, $0.importIndex) }
            for (key, name, importIndex) in ours {
                switch listed[key] {
                case "LOCAL", "ABSOLUTE", nil:
                    // No symbol in the table (stripped: MH_NLIST_OUTOFSYNC_WITH_DYLDINFO
                    // images): named from the import bound into the slot.
                    #expect(importIndex.map { image.imports[$0].name } == name, "\(label) \(key)")
                case let symbol?:
                    #expect(name == symbol, "\(label) \(key)")
                }
            }
            let named = Set(ours.map(\.0))
            for (key, name) in listed where name != "LOCAL" && name != "ABSOLUTE" {
                #expect(named.contains(key), "\(label) \(key) \(name)")
            }
            // The slot a stub jumps through holds the import of its name:
            // the decoded instructions agree with the indirect symbol table.
            #expect(image.symbolStubs.allSatisfy { $0.pointerAddress != nil }, "\(label)")
            // A stub with no import jumps through a rebased slot to the
            // image's own symbol (libexports.dylib's resolver `_foo`).
            for stub in image.symbolStubs {
                if let index = stub.importIndex {
                    #expect(image.imports[index].name == stub.name, "\(label) \(stub)")
                } else {
                    #expect(image.exports.contains { $0.name == stub.name }, "\(label) \(stub)")
                }
            }
        }
    }

    @Test(arguments: paths)
    func functionStartsEqualObjdump(_ path: String) throws {
        let file = try MachOFile(path: path)
        for slice in file.slices {
            guard case .image(let image) = slice.contents else { continue }
            let arch = Oracle.arch(of: slice, in: file)
            let listed = try Oracle.objdump(path, arch: arch, ["--function-starts"]).compactMap { UInt64($0, radix: 16) }
            #expect(image.functionStarts == listed, "\(path) \(arch ?? "")")
        }
    }

    @Test(arguments: paths)
    func bindingsAndRebasesEqualObjdump(_ path: String) throws {
        let file = try MachOFile(path: path)
        for slice in file.slices {
            guard case .image(let image) = slice.contents else { continue }
            let arch = Oracle.arch(of: slice, in: file)
            let ours = image.bindings.map { binding -> String in
                let entry = image.imports[binding.importIndex]
                let library = entry.source == .weakBind ? "" : image.objdumpLibraryName(entry.library)
                return "\(entry.source == .chainedFixups ? "" : entry.source.rawValue) \(hex(binding.address)) \(library) \(entry.name)"
            }
            switch image.fixupFormat {
            case .opcodes:
                var listed: [String] = []
                for (option, source) in [("--bind", ImportSource.bind), ("--lazy-bind", .lazyBind), ("--weak-bind", .weakBind)] {
                    for line in try Oracle.objdump(path, arch: arch, [option]) {
                        var fields = line.split(separator: " ").map(String.init)
                        guard fields.count >= 4, fields[2].hasPrefix("0x"), let address = UInt64(fields[2].dropFirst(2), radix: 16) else {
                            continue
                        }
                        if fields.last == "(weak_import)" { fields.removeLast() }
                        let library = source == .weakBind ? "" : fields[fields.count - 2]
                        listed.append("\(source.rawValue) \(hex(address)) \(library) \(fields[fields.count - 1])")
                    }
                }
                #expect(ours.sorted() == listed.sorted(), "\(path) \(arch ?? "")")
                let rebases = try Oracle.objdump(path, arch: arch, ["--rebase"]).compactMap { line -> UInt64? in
                    // "segment section address pointer|text abs32|text rel32".
                    // llvm-objdump prints text relocations (i386's `text abs32`,
                    // in the __TEXT stubs) at their offset from the segment's
                    // first section instead of from its vmaddr (0x11f0 too far
                    // in SVProgressHUD, in __objc_methname); ours are the stub
                    // operands that need them.
                    let fields = line.split(separator: " ")
                    guard fields.count >= 4, fields[2].hasPrefix("0x"), let address = UInt64(fields[2].dropFirst(2), radix: 16) else {
                        return nil
                    }
                    guard fields[3] == "text", let segment = image.segments.first(where: { $0.name == fields[0] }),
                        let first = segment.sections.first
                    else { return address }
                    return address - first.address + segment.address
                }
                #expect(image.rebases.map(\.address).sorted() == rebases.sorted(), "\(path) \(arch ?? "")")
            case .chained:
                // llvm-objdump decodes only DYLD_CHAINED_PTR_64(_OFFSET) and
                // ARM64E chains; it stops at the others (32-bit, USERLAND24).
                let output = try Oracle.objdumpOutput(path, arch: arch, ["--dyld-info"])
                guard output.status == 0 else {
                    #expect(output.standardError.contains("unsupported chained fixup pointer_format"), "\(path): \(output.standardError)")
                    #expect(!image.bindings.isEmpty || !image.rebases.isEmpty, "\(path) \(arch ?? "")")
                    continue
                }
                var listedBinds: [String] = []
                var listedRebases: [String] = []
                for line in output.standardOutput.split(separator: "\n") {
                    var fields = line.split(separator: " ").map(String.init)
                    guard fields.count >= 5, fields[2].hasPrefix("0x"), let address = UInt64(fields[2].dropFirst(2), radix: 16) else {
                        continue
                    }
                    if fields[4] == "rebase", let target = UInt64(fields[5].dropFirst(2), radix: 16) {
                        listedRebases.append("\(hex(address)) \(hex(target))")
                    } else if fields[4] == "bind" {
                        if fields.last == "import)" { fields.removeLast(2) }  // "(weak import)"
                        listedBinds.append(" \(hex(address)) \(fields[fields.count - 2]) \(fields[fields.count - 1])")
                    }
                }
                #expect(ours.sorted() == listedBinds.sorted(), "\(path) \(arch ?? "")")
                #expect(
                    image.rebases.map { "\(hex($0.address)) \(hex($0.target ?? 0))" }.sorted() == listedRebases.sorted(),
                    "\(path) \(arch ?? "")")
            case .none:
                #expect(image.bindings.isEmpty && image.rebases.isEmpty)
            }
        }
    }

    @Test(arguments: paths)
    func objectiveCReferencesEqualObjdump(_ path: String) throws {
        let file = try MachOFile(path: path)
        for slice in file.slices {
            guard case .image(let image) = slice.contents else { continue }
            let arch = Oracle.arch(of: slice, in: file)
            // Selector references, where objdump names them (images with bind
            // opcodes; it cannot follow chained rebases).
            for section in image.sections where section.name == "__objc_selrefs" && image.fixupFormat == .opcodes {
                let listed = try Oracle.objdump(path, arch: arch, ["--section=\(section.qualifiedName)"]).compactMap { line -> String? in
                    let fields = line.split(separator: " ")
                    guard fields.count == 2, let address = UInt64(fields[0], radix: 16), fields[1].hasPrefix("__TEXT:__objc_methname:")
                    else { return nil }
                    return "\(hex(address)) \(fields[1].dropFirst("__TEXT:__objc_methname:".count))"
                }
                #expect(image.selectorReferences.map { "\(hex($0.address)) \($0.selector)" } == listed, "\(path) \(arch ?? "")")
            }
            // Class references, as --objc-meta-data lists them ("address
            // value [symbol]": every slot, named where objdump can, which for
            // 32-bit images is only the image's own classes).
            var slots: [UInt64] = []
            var listed: [String] = []
            var inClassrefs = false
            for line in try Oracle.objdump(path, arch: arch, ["--objc-meta-data"]) {
                if line.hasPrefix("Contents of (") { inClassrefs = line.contains(",__objc_classrefs)") }
                let fields = line.split(separator: " ")
                guard inClassrefs, fields.count >= 2, let address = UInt64(fields[0], radix: 16) else { continue }
                slots.append(address)
                if fields.count == 3, fields[2].hasPrefix("_OBJC_CLASS_$_") {
                    listed.append("\(hex(address)) \(fields[2].dropFirst("_OBJC_CLASS_$_".count))")
                }
            }
            let ours = image.classReferences.map { "\(hex($0.address)) \($0.className)" }
            // __cfstring entries (isa, flags, str, length; pointer-sized
            // words) from the section's hex dump, their characters from the
            // __cstring dump.
            for section in image.sections where section.name == "__cfstring" && image.fixupFormat == .opcodes {
                var words: [UInt64] = []
                for line in try Oracle.objdump(path, arch: arch, ["--section=\(section.qualifiedName)"]) {
                    let columns = line.split(separator: "\t")
                    guard columns.count == 2, UInt64(columns[0], radix: 16) != nil else { continue }
                    let bytes = columns[1].split(separator: " ")
                    if bytes.first?.count == 2 {  // byte by byte, in file order (little-endian)
                        for group in stride(from: 0, to: bytes.count - 3, by: 4) {
                            words.append(bytes[group..<group + 4].reversed().reduce(0) { $0 << 8 | UInt64($1, radix: 16)! })
                        }
                    } else {
                        words += bytes.compactMap { UInt64($0, radix: 16) }
                    }
                }
                if image.header.is64Bit {  // 32-bit words, low half first
                    words = stride(from: 0, to: words.count - 1, by: 2).map { words[$0] | words[$0 + 1] << 32 }
                }
                let strings = try Self.cStrings(path, arch: arch)
                let listed = stride(from: 0, to: words.count - 3, by: 4).map { index in
                    "\(hex(section.address + UInt64(index) * UInt64(image.header.pointerSize))) \(hex(words[index + 2])) \(words[index + 3]) \(strings[words[index + 2]] ?? "-")"
                }
                #expect(
                    image.cfStrings.map { "\(hex($0.address)) \(hex($0.stringAddress)) \($0.length) \($0.value ?? "-")" } == listed,
                    "\(path) \(arch ?? "")")
            }
            #expect(image.classReferences.map(\.address) == slots, "\(path) \(arch ?? "")")
            #expect(Set(listed).isSubset(of: ours), "\(path) \(arch ?? ""): \(Set(listed).subtracting(ours))")
        }
    }

    /// The strings of `__TEXT,__cstring` by address (`llvm-objdump
    /// --section`: "address  string").
    static func cStrings(_ path: String, arch: String?) throws -> [UInt64: String] {
        var strings: [UInt64: String] = [:]
        for line in try Oracle.objdump(path, arch: arch, ["--section=__TEXT,__cstring"]) {
            guard let gap = line.range(of: "  "), let address = UInt64(line[..<gap.lowerBound], radix: 16) else { continue }
            strings[address] = String(line[gap.upperBound...])
        }
        return strings
    }

    /// An undefined symbol as `llvm-nm -m` prints it.
    static func nmLine(_ image: MachOImage) -> (NlistSymbol) -> String {
        { symbol in
            let library = image.nmLibraryName(symbol).map { " (\($0))" } ?? ""
            // "weak" for N_WEAK_REF or N_REF_TO_WEAK (the N_WEAK_DEF bit).
            let weak = symbol.isWeakReference || symbol.isWeakDefinition
            return "(undefined) \(weak ? "weak " : "")external \(symbol.name)\(library)"
        }
    }

    /// The symbol name and library of an `llvm-nm -m -u` line
    /// (`(undefined [lazy bound]) weak external NAME (from LIB)`).
    static func nmName(_ line: String) -> String? {
        guard line.hasPrefix("(undefined"), let close = line.firstIndex(of: ")") else { return nil }
        let words = line[line.index(after: close)...].split(separator: " ").drop { $0 == "weak" || $0 == "private" || $0 == "external" }
        guard let name = words.first else { return nil }
        return ([name] + words.dropFirst()).joined(separator: " ")
    }

    /// An export as `llvm-objdump --exports-trie` prints it.
    static func exportLine(_ export: MachOExport, in image: MachOImage) -> String {
        if let reexport = export.reexport {
            let library = image.dependency(for: reexport.library).map { MachOCorpus.shortName($0.installName) } ?? "?"
            let imported = reexport.importedName == export.name ? "" : reexport.importedName + " "
            return "[re-export] \(export.name) (\(imported)from \(library))"
        }
        var line = String(format: "0x%08llX  %@", export.address ?? 0, export.name)
        var notes: [String] = []
        if export.isWeakDefinition { notes.append("weak_def") }
        if export.kind == .threadLocal { notes.append("per-thread") }
        if export.kind == .absolute { notes.append("absolute") }
        if let resolver = export.resolverAddress { notes.append(String(format: "resolver=0x%08llX", resolver)) }
        if !notes.isEmpty { line += " [\(notes.joined(separator: ", "))]" }
        return line
    }

    /// A dependency as `llvm-objdump --dylibs-used` prints it.
    static func dylibLine(_ name: String, _ compatibility: PackedVersion, _ current: PackedVersion, _ kind: DependencyKind) -> String {
        let suffix = [DependencyKind.weak: ", weak", .reexport: ", reexport", .upward: ", upward", .lazy: ", lazy"][kind] ?? ""
        return "\t\(name) (compatibility version \(compatibility.fullDescription), current version \(current.fullDescription)\(suffix))"
    }
}

func hex(_ value: UInt64) -> String { "0x" + String(value, radix: 16) }

/// Runs llvm-nm and llvm-objdump from the Swift toolchain
/// (``MachOOracle``) on a corpus file, a slice at a time.
enum Oracle {

    /// The `--arch` a slice is selected by: its name in a fat file, none in a
    /// thin file or archive.
    static func arch(of slice: MachOSlice, in file: MachOFile) -> String? {
        file.container == .fat || file.container == .fat64 ? slice.cpu?.name : nil
    }

    /// `llvm-nm OPTIONS [--arch=A] PATH`, its symbol lines (trimmed) by
    /// archive member (`""` outside archives).
    static func nm(_ path: String, arch: String?, _ options: [String]) throws -> [String: [String]] {
        let output = try MachOOracle.nm(options, URL(fileURLWithPath: path), arch: arch)
        var groups: [String: [String]] = [:]
        var member = ""
        for line in output.split(separator: "\n").map(String.init) {
            if line.hasPrefix(path) && line.hasSuffix(":") {
                member = line.hasSuffix("):") ? String(line.dropLast(2).drop { $0 != "(" }.dropFirst()) : ""
                continue
            }
            groups[member, default: []].append(line.trimmingCharacters(in: .whitespaces))
        }
        return groups
    }

    /// `llvm-objdump --macho OPTIONS [--arch=A] PATH`, its lines after the
    /// first (the file name).
    static func objdump(_ path: String, arch: String?, _ options: [String]) throws -> [String] {
        let output = try MachOOracle.objdump(options, URL(fileURLWithPath: path), arch: arch)
        return Array(output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).dropFirst())
    }

    static func objdumpOutput(_ path: String, arch: String?, _ options: [String]) throws -> CommandOutput {
        try MachOOracle.captureObjdump(options, URL(fileURLWithPath: path), arch: arch)
    }
}
