#if canImport(CLibDW)  // ELF source lines read through libdw: not in a build without libelf (Package.swift)
import Foundation
import LinkCheckImage
import LinkCheckSourceLines
import LinkCheckTestSupport
import Testing

/// The source of each call site of ELF fixtures built with `-g`, against
/// `llvm-symbolizer`, the oracle: file, line, column and inline chain.
@Suite struct ELFSourceLinesTests {
    /// DWARF 5, uncompressed, nothing inlined: each call at its own line.
    @Test func dwarf5CallSitesAgreeWithTheSymbolizer() throws {
        let directory = try Fixtures.temporaryDirectory()
        let library = try Fixtures.compile("SourceLines/share.c", to: directory.path("libshare.so"), flags: ["-shared", "-g", "-O0"])
        let sources = try agreeWithSymbolizer(library)
        let file = Fixtures.sourceDirectory.appendingPathComponent("SourceLines/share.c").path
        #expect(
            Set(sources.values) == [
                AddressSource(location: SourcePosition(file: file, line: 7, column: 5), function: "share"),
                AddressSource(location: SourcePosition(file: file, line: 8, column: 9), function: "share"),
                AddressSource(location: SourcePosition(file: file, line: 9, column: 9), function: "share"),
            ])
    }

    /// DWARF 4, compressed sections (`-gz`), `announce` inlined into
    /// `publish`: the call's line is `announce`'s, and the chain names
    /// `publish` at the line that calls it.
    @Test func compressedDwarf4InlinedCallAgreesWithTheSymbolizer() throws {
        let directory = try Fixtures.temporaryDirectory()
        let library = try Fixtures.compile(
            "SourceLines/publish.c", to: directory.path("libpublish.so"), flags: ["-shared", "-gdwarf-4", "-gz", "-O2"])
        let sections = try Command.run("readelf", ["-SW", library.path]).standardOutput
        let debugInfo = try #require(sections.split(separator: "\n").first { $0.contains(".debug_info") })
        #expect(debugInfo.split(separator: " ").dropFirst(7).first == "C", "the fixture's .debug_info is not compressed: \(debugInfo)")
        let sources = try agreeWithSymbolizer(library)
        let file = Fixtures.sourceDirectory.appendingPathComponent("SourceLines/publish.c").path
        #expect(
            Set(sources.values) == [
                AddressSource(
                    location: SourcePosition(file: file, line: 7, column: 5), function: "announce",
                    inlinedInto: [.init(function: "publish", location: SourcePosition(file: file, line: 11, column: 5))]),
                AddressSource(location: SourcePosition(file: file, line: 12, column: 5), function: "publish"),
            ])
    }

    /// C++, `plugins::load` inlined into `plugins::start`: the functions
    /// are named by their linkage names, and the chain is there although the
    /// inlined function's abstract definition lies in a namespace.
    @Test func inlinedCPlusPlusCallAgreesWithTheSymbolizer() throws {
        let directory = try Fixtures.temporaryDirectory()
        let library = try Fixtures.compile(
            "SourceLines/plugins.cpp", to: directory.path("libplugins.so"), flags: ["-shared", "-g", "-O2"])
        let sources = try agreeWithSymbolizer(library)
        let file = Fixtures.sourceDirectory.appendingPathComponent("SourceLines/plugins.cpp").path
        #expect(
            Set(sources.values) == [
                AddressSource(
                    location: SourcePosition(file: file, line: 7, column: 12), function: "_ZN7pluginsL4loadEPKc",
                    inlinedInto: [.init(function: "_ZN7plugins5startEPKc", location: SourcePosition(file: file, line: 10, column: 12))])
            ])
    }

    /// An image built without `-g` has no source, and no error; nor has an
    /// address no unit covers.
    @Test func noDebugInformationGivesNoSource() throws {
        let directory = try Fixtures.temporaryDirectory()
        let plain = try Fixtures.compile("SourceLines/share.c", to: directory.path("libplain.so"), flags: ["-shared", "-O0"])
        let calls = try callSites(plain)
        #expect(calls.count == 3)
        #expect(try SourceLines.sources(of: Set(calls), in: image(plain)) == SourceLookup())
        let debug = try Fixtures.compile("SourceLines/share.c", to: directory.path("libdebug.so"), flags: ["-shared", "-g", "-O0"])
        #expect(try SourceLines.sources(of: [0], in: image(debug)) == SourceLookup())
    }

    /// A `.debug_info` whose first unit length is a reserved value
    /// (`0xfffffff0`): an error naming the file. A `.debug_line` whose first
    /// unit length runs past its end: no source, no crash, and a note naming
    /// the file and the unit, since libdw rejects the line table while
    /// `.debug_info` is fine.
    @Test func damagedDebugInformationGivesNoSource() throws {
        let directory = try Fixtures.temporaryDirectory()
        let flags = ["-shared", "-g", "-O0"]
        let badInfo = try Fixtures.compile("SourceLines/share.c", to: directory.path("libbadinfo.so"), flags: flags)
        let calls = try callSites(badInfo)
        try Readelf.overwrite(section: ".debug_info", of: badInfo, with: [0xf0, 0xff, 0xff, 0xff])
        #expect(throws: SourceLinesError.self) { try SourceLines.sources(of: Set(calls), in: image(badInfo)) }
        let badLines = try Fixtures.compile("SourceLines/share.c", to: directory.path("libbadlines.so"), flags: flags)
        try Readelf.overwrite(section: ".debug_line", of: badLines, with: [0x00, 0x00, 0x00, 0x7f])
        let lookup = try SourceLines.sources(of: Set(calls), in: image(badLines))
        #expect(lookup.sources.isEmpty)
        #expect(
            lookup.notes == [
                "\(badLines.path): the line table (.debug_line) of the compilation unit at .debug_info offset 0xc cannot be decoded (dwarf_getsrclines: invalid .debug_line section): 3 call sites in it have no source"
            ])
    }

    /// A file gone since it was inspected: an error naming it.
    @Test func missingFileIsAnError() {
        #expect(throws: SourceLinesError.self) {
            try SourceLines.sources(of: [0x1000], in: image(URL(fileURLWithPath: "/nonexistent/libgone.so")))
        }
    }

    /// The sources of every call and tail call to a PLT entry in `library`,
    /// after checking that each equals what `llvm-symbolizer` says of its
    /// address.
    private func agreeWithSymbolizer(_ library: URL) throws -> [UInt64: AddressSource] {
        let calls = try callSites(library)
        #expect(!calls.isEmpty)
        let lookup = try SourceLines.sources(of: Set(calls), in: image(library))
        #expect(lookup.notes.isEmpty)
        let sources = lookup.sources
        for address in calls {
            #expect(sources[address] == (try Symbolizer.source(of: address, in: library.path)), "at 0x\(String(address, radix: 16))")
        }
        return sources
    }

    /// The addresses of the `call`s and `jmp`s to PLT entries
    /// (`llvm-objdump -d`).
    private func callSites(_ library: URL) throws -> [UInt64] {
        let objdump = URL(fileURLWithPath: Fixtures.clang).deletingLastPathComponent().appendingPathComponent("llvm-objdump").path
        let listing = try Command.run(objdump, ["-d", "--no-show-raw-insn", library.path]).standardOutput
        return listing.split(separator: "\n").compactMap { line in
            guard line.contains("@plt>"), line.contains("call") || line.contains("\tjmp\t"),
                let colon = line.firstIndex(of: ":")
            else { return nil }
            return UInt64(line[..<colon].trimmingCharacters(in: .whitespaces), radix: 16)
        }
    }

    /// The ELF image at `url`, as the seam takes it.
    private func image(_ url: URL) -> BinaryImage {
        TestImages.elf(url.path)
    }
}
#endif
