import Foundation
import LinkCheckImage
import LinkCheckMachO
import LinkCheckTestSupport
import Testing

@testable import LinkCheckSourceLines

/// The sources of Mach-O addresses (``SourceLines/sources(of:in:dsyms:)``)
/// on a debug build of the sample's Uploader (``MachODebugBuild``): every
/// instruction of every function of the debug map, each equal to what
/// `llvm-symbolizer` says of it in the dSYM `dsymutil` links, with the dSYM
/// beside the fat framework (each slice), with only the debug map (the
/// objects' relocated DWARF, plain or members of a static archive), with
/// `--dsym`, and none for a stripped image; then an image carrying its own
/// `__DWARF`, and the call sites of Swift code, each against
/// `llvm-symbolizer` too.
@Suite struct MachOSourceLinesTests {
    /// Each instruction address (every 4 bytes) of each function of the
    /// debug map of `image`.
    func instructionAddresses(_ image: BinaryImage) throws -> Set<UInt64> {
        let machO = try MachOReader.withImage(image.identity) { machO, _ in machO }
        var addresses: Set<UInt64> = []
        for object in DebugMap(symbols: machO.symbols).objects {
            for function in object.symbols where function.isFunction {
                addresses.formUnion(stride(from: function.address, to: function.address + (function.size ?? 0), by: 4))
            }
        }
        return addresses
    }

    /// Checks that `lookup` gives each of `addresses` the symbolizer's
    /// source in `oracle` (a dSYM's DWARF file, `:arch` for a slice of a fat
    /// one), and an address the symbolizer knows no line of none; returns
    /// how many addresses have a source.
    @discardableResult
    func agree(_ lookup: SourceLookup, _ addresses: Set<UInt64>, oracle: String) throws -> Int {
        let expected = try Symbolizer.sources(of: addresses.sorted(), in: oracle)
        for address in addresses.sorted() {
            #expect(lookup.sources[address] == expected[address], "0x\(String(address, radix: 16)) in \(oracle)")
        }
        return expected.count
    }

    @Test func dSYMBesideTheFatFrameworkGivesEachSliceItsSources() throws {
        let build = try MachODebugBuild()
        let dwarf = try MachODebugBuild.makeDSYM(of: build.framework, at: build.directory.path("Products/Uploader.framework.dSYM"))
        let slices = try MachOReader.read(path: build.framework.path)
        #expect(slices.count == 2)
        for image in slices {
            let addresses = try instructionAddresses(image)
            let lookup = try SourceLines.sources(of: addresses, in: image)
            #expect(lookup.notes.isEmpty)
            let located = try agree(lookup, addresses, oracle: "\(dwarf.path):\(image.identity.slice ?? "")")
            #expect(located > 40, "\(image.name)")
        }
    }

    /// Only the debug map: the objects' DWARF, relocated, each address
    /// moved into its object, gives what the dSYM `dsymutil` links from the
    /// same map says (made where linkcheck does not look).
    @Test(arguments: MachODebugBuild.architectures.map(\.arch))
    func debugMapGivesTheSourcesDsymutilLinks(arch: String) throws {
        let build = try MachODebugBuild()
        let image = try #require(try MachOReader.read(path: build.thinImage(arch).path).first)
        let dwarf = try MachODebugBuild.makeDSYM(of: build.framework, at: build.directory.path("Elsewhere/Uploader.dSYM"))
        let addresses = try instructionAddresses(image)
        let lookup = try SourceLines.sources(of: addresses, in: image)
        #expect(lookup.notes.isEmpty)
        #expect(try agree(lookup, addresses, oracle: "\(dwarf.path):\(arch)") > 40)
        // --dsym names it: the same sources, from the dSYM.
        let given = try SourceLines.sources(of: addresses, in: image, dsyms: [dwarf.path])
        #expect(given == lookup)
    }

    /// A debug map of static archive members
    /// (``MachODebugBuild/linkFromStaticArchives()``): the members' DWARF,
    /// relocated, gives what the dSYM `dsymutil` links from the same
    /// members says.
    @Test func archiveMembersOfTheDebugMapGiveTheSourcesDsymutilLinks() throws {
        let build = try MachODebugBuild()
        let framework = try build.linkFromStaticArchives()
        let dwarf = try MachODebugBuild.makeDSYM(of: framework, at: build.directory.path("Elsewhere/Uploader.dSYM"))
        for image in try MachOReader.read(path: framework.path) {
            let addresses = try instructionAddresses(image)
            let lookup = try SourceLines.sources(of: addresses, in: image)
            #expect(lookup.notes.isEmpty)
            #expect(try agree(lookup, addresses, oracle: "\(dwarf.path):\(image.identity.slice ?? "")") > 40, "\(image.name)")
        }
    }

    /// Stripped (`llvm-strip -x`: no debug map, no dSYM): no source, no
    /// note.
    @Test func strippedImageHasNoSourceAndNoNote() throws {
        let build = try MachODebugBuild()
        let stripped = build.directory.path("Stripped/Uploader")
        try FileManager.default.createDirectory(at: stripped.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Command.run("/usr/lib/llvm-14/bin/llvm-strip", ["-x", build.thinImage("arm64").path, "-o", stripped.path])
        let image = try #require(try MachOReader.read(path: stripped.path).first)
        let addresses = try instructionAddresses(try #require(try MachOReader.read(path: build.thinImage("arm64").path).first))
        #expect(try SourceLines.sources(of: addresses, in: image) == SourceLookup())
    }

    /// Objects of the debug map missing: no source, one note naming the
    /// first and counting the others; then a fat dSYM beside the image,
    /// truncated inside its last slice: no source, a note naming it, and the
    /// objects' note again.
    @Test func damagedDebugInformationGivesNotesAndNoSource() throws {
        let build = try MachODebugBuild()
        let image = try #require(try MachOReader.read(path: build.thinImage("arm64").path).first)
        let addresses = try instructionAddresses(image)
        for name in ["UPUploader", "UPLogin"] { try FileManager.default.removeItem(at: build.objectPath(name, "arm64")) }
        let missing = try SourceLines.sources(of: addresses, in: image)
        #expect(missing.sources.isEmpty)
        #expect(
            missing.notes.map {
                $0.hasPrefix("\(image.name): no dSYM found, and the object files of its debug map (")
                    && $0.contains(" and 1 more) are missing: ")
            } == [true],
            "\(missing.notes)")
        let dwarf = try MachODebugBuild.makeDSYM(of: build.framework, at: build.directory.path("Uploader-arm64.dSYM"))
        let slice = try #require(try DWARFSegment(path: dwarf.path).slices.first { $0.cpu.name == "arm64" })
        let section = try #require(slice.sections.max { $0.fileOffset < $1.fileOffset })
        try Data(contentsOf: dwarf).prefix(slice.fileOffset + Int(section.fileOffset) + Int(section.size) / 2).write(to: dwarf)
        let truncated = try SourceLines.sources(of: addresses, in: image)
        #expect(truncated.sources.isEmpty)
        #expect(truncated.notes.count == 2, "\(truncated.notes)")
        #expect(truncated.notes.contains { $0.hasPrefix("\(dwarf.path): damaged dSYM") }, "\(truncated.notes)")
    }

    /// An image that carries its own `__DWARF` segment (its debug map
    /// stripped, the sections of its dSYM added; no dSYM beside it): every
    /// instruction of `lookup.c` at `-O2` has the source the symbolizer
    /// reads in the image, inline chains included.
    @Test func imageWithItsOwnDWARFGivesTheSymbolizersSources() throws {
        let directory = try Fixtures.temporaryDirectory()
        let object = try MachOFixtures.compileObject(
            Fixtures.sourceDirectory.appendingPathComponent("SourceLines/lookup.c"), for: .arm64,
            includePaths: [Fixtures.sourceDirectory.appendingPathComponent("SourceLines/include")], flags: ["-g", "-O2"],
            to: directory.path("lookup.o"))
        let (dylib, dwarf) = try MachODebugBuild.dylibWithDSYM(linking: object, name: "lookup", in: directory)
        let own = try MachODebugBuild.carryingOwnDWARF(dylib, from: dwarf, to: directory.path("Own/liblookup.dylib"))
        let image = try #require(try MachOReader.read(path: own.path).first)
        let addresses = try instructionAddresses(try #require(try MachOReader.read(path: dylib.path).first))
        #expect(MachODWARFPlan(addresses: addresses, image: image, dsyms: []).origin == .image)
        let lookup = try SourceLines.sources(of: addresses, in: image)
        #expect(lookup.notes.isEmpty)
        #expect(try agree(lookup, addresses, oracle: own.path) > 20)
        #expect(lookup.sources.values.contains { !$0.inlinedInto.isEmpty }, "no inline chain")
    }

    /// Swift (`Relay.swift`, `swiftc -g -parse-stdlib`: no SDK, no
    /// compatibility libraries to link) in an arm64 dylib with its dSYM
    /// beside it: each call site (the calls to imports, as llvm-objdump
    /// reads them) has the symbolizer's file, line, column and inline
    /// chain; at `-O`, `forward`'s call is inlined into `relay`.
    @Test(arguments: ["-Onone", "-O"])
    func swiftCallSitesGetTheSymbolizersSources(_ optimization: String) throws {
        let directory = try Fixtures.temporaryDirectory()
        let source = Fixtures.sourceDirectory.appendingPathComponent("SourceLines/Relay.swift")
        let object = directory.path("Relay.o")
        try Command.run(
            Fixtures.swiftc,
            [
                "-g", optimization, "-parse-stdlib", "-parse-as-library", "-runtime-compatibility-version", "none", "-target",
                MachOFixtures.Target.arm64.triple, "-module-name", "Relay", "-c", source.path, "-o", object.path,
            ])
        let (dylib, dwarf) = try MachODebugBuild.dylibWithDSYM(linking: object, name: "Relay", in: directory)
        let image = try #require(try MachOReader.read(path: dylib.path).first)
        let calls = try MachOCallOracle.read(dylib).calls
        #expect(Set(calls.values.map(\.callee)) == ["relay_send", "relay_flush"])
        let lookup = try SourceLines.sources(of: Set(calls.keys), in: image)
        #expect(lookup.notes.isEmpty)
        #expect(try agree(lookup, Set(calls.keys), oracle: dwarf.path) == calls.count)
        #expect(lookup.sources.values.allSatisfy { $0.location.file.hasSuffix("/SourceLines/Relay.swift") })
        #expect(lookup.sources.values.contains { !$0.inlinedInto.isEmpty } == (optimization == "-O"))
    }
}
