import Foundation
import LinkCheckImage
import LinkCheckSourceLines
import LinkCheckTestSupport
import Testing

/// The DWARF reader against `llvm-symbolizer` (and, for ELF, libdw through
/// ``SourceLines``): the source of every instruction of fixtures built
/// here, C and Swift, DWARF 4 and 5, with and without inlining, as ELF
/// shared objects and as a Mach-O dylib's dSYM.
@Suite struct DWARFSourceLookupTests {
    /// How one ELF fixture is built.
    struct ELFBuild: Sendable, CustomTestStringConvertible {
        /// `lookup.c` with clang, or `Ledger.swift` with swiftc.
        var swift: Bool
        var flags: [String]
        /// The DWARF version the fixture's units must have.
        var version: Int
        /// Whether the optimizer inlines calls, so that some addresses
        /// have an inline chain.
        var inlines: Bool

        var testDescription: String { (swift ? "Ledger.swift " : "lookup.c ") + flags.joined(separator: " ") }

        /// Builds the fixture in `directory`.
        func build(in directory: TemporaryDirectory) throws -> URL {
            let output = directory.path(swift ? "libLedger.so" : "liblookup.so")
            if swift {
                try Command.run(
                    Fixtures.swiftc,
                    flags + [
                        "-emit-library", "-module-name", "Ledger", "-o", output.path,
                        Fixtures.sourceDirectory.appendingPathComponent("SourceLines/Ledger.swift").path,
                    ])
                return output
            }
            let include = Fixtures.sourceDirectory.appendingPathComponent("SourceLines/include").path
            return try Fixtures.compile("SourceLines/lookup.c", to: output, flags: ["-shared", "-fPIC", "-I", include] + flags)
        }
    }

    static let elfBuilds = [
        ELFBuild(swift: false, flags: ["-g", "-gdwarf-4", "-O0"], version: 4, inlines: false),
        ELFBuild(swift: false, flags: ["-g", "-gdwarf-4", "-O2"], version: 4, inlines: true),
        ELFBuild(swift: false, flags: ["-g", "-gdwarf-5", "-O0"], version: 5, inlines: false),
        ELFBuild(swift: false, flags: ["-g", "-gdwarf-5", "-O2"], version: 5, inlines: true),
        ELFBuild(swift: true, flags: ["-g", "-Onone"], version: 4, inlines: false),
        ELFBuild(swift: true, flags: ["-g", "-O"], version: 4, inlines: true),
        ELFBuild(swift: true, flags: ["-g", "-O", "-dwarf-version=5"], version: 5, inlines: true),
    ]

    /// Every instruction of `.text`: the reader gives what the symbolizer
    /// gives (the same addresses left out), libdw's line everywhere, and
    /// libdw's function and chain wherever libdw names a function.
    @Test(arguments: elfBuilds)
    func elfInstructionsAgreeWithTheSymbolizerAndLibdw(_ build: ELFBuild) throws {
        let directory = try Fixtures.temporaryDirectory()
        let library = try build.build(in: directory)
        let versions = try unitVersions(library.path)
        #expect(!versions.isEmpty && versions.allSatisfy { $0 == build.version }, "unit versions \(versions)")
        let addresses = try instructionAddresses(library.path)
        let sources = try agreeWithSymbolizer(addresses, sections: DWARFSectionDump.sections(of: library.path), oracle: library.path)
        if build.inlines { #expect(sources.values.contains { !$0.inlinedInto.isEmpty }, "no inline chain") }
        #if canImport(CLibDW)
        // libdw gives the same line everywhere; it names no function for a
        // Swift closure (its entry sits in the defining function's, outside
        // its ranges) nor for some inlined Swift code, where the reader
        // follows the symbolizer: elsewhere the same function and chain.
        let libdw = try SourceLines.sources(of: Set(addresses), in: TestImages.elf(library.path)).sources
        let disagreements = addresses.filter { address in
            sources[address]?.location != libdw[address]?.location
                || (libdw[address]?.function != nil && sources[address] != libdw[address])
        }
        #expect(
            disagreements.isEmpty,
            "\(disagreements.count) of \(addresses.count) disagree with libdw, first at 0x\(String(disagreements.first ?? 0, radix: 16)): \(disagreements.first.map { String(describing: sources[$0]) } ?? "") vs \(disagreements.first.map { String(describing: libdw[$0]) } ?? "")"
        )
        #expect(addresses.filter { libdw[$0]?.function != nil }.count > sources.count / 2)
        #endif
    }

    /// A Mach-O arm64 dylib linked by `ld64.lld` 14, its dSYM made by
    /// `dsymutil` 14 from the debug map: the sections of the dSYM's
    /// `__DWARF` segment give, for every instruction of the dylib's
    /// `__text`, what the symbolizer reads in the dSYM.
    @Test(arguments: ["-O0", "-O2"])
    func dSYMInstructionsAgreeWithTheSymbolizer(_ optimization: String) throws {
        let directory = try Fixtures.temporaryDirectory()
        // The object stays where the debug map names it, for dsymutil.
        let object = try MachOFixtures.compileObject(
            Fixtures.sourceDirectory.appendingPathComponent("SourceLines/lookup.c"), for: .arm64,
            includePaths: [Fixtures.sourceDirectory.appendingPathComponent("SourceLines/include")], flags: ["-g", optimization],
            to: directory.path("lookup.o"))
        let (dylib, dwarf) = try MachODebugBuild.dylibWithDSYM(linking: object, name: "lookup", in: directory)
        let addresses = try instructionAddresses(dylib.path)
        let sources = try agreeWithSymbolizer(addresses, sections: DWARFSectionDump.sections(of: dwarf.path), oracle: dwarf.path)
        if optimization == "-O2" { #expect(sources.values.contains { !$0.inlinedInto.isEmpty }, "no inline chain") }
    }

    /// The reader's sources of `addresses` in `sections`, after checking
    /// that they are the symbolizer's for the file at `oracle`, address by
    /// address, and that more than 20 addresses have one.
    private func agreeWithSymbolizer(_ addresses: [UInt64], sections: [DWARFSections.Name: [UInt8]], oracle: String) throws -> [UInt64:
        AddressSource]
    {
        let sources = try DWARFSourceLookup.sources(of: Set(addresses), in: sections)
        let expected = try Symbolizer.sources(of: addresses, in: oracle)
        #expect(addresses.count > 20 && sources.count > 20, "\(sources.count) sources of \(addresses.count) addresses")
        let disagreements = addresses.filter { sources[$0] != expected[$0] }
        #expect(
            disagreements.isEmpty,
            "\(disagreements.count) of \(addresses.count) disagree, first at 0x\(String(disagreements.first ?? 0, radix: 16)): \(disagreements.first.map { String(describing: sources[$0]) } ?? "") vs \(disagreements.first.map { String(describing: expected[$0]) } ?? "")"
        )
        return sources
    }

    /// The addresses of the instructions of the file's `__text` or `.text`
    /// (`llvm-objdump -d`).
    private func instructionAddresses(_ path: String) throws -> [UInt64] {
        let objdump = URL(fileURLWithPath: Fixtures.clang).deletingLastPathComponent().appendingPathComponent("llvm-objdump").path
        let listing = try Command.run(objdump, ["-d", "--no-show-raw-insn", "--section=.text", "--section=__text", path]).standardOutput
        return listing.split(separator: "\n").compactMap { line in
            guard line.hasPrefix(" "), let colon = line.firstIndex(of: ":") else { return nil }
            return UInt64(line[..<colon].trimmingCharacters(in: .whitespaces), radix: 16)
        }
    }

    /// The versions of the file's units (`llvm-dwarfdump-14 --debug-info`).
    private func unitVersions(_ path: String) throws -> [Int] {
        let dump = try Command.run("/usr/lib/llvm-14/bin/llvm-dwarfdump", ["--debug-info", path]).standardOutput
        return dump.split(separator: "\n").compactMap { line in
            guard line.contains("Compile Unit:"), let range = line.range(of: "version = 0x") else { return nil }
            return Int(line[range.upperBound...].prefix(4), radix: 16)
        }
    }
}
