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
/// `--dsym`, and none for a stripped image.
@Suite struct MachOSourceLinesTests {
    /// Each instruction address (every 4 bytes) of each function of the
    /// debug map of `image`.
    func instructionAddresses(_ image: BinaryImage) throws -> Set<UInt64> {
        let machO = try MachOReader.image(image.identity).image
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
}
