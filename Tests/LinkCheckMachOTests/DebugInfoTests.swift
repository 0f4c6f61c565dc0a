import Foundation
import LinkCheckMachO
import LinkCheckTestSupport
import Testing

/// `LC_UUID`, the `__DWARF` segment of a dSYM, the debug map and the
/// relocated DWARF of the objects it names, on a debug build of the
/// sample's Uploader (``MachODebugBuild``), against LLVM 14's
/// `llvm-dwarfdump --uuid`, `llvm-objdump --section-headers`,
/// `dsymutil -dump-debug-map` and `llvm-dwarfdump --debug-line`.
@Suite struct DebugInfoTests {
    static let llvm14 = "/usr/lib/llvm-14/bin/"

    /// `llvm-dwarfdump --uuid`'s UUID of each architecture of `path`.
    static func oracleUUIDs(_ path: URL) throws -> [String: String] {
        let output = try Command.run(llvm14 + "llvm-dwarfdump", ["--uuid", path.path]).standardOutput
        var uuids: [String: String] = [:]
        for line in output.split(separator: "\n") {
            let words = line.split(separator: " ")
            guard words.count >= 3, words[0] == "UUID:" else { continue }
            uuids[String(words[2].dropFirst().dropLast())] = String(words[1])
        }
        return uuids
    }

    @Test func uuidsOfImageAndDSYMAgreeWithDwarfdump() throws {
        let build = try MachODebugBuild()
        let dwarf = try MachODebugBuild.makeDSYM(of: build.framework, at: build.directory.path("Products/Uploader.framework.dSYM"))
        let expected = try Self.oracleUUIDs(build.framework)
        #expect(expected.count == 2)
        let image = try MachOFile(path: build.framework.path)
        #expect(Dictionary(uniqueKeysWithValues: image.images.map { ($0.cpu.name, $0.uuid?.description ?? "") }) == expected)
        let segment = try DWARFSegment(path: dwarf.path)
        #expect(segment.warnings.isEmpty)
        #expect(Dictionary(uniqueKeysWithValues: segment.slices.map { ($0.cpu.name, $0.uuid?.description ?? "") }) == expected)
        #expect(try Self.oracleUUIDs(dwarf) == expected)
        #expect(segment.slices.allSatisfy { $0.fileType == .dsym })
    }

    @Test func dwarfSectionsAgreeWithObjdump() throws {
        let build = try MachODebugBuild()
        let dwarf = try MachODebugBuild.makeDSYM(of: build.framework, at: build.directory.path("Uploader.framework.dSYM"))
        let segment = try DWARFSegment(path: dwarf.path)
        let file = try Data(contentsOf: dwarf)
        for slice in segment.slices {
            let headers = try Command.run(
                Self.llvm14 + "llvm-objdump", ["--macho", "--section-headers", "--arch=\(slice.cpu.name)", dwarf.path]
            ).standardOutput
            // "  17 __debug_line     00000362 0000000000011000 DATA, DEBUG"
            let expected = headers.split(separator: "\n").compactMap { line -> (String, UInt64)? in
                let words = line.split(separator: " ")
                guard line.contains("DEBUG"), words.count >= 4, let size = UInt64(words[2], radix: 16) else { return nil }
                return (String(words[1]), size)
            }
            #expect(expected.count >= 5)
            // llvm-objdump cuts names at 16 characters, as sectname does.
            #expect(slice.sections.map(\.name) == expected.map { $0.0 })
            #expect(slice.sections.map(\.size) == expected.map { $0.1 })
            let contents = try segment.contents(of: slice).read { sections in sections.mapValues { [UInt8]($0) } }
            for section in slice.sections {
                let start = slice.fileOffset + Int(section.fileOffset)
                #expect(contents[section.name] == [UInt8](file[start..<start + Int(section.size)]), "\(section.name)")
            }
        }
    }

    @Test func truncatedDSYMNamesTheSection() throws {
        let build = try MachODebugBuild()
        let dwarf = try MachODebugBuild.makeDSYM(of: build.framework, at: build.directory.path("Uploader.framework.dSYM"))
        let last = try #require(try DWARFSegment(path: dwarf.path).slices.max { $0.fileOffset < $1.fileOffset })
        // Cut in the middle of the last slice's last section.
        let section = try #require(last.sections.max { $0.fileOffset < $1.fileOffset })
        try Data(contentsOf: dwarf).prefix(last.fileOffset + Int(section.fileOffset) + Int(section.size) / 2).write(to: dwarf)
        let segment = try DWARFSegment(path: dwarf.path)
        #expect {
            try segment.contents(of: last)
        } throws: { error in
            guard case .truncated(let path, let structure, _, _, _) = error as? MachOError else { return false }
            return path == dwarf.path && structure.hasPrefix("section __DWARF,")
        }
    }

    /// `dsymutil -dump-debug-map`'s objects, each with its timestamp and
    /// its functions (`sym`, `objAddr`, `binAddr`, `size` not 0).
    static func oracleDebugMap(_ image: URL, arch: String) throws -> [(
        file: String, timestamp: UInt64, functions: [String: (UInt64, UInt64, UInt64)]
    )] {
        let yaml = try Command.run(llvm14 + "dsymutil", ["-dump-debug-map", "--arch", arch, image.path]).standardOutput
        var objects: [(file: String, timestamp: UInt64, functions: [String: (UInt64, UInt64, UInt64)])] = []
        for line in yaml.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            if line.hasPrefix("- filename:") {
                let name = line.dropFirst("- filename:".count).trimmingCharacters(in: CharacterSet(charactersIn: " '"))
                objects.append((name, 0, [:]))
            } else if line.hasPrefix("timestamp:") {
                objects[objects.count - 1].timestamp = UInt64(line.dropFirst("timestamp:".count).trimmingCharacters(in: .whitespaces)) ?? 0
            } else if line.hasPrefix("- { sym:") {
                // - { sym: '-[UPUploader upload:]', objAddr: 0xA0, binAddr: 0x40A0, size: 0x5C }
                let body = line.dropFirst("- { sym: ".count).dropLast(2)
                let parts = body.components(separatedBy: ", objAddr: ")
                let name = parts[0].trimmingCharacters(in: CharacterSet(charactersIn: "'"))
                let numbers = parts[1].components(separatedBy: ", ").map {
                    UInt64($0.components(separatedBy: "0x").last ?? "", radix: 16) ?? 0
                }
                if numbers[2] != 0 { objects[objects.count - 1].functions[name] = (numbers[0], numbers[1], numbers[2]) }
            }
        }
        return objects
    }

    @Test(arguments: MachODebugBuild.architectures.map(\.arch))
    func debugMapAgreesWithDsymutil(arch: String) throws {
        let build = try MachODebugBuild()
        let image = try #require(try MachOFile(path: build.thinImage(arch).path).images.first)
        let map = DebugMap(symbols: image.symbols)
        let expected = try Self.oracleDebugMap(build.thinImage(arch), arch: arch)
        #expect(map.objects.map(\.name) == expected.map(\.file))
        #expect(map.objects.map(\.modificationTime) == expected.map(\.timestamp))
        #expect(map.objects.map(\.path) == [build.objectPath("UPUploader", arch).path, build.objectPath("UPLogin", arch).path])
        var checked = 0
        for (object, oracle) in zip(map.objects, expected) {
            let functions = object.symbols.filter(\.isFunction)
            #expect(Set(functions.map(\.name)) == Set(oracle.functions.keys))
            let dwarf = try ObjectDWARF(path: object.path, member: object.archiveMember, cpu: image.cpu)
            #expect(dwarf.warnings.isEmpty)
            for function in functions {
                let (objectAddress, imageAddress, size) = try #require(oracle.functions[function.name])
                #expect(function.address == imageAddress && function.size == size, "\(function.name)")
                #expect(dwarf.address(ofSymbol: function.name) == objectAddress, "\(function.name)")
                #expect(map.function(containing: imageAddress + size - 1)?.function == function)
                checked += 1
            }
        }
        #expect(checked == 5)
        #expect(map.function(containing: 0) == nil)
    }

    @Test func strippedImageHasNoDebugMap() throws {
        let build = try MachODebugBuild()
        let stripped = build.directory.path("Uploader-stripped")
        // llvm-strip -S keeps the stabs of a Mach-O file; -x drops them with
        // the other local symbols, as Xcode's release strip (strip -x) does.
        try Command.run(Self.llvm14 + "llvm-strip", ["-x", build.thinImage("arm64").path, "-o", stripped.path])
        let image = try #require(try MachOFile(path: stripped.path).images.first)
        #expect(DebugMap(symbols: image.symbols).isEmpty)
        #expect(!DebugMap(symbols: try #require(try MachOFile(path: build.thinImage("arm64").path).images.first).symbols).isEmpty)
    }

    /// Each address a relocation of `__debug_line` resolves is where a
    /// sequence of the line table starts, as `llvm-dwarfdump --debug-line`
    /// (which applies the relocations itself) prints its rows.
    @Test(arguments: MachODebugBuild.architectures.map(\.arch))
    func relocatedLineTableAddressesAgreeWithDwarfdump(arch: String) throws {
        let build = try MachODebugBuild()
        var checked = 0
        for name in ["UPUploader", "UPLogin"] {
            let path = build.objectPath(name, arch)
            let dwarf = try ObjectDWARF(path: path.path, member: nil, cpu: nil)
            let line = try #require(dwarf.sections["__debug_line"])
            let dump = try Command.run(Self.llvm14 + "llvm-dwarfdump", ["--debug-line", path.path]).standardOutput
            let rowAddresses = Set(
                dump.split(separator: "\n").compactMap { row -> UInt64? in
                    guard row.hasPrefix("0x0000") else { return nil }
                    return UInt64(row.split(separator: " ")[0].dropFirst(2), radix: 16)
                })
            let section = try #require(dwarf.image.sections.firstIndex { $0.name == "__debug_line" })
            let relocations = dwarf.image.relocations.filter { $0.sectionNumber == section + 1 }
            #expect(!relocations.isEmpty)
            for relocation in relocations {
                let offset = Int(relocation.offset)
                let value = (0..<8).reduce(UInt64(0)) { $0 | UInt64(line[offset + $1]) << (8 * UInt64($1)) }
                #expect(rowAddresses.contains(value), "\(name) \(arch) relocation at \(offset): \(value)")
                checked += 1
            }
        }
        #expect(checked >= 2)
    }
}
