#if canImport(CLibELF)  // ELF read through libelf: not in a build without it (Package.swift)
import Foundation
import LinkCheckCodeIndex
import LinkCheckELF
import LinkCheckImage
import LinkCheckTestSupport
import Testing

/// The inspector on C libraries built at test time, where every value is
/// known from the source.
@Suite struct FixtureInspectionTests {
    /// Builds libdep.so (DEP_1) and libfixture.so.1 linking it.
    static func buildVersionedLibrary(in directory: TemporaryDirectory, extraFlags: [String] = []) throws -> URL {
        let fixtures = Fixtures.sourceDirectory.path
        try Fixtures.compile(
            "dep.c", to: directory.path("libdep.so"),
            flags: [
                "-shared", "-Wl,-soname,libdep.so", "-Wl,--version-script=\(fixtures)/dep.map",
            ])
        return try Fixtures.compile(
            "versioned.c", to: directory.path("libfixture.so.1"),
            flags: [
                "-shared", "-Wl,-soname,libfixture.so.1", "-Wl,--version-script=\(fixtures)/versioned.map",
                "-L\(directory.url.path)", "-ldep", "-Wl,-rpath,$ORIGIN/../lib:/opt/fixture", "-Wl,-z,now",
            ] + extraFlags)
    }

    @Test func headerAndDynamicSection() throws {
        let directory = try Fixtures.temporaryDirectory()
        let image = try ELFReader.read(path: Self.buildVersionedLibrary(in: directory).path)
        #expect(image.architecture.is64Bit)
        #expect(image.architecture.byteOrder == .little)
        #expect(image.architecture.name == "x86_64")
        #expect(image.architecture.loaderMachine == "e_machine 62")
        #expect(image.fileType == .sharedLibrary)
        #expect(image.facts.elf?.osABI == "SYSV")
        #expect(image.declaredName == "libfixture.so.1")
        #expect(image.dependencyNames == ["libdep.so"])
        #expect(image.searchPaths.filter { $0.kind == .runpath }.map(\.path) == ["$ORIGIN/../lib", "/opt/fixture"])
        #expect(image.searchPaths.filter { $0.kind == .rpath }.map(\.path) == [])
        #expect(image.facts.elf!.flags & 0x8 != 0, "DF_BIND_NOW")
        #expect(image.facts.elf!.flags1 & 0x1 != 0, "DF_1_NOW")
        #expect(image.linkName == "libfixture.so.1")
    }

    @Test func rpathInsteadOfRunpath() throws {
        let directory = try Fixtures.temporaryDirectory()
        let path = try Self.buildVersionedLibrary(in: directory, extraFlags: ["-Wl,--disable-new-dtags"])
        let image = try ELFReader.read(path: path.path)
        #expect(image.searchPaths.filter { $0.kind == .rpath }.map(\.path) == ["$ORIGIN/../lib", "/opt/fixture"])
        #expect(image.searchPaths.filter { $0.kind == .runpath }.map(\.path) == [])
    }

    @Test func importsAndExportsWithVersionsBindingsAndTypes() throws {
        let directory = try Fixtures.temporaryDirectory()
        let image = try ELFReader.read(path: Self.buildVersionedLibrary(in: directory).path)
        #expect(image.facts.elf?.symbolTable == .dynsym)

        let imports = Dictionary(uniqueKeysWithValues: image.imports.map { ($0.name, $0) })
        #expect(Set(imports.keys) == ["dlopen", "dep_func"])
        #expect(imports["dep_func"]?.version == "DEP_1")
        #expect(imports["dlopen"]?.version == nil)
        #expect(imports["dlopen"]?.binding == .global)

        let exports = Dictionary(uniqueKeysWithValues: image.exports.map { ($0.name, $0) })
        #expect(
            Set(exports.keys) == [
                "api_v1", "api_v2", "weak_hook", "protected_api", "exported_data", "activation_rule", "load_plugin",
            ])
        #expect(exports["api_v1"]?.version == "LIBFIX_1.0")
        #expect(exports["api_v2"]?.version == "LIBFIX_2.0")
        #expect(exports["api_v1"]?.isVersionHidden == false)
        #expect(exports["weak_hook"]?.binding == .weak)
        #expect(exports["exported_data"]?.type == .object)
        #expect(exports["api_v1"]?.type == .function)
        #expect(exports["api_v1"]?.size ?? 0 > 0)
        #expect(exports["hidden_helper"] == nil, "hidden visibility is not exported")
    }

    @Test func aSelectionKeepsExactlyTheSelectedSymbolsWithTheirVersions() throws {
        let directory = try Fixtures.temporaryDirectory()
        let path = try Self.buildVersionedLibrary(in: directory).path
        let all = try ELFReader.read(path: path)
        let selected = try ELFReader.read(path: path, symbols: .only { $0.starts(with: "d".utf8) || $0.starts(with: "api_".utf8) })
        #expect(selected.imports == all.imports.filter { $0.name.hasPrefix("d") })
        #expect(selected.exports == all.exports.filter { $0.name.hasPrefix("api_") })
        #expect(selected.exports.map { "\($0.name)@\($0.version ?? "")" }.sorted() == ["api_v1@LIBFIX_1.0", "api_v2@LIBFIX_2.0"])
        #expect(selected.imports.map(\.name).sorted() == ["dep_func", "dlopen"])
        #expect(selected.definitions == all.definitions.filter { $0.name.hasPrefix("d") || $0.name.hasPrefix("api_") })
        var withoutSymbols = selected
        (withoutSymbols.imports, withoutSymbols.exports, withoutSymbols.definitions) = (all.imports, all.exports, all.definitions)
        #expect(withoutSymbols == all, "everything but the symbol lists is the same")

        let stripped = Fixtures.corpusDirectory.appendingPathComponent("object-testfiles/base-strip").path
        let throughSegment = try ELFReader.read(path: stripped, symbols: .only { $0.starts(with: "_ITM".utf8) })
        #expect(throughSegment.imports.map(\.name) == ["_ITM_deregisterTMCloneTable", "_ITM_registerTMCloneTable"])
    }

    /// A selection's leads (the first two bytes a kept name may start
    /// with) are tested before a name is measured: with leads that agree
    /// with the test, the same symbols; with leads that rule a kept name
    /// out, it is not read at all. Real libraries: libc's `dl*` and
    /// libstdc++'s `_ZNSt*` names, and a one-byte lead.
    @Test func aSelectionsLeadsRuleNamesOutBeforeTheirTest() throws {
        let keep: @Sendable (UnsafeBufferPointer<UInt8>) -> Bool = { $0.starts(with: "dl".utf8) || $0.starts(with: "_ZNSt".utf8) }
        func leads(_ allows: (_ first: UInt8, _ second: UInt8) -> Bool) -> [Bool] {
            (0..<(1 << 16)).map { allows(UInt8($0 >> 8), UInt8($0 & 0xff)) }
        }
        let agreeing = leads { ($0, $1) == (UInt8(ascii: "d"), UInt8(ascii: "l")) || ($0, $1) == (UInt8(ascii: "_"), UInt8(ascii: "Z")) }
        let libc = "/usr/lib/x86_64-linux-gnu/libc.so.6"
        for path in [libc, "/usr/lib/x86_64-linux-gnu/libstdc++.so.6"] {
            let plain = try ELFReader.read(path: path, symbols: .only(keep))
            let led = try ELFReader.read(path: path, symbols: .only(leads: agreeing, keep))
            #expect(!plain.exports.isEmpty, "\(path)")
            #expect(led.imports == plain.imports && led.exports == plain.exports && led.definitions == plain.definitions, "\(path)")
        }
        let withoutD = try ELFReader.read(path: libc, symbols: .only(leads: leads { first, _ in first != UInt8(ascii: "d") }, keep))
        #expect(try ELFReader.read(path: libc, symbols: .only(keep)).exports.contains { $0.name == "dlopen" })
        #expect(!withoutD.exports.contains { $0.name.hasPrefix("d") })
    }

    /// The defined functions of `.symtab` that are local or hidden, as
    /// `readelf -s` lists them (the version script's `local: *` makes
    /// `hidden_helper` local).
    @Test func localAndHiddenFunctionsOfSymtabAreDefinitionsNotExports() throws {
        let directory = try Fixtures.temporaryDirectory()
        let library = try Self.buildVersionedLibrary(in: directory)
        let output = try Command.run("readelf", ["-s", "-W", library.path]).standardOutput
        let symtab = try #require(output.components(separatedBy: "Symbol table '.symtab'").last)
        var oracle: [String] = []
        for line in symtab.split(separator: "\n") {
            // "    12: 0000000000001139    22 FUNC    LOCAL  DEFAULT   14 name"
            let fields = line.split(separator: " ").map(String.init)
            guard fields.count >= 8, fields[0].hasSuffix(":"), fields[3] == "FUNC" || fields[3] == "IFUNC", fields[6] != "UND",
                fields[4] == "LOCAL" || fields[5] == "HIDDEN" || fields[5] == "INTERNAL"
            else { continue }
            oracle.append(fields[7])
        }
        #expect(oracle.contains("hidden_helper"))
        let image = try ELFReader.read(path: library.path)
        #expect(image.definitions.map(\.name) == oracle)
        #expect(image.definitions.allSatisfy { $0.type == .function && $0.value != 0 })
        #expect(Set(image.definitions.map(\.name)).isDisjoint(with: image.exports.map(\.name)))
    }

    @Test func readOnlyStrings() throws {
        let directory = try Fixtures.temporaryDirectory()
        let library = try Self.buildVersionedLibrary(in: directory)
        let image = try ELFReader.read(path: library.path, strings: ["TRUEPREDICATE", "libplugin.so", "api_v1", "PREDICATE", "TRUE"])
        // Whole literals only: "PREDICATE" ends "TRUEPREDICATE" after a letter.
        #expect(image.stringLiterals == ["TRUEPREDICATE", "libplugin.so"], "symbol names live in .dynstr, not .rodata")
        #expect(try ELFReader.read(path: library.path).stringLiterals.isEmpty, "nothing asked, nothing searched")
    }

    @Test func aLiteralAfterDataOrMergedIntoALongerOne() throws {
        let directory = try Fixtures.temporaryDirectory()
        // "x:openURL:" holds "openURL:" after ':' (a name character): no match;
        // "?TRUEPREDICATE" after '?' and "the selector sharedApplication" after ' ': matches.
        let library = try Fixtures.compile(
            "strings.c",
            code: """
                const char *a(void) { return "?TRUEPREDICATE"; }
                const char *b(void) { return "x:openURL:"; }
                const char *c(void) { return "the selector sharedApplication"; }
                """, to: directory.path("libstrings.so"))
        let image = try ELFReader.read(path: library.path, strings: ["TRUEPREDICATE", "openURL:", "sharedApplication"])
        #expect(image.stringLiterals == ["TRUEPREDICATE", "sharedApplication"])
    }

    @Test func aLiteralAcrossTheBoundaryOfTwoPiecesReadIsFoundWhole() throws {
        // Read-only data is read ELFFile.pieceSize bytes at a time: a literal
        // that starts in one piece and ends in the next is one literal, and
        // the byte before a literal that starts a piece is the last one of
        // the piece before ("xTRUEPREDICATE" continues a name: no match).
        let directory = try Fixtures.temporaryDirectory()
        let piece = ELFFile.pieceSize
        func build(blobOffset: Int) throws -> URL {
            let across = piece - 5 - blobOffset
            let atStart = 2 * piece - blobOffset
            func bytes(_ text: String, at start: Int) -> String {
                text.utf8.enumerated().map { "[\(start + $0.offset)] = \($0.element)" }.joined(separator: ", ")
            }
            return try Fixtures.compile(
                "pieces.c",
                code: """
                    __attribute__((used)) const char blob[\(3 * piece)] = {
                        \(bytes("sharedApplication", at: across)), \(bytes("xTRUEPREDICATE", at: atStart - 1))
                    };
                    """, to: directory.path("libpieces.so"))
        }
        // Where the linker puts the blob in .rodata, from a first build.
        func blobOffset(in library: URL) throws -> Int {
            let sections = try Command.run("readelf", ["-S", "-W", library.path]).standardOutput
            let rodata = try #require(sections.split(separator: "\n").first { $0.contains(" .rodata ") })
            let fields = rodata.replacingOccurrences(of: "[ ", with: "[").split(separator: " ")
            let address = try #require(Int(fields[3], radix: 16))
            let symbols = try Command.run("readelf", ["-s", "-W", library.path]).standardOutput
            let blob = try #require(symbols.split(separator: "\n").first { $0.hasSuffix(" blob") })
            let value = try #require(Int(blob.split(separator: " ")[1], radix: 16))
            return value - address
        }
        let offset = try blobOffset(in: build(blobOffset: 0))
        let library = try build(blobOffset: offset)
        #expect(try blobOffset(in: library) == offset)
        let image = try ELFReader.read(path: library.path, strings: ["TRUEPREDICATE", "sharedApplication"])
        #expect(image.stringLiterals == ["sharedApplication"])
    }

    @Test func aLiteralInAWritableRodataSectionIsFound() throws {
        // A Swift key-path literal makes swiftc emit a writable .rodata, and
        // lld merges it with the read-only one into one writable section:
        // the literals in it are still read-only data by name.
        let directory = try Fixtures.temporaryDirectory()
        let library = try Fixtures.compile(
            "writable-rodata.c",
            code: """
                __attribute__((section(".rodata"))) char rule[] = "TRUEPREDICATE";
                char *activation(void) { return rule; }
                """, to: directory.path("libwritable.so"))
        let sections = try Command.run("readelf", ["-S", "-W", library.path]).standardOutput
        let rodata = try #require(sections.split(separator: "\n").first { $0.contains(" .rodata ") })
        #expect(rodata.contains(" WA "), "the fixture's .rodata is writable: \(rodata)")
        let image = try ELFReader.read(path: library.path, strings: ["TRUEPREDICATE"])
        #expect(image.stringLiterals == ["TRUEPREDICATE"])
    }

    @Test func relocatableObjectsUseSymtab() throws {
        let directory = try Fixtures.temporaryDirectory()
        let object = try Fixtures.compile("versioned.c", to: directory.path("versioned.o"), flags: ["-c"])
        let image = try ELFReader.read(path: object.path)
        #expect(image.fileType == .relocatableObject)
        #expect(image.facts.elf?.symbolTable == .symtab)
        #expect(Set(image.imports.map(\.name)) == ["dlopen", "dep_func"])
        #expect(image.exports.map(\.name).contains("api_v1"))
        #expect(!image.exports.map(\.name).contains("hidden_helper"))
    }

    @Test(arguments: [
        ("aarch64-linux-gnu", "aarch64", ELFClass.elf64),
        ("i386-linux-gnu", "i386", ELFClass.elf32),
        ("armv7-linux-gnueabihf", "armv7", ELFClass.elf32),
        ("riscv64-linux-gnu", "riscv64", ELFClass.elf64),
        ("powerpc64le-linux-gnu", "ppc64le", ELFClass.elf64),
        ("s390x-linux-gnu", "s390x", ELFClass.elf64),
    ])
    func crossCompiledMachines(target: String, machine: String, elfClass: ELFClass) throws {
        let directory = try Fixtures.temporaryDirectory()
        let library = try Fixtures.compile("dep.c", to: directory.path("libdep.so"), target: target, flags: ["-shared"])
        let image = try ELFReader.read(path: library.path)
        #expect(image.architecture.name == machine)
        #expect(image.architecture.is64Bit == (elfClass == .elf64))
        #expect(image.exports.map(\.name) == ["dep_func"])
    }

    @Test func nonELFAndTruncatedFiles() throws {
        let directory = try Fixtures.temporaryDirectory()
        let text = directory.path("notes.txt")
        try "hello".write(to: text, atomically: true, encoding: .utf8)
        #expect(throws: InspectionError.notAnImage(path: text.path)) { try ELFReader.read(path: text.path) }

        let empty = directory.path("empty.so")
        _ = FileManager.default.createFile(atPath: empty.path, contents: Data())
        #expect(throws: InspectionError.notAnImage(path: empty.path)) { try ELFReader.read(path: empty.path) }

        let truncated = directory.path("truncated.so")
        _ = FileManager.default.createFile(atPath: truncated.path, contents: Data([0x7f, 0x45, 0x4c, 0x46, 2, 1]))
        #expect {
            try ELFReader.read(path: truncated.path)
        } throws: { error in
            guard case .malformed(let path, _, _, _) = error as? InspectionError else { return false }
            return path == truncated.path
        }

        let missing = directory.path("missing.so").path
        #expect(throws: InspectionError.unreadable(path: missing, errno: ENOENT)) { try ELFReader.read(path: missing) }
    }
}

/// Damaged files: each is inspected as far as it can be, or rejected by
/// name; never a crash.
@Suite struct DamagedFileTests {
    static func library(in directory: TemporaryDirectory) throws -> URL {
        try FixtureInspectionTests.buildVersionedLibrary(in: directory)
    }

    @Test func aTruncatedSectionHeaderTableFallsBackToTheDynamicSegment() throws {
        let directory = try Fixtures.temporaryDirectory()
        let data = try Data(contentsOf: Self.library(in: directory))
        let truncated = directory.path("truncated.so")
        try data.dropLast(1).write(to: truncated)
        let image = try ELFReader.read(path: truncated.path)
        #expect(image.dependencyNames == ["libdep.so"])
        #expect(image.declaredName == "libfixture.so.1")
        #expect(Set(image.imports.map(\.name)) == ["dlopen", "dep_func"])
        #expect(image.exports.map(\.name).contains("api_v1"))
        #expect(image.warnings.map(\.description).contains { $0.contains("cannot be read: the file is truncated or corrupt") })
    }

    /// `data` (an ELF64 little-endian file) with `copies` more headers for
    /// each of its sections of `type`, appended as a new section header
    /// table at the end.
    static func repeatingSectionHeaders(_ data: Data, ofType type: UInt32, copies: Int) -> Data {
        func integer<T: FixedWidthInteger>(_ offset: Int, as: T.Type) -> T {
            data.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: T.self) }
        }
        let tableOffset = Int(integer(0x28, as: UInt64.self))
        let count = Int(integer(0x3c, as: UInt16.self))
        let headers = (0..<count).map { data.subdata(in: (tableOffset + $0 * 64)..<(tableOffset + $0 * 64 + 64)) }
        let matching = headers.filter { $0.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 4, as: UInt32.self) } == type }
        var result = data
        let newOffset = UInt64(result.count)
        for header in headers { result.append(header) }
        for _ in 0..<copies { for header in matching { result.append(header) } }
        withUnsafeBytes(of: newOffset.littleEndian) { result.replaceSubrange(0x28..<0x30, with: $0) }
        withUnsafeBytes(of: UInt16(count + copies * matching.count).littleEndian) { result.replaceSubrange(0x3c..<0x3e, with: $0) }
        return result
    }

    /// Thousands of section headers over the same bytes (readelf reads such
    /// a file) are each range read once: work stays within the file's size.
    @Test func sectionHeadersRepeatingTheSameBytesAreReadOnce() throws {
        let directory = try Fixtures.temporaryDirectory()
        let library = try Fixtures.compile(
            "strings.c",
            code: """
                int dlopen_count(void);
                const char *selector(void) { return "sharedApplication"; }
                int work(int x) { return x * dlopen_count(); }
                """, to: directory.path("libplain.so"))
        let original = try Data(contentsOf: library)
        let repeated = directory.path("librepeated.so")
        let progbits = UInt32(1)  // SHT_PROGBITS
        let withCopies = Self.repeatingSectionHeaders(original, ofType: progbits, copies: 3_000)
        try withCopies.write(to: repeated)
        let expected = try ELFReader.read(path: library.path, strings: ["sharedApplication"])
        let image = try ELFReader.read(path: repeated.path, strings: ["sharedApplication"])
        #expect(image.stringLiterals == ["sharedApplication"])
        #expect(image.imports == expected.imports)
        let code = try #require(try CallSiteAnalyzer.analyze(path: library.path))
        let repeatedCode = try #require(try CallSiteAnalyzer.analyze(path: repeated.path))
        #expect(repeatedCode.codeSize == code.codeSize, "each code byte is disassembled once")
        #expect(repeatedCode.callSites == code.callSites)
    }

    @Test func aFileWithoutSectionHeadersIsReadThroughPTDynamic() throws {
        let path = Fixtures.corpusDirectory.appendingPathComponent("object-testfiles/base-strip").path
        let image = try ELFReader.read(path: path)
        #expect(image.dependencyNames == ["libc.so.6"])
        #expect(
            Set(image.imports.map(\.name)) == [
                "_ITM_deregisterTMCloneTable", "printf", "__libc_start_main", "__gmon_start__",
                "_ITM_registerTMCloneTable", "__cxa_finalize",
            ])
        #expect(image.warnings.map(\.description) == ["no section headers: read through PT_DYNAMIC; symbol versions not read"])
    }

    @Test(.enabled(if: Readelf.isAvailable, "needs readelf"))
    func aHugeStringOffsetIsAWarningNotATrap() throws {
        let directory = try Fixtures.temporaryDirectory()
        let library = try Self.library(in: directory)
        var data = try Data(contentsOf: library)
        // Find .dynamic with readelf, then set the first DT_NEEDED's value to 2^63.
        let sections = try Command.run("readelf", ["-S", "-W", library.path]).standardOutput
        let line = try #require(sections.split(separator: "\n").first { $0.contains(" .dynamic ") })
        let fields = line.split(separator: " ").map(String.init)
        let index = try #require(fields.firstIndex(of: ".dynamic"))
        let offset = try #require(Int(fields[index + 3], radix: 16))
        var entry = offset
        while data[entry] != 1 { entry += 16 }  // d_tag == DT_NEEDED (little-endian, 64-bit)
        data.replaceSubrange((entry + 8)..<(entry + 16), with: [0, 0, 0, 0, 0, 0, 0, 0x80])
        let damaged = directory.path("damaged.so")
        try data.write(to: damaged)
        let image = try ELFReader.read(path: damaged.path)
        #expect(image.dependencyNames == [])
        #expect(image.warnings.map(\.description) == ["DT_NEEDED string offset 9223372036854775808 is out of range"])
    }

    @Test func everyPrefixOfALibraryIsHandled() throws {
        let directory = try Fixtures.temporaryDirectory()
        let data = try Data(contentsOf: Self.library(in: directory))
        let prefix = directory.path("prefix.so")
        for length in stride(from: 0, to: data.count, by: max(1, data.count / 97)) {
            try data.prefix(length).write(to: prefix)
            do {
                let image = try ELFReader.read(path: prefix.path)
                #expect(image.architecture.name == "x86_64")
            } catch {
                #expect(error.path == prefix.path)
            }
        }
    }
}

/// `.note.dlopen`: conditional dependencies a library declares.
@Suite struct DlopenNoteTests {
    @Test func theNoteIsRead() throws {
        let directory = try Fixtures.temporaryDirectory()
        let library = try Fixtures.compile("dlopen-note.s", to: directory.path("libnote.so"))
        let image = try ELFReader.read(path: library.path)
        #expect(
            image.declaredLoads == [
                DeclaredLoad(
                    sonames: ["libzstd.so.1", "libzstd.so"], feature: "compression", description: "zstd support", priority: "suggested")
            ])
        #expect(image.warnings.isEmpty)
    }
}

/// Header fields at their largest values: addresses that would overflow
/// when an instruction's size or a segment's offset is added (found by
/// setting every field to boundary values).
@Suite(.enabled(if: Readelf.isAvailable, "needs readelf")) struct BoundaryValueTests {
    /// `readelf -h` field as a number.
    static func header(_ path: String, _ field: String) throws -> Int {
        let output = try Command.run("readelf", ["-h", "-W", path]).standardOutput
        let line = try #require(output.split(separator: "\n").first { $0.contains(field) })
        let value = line.split(separator: ":")[1].trimmingCharacters(in: .whitespaces).split(separator: " ")[0]
        return try #require(Int(value))
    }

    static func patched(_ source: URL, _ offset: Int, to directory: TemporaryDirectory, name: String) throws -> URL {
        var data = try Data(contentsOf: source)
        data.replaceSubrange(offset..<(offset + 8), with: [UInt8](repeating: 0xff, count: 8))
        let output = directory.path(name)
        try data.write(to: output)
        return output
    }

    @Test(arguments: [".text", ".plt"])
    func aSectionAtTheLastAddress(section: String) throws {
        let directory = try Fixtures.temporaryDirectory()
        let library = try Fixtures.compile("callsites.c", to: directory.path("libcallsites.so"), flags: ["-shared", "-O2"])
        let sections = try Command.run("readelf", ["-S", "-W", library.path]).standardOutput
        let line = try #require(sections.split(separator: "\n").first { $0.contains(" \(section) ") })
        let index = try #require(Int(line.split(separator: "]")[0].split(separator: "[")[1].trimmingCharacters(in: .whitespaces)))
        let tableOffset = try Self.header(library.path, "Start of section headers")
        // Elf64_Shdr: sh_addr is 16 bytes into each 64-byte entry.
        let damaged = try Self.patched(library, tableOffset + index * 64 + 16, to: directory, name: "damaged.so")
        let image = try ELFReader.read(path: damaged.path)
        #expect(image.architecture.name == "x86_64")
        _ = try CallSiteAnalyzer.analyze(path: damaged.path)
    }

    @Test func aLoadSegmentAtTheLastOffsetWithoutSectionHeaders() throws {
        let directory = try Fixtures.temporaryDirectory()
        let stripped = Fixtures.corpusDirectory.appendingPathComponent("object-testfiles/base-strip")
        let segments = try Command.run("readelf", ["-l", "-W", stripped.path]).standardOutput
        let loads = segments.split(separator: "\n").filter { $0.trimmingCharacters(in: .whitespaces).hasPrefix("LOAD") }
        try #require(!loads.isEmpty)
        let programHeaders = try Self.header(stripped.path, "Start of program headers")
        let firstLoad = segments.split(separator: "\n").filter { line in
            let first = line.trimmingCharacters(in: .whitespaces).split(separator: " ").first ?? ""
            return first.allSatisfy(\.isUppercase) && !first.isEmpty && first != "Type" && !line.contains("Elf file")
                && !line.contains("Program Headers")
                && !line.contains("Section to Segment") && !line.contains("Entry point")
        }.firstIndex { $0.trimmingCharacters(in: .whitespaces).hasPrefix("LOAD") }
        let index = try #require(firstLoad)
        // Elf64_Phdr: p_offset is 8 bytes into each 56-byte entry.
        let damaged = try Self.patched(stripped, programHeaders + index * 56 + 8, to: directory, name: "damaged")
        let image = try ELFReader.read(path: damaged.path)
        #expect(image.architecture.name == "x86_64")
    }
}
#endif
