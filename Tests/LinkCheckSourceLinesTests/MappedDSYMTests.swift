import Foundation
import LinkCheckImage
import LinkCheckMachO
import LinkCheckTestSupport
import Testing

@testable import LinkCheckSourceLines

/// A dSYM's `__DWARF` sections are read through a mapping of the file
/// (``MappedSections``): looking up one address of a large generated dylib
/// makes a small part of its DWARF resident (`mincore(2)`) and gives
/// `llvm-symbolizer`'s answer; a dSYM truncated under its mapping is a
/// note, not a crash.
@Suite struct MappedDSYMTests {
    /// The images of the file at `url`, one per slice.
    func images(_ url: URL) throws -> [BinaryImage] {
        try MachOReader.read(path: url.path)
    }

    /// Of the pages spanned by `sections` (whole pages, from the first
    /// section's to the last one's), how many bytes are resident
    /// (`mincore(2)`: in the page cache), and how many there are.
    func residency(_ sections: [String: UnsafeRawBufferPointer]) -> (resident: Int, total: Int) {
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        let starts = sections.values.map { Int(bitPattern: $0.baseAddress) }
        let ends = sections.values.map { Int(bitPattern: $0.baseAddress) + $0.count }
        guard let first = starts.min().map({ $0 / pageSize * pageSize }), let end = ends.max(), end > first else { return (0, 0) }
        var pages = [UInt8](repeating: 0, count: (end - first + pageSize - 1) / pageSize)
        guard mincore(UnsafeMutableRawPointer(bitPattern: first), end - first, &pages) == 0 else { return (-1, pages.count * pageSize) }
        return (pages.filter { $0 & 1 != 0 }.count * pageSize, pages.count * pageSize)
    }

    #if os(Linux)
    /// `liblarge.dylib`: 32 files of 1,000 C functions each (so 32
    /// compilation units), `-g -O0`, linked for arm64 iOS by `ld64.lld` 14,
    /// its dSYM beside it made by `dsymutil` 14 (about 7 MB of DWARF). The
    /// dSYM is dropped from the page cache (`fdatasync`,
    /// `POSIX_FADV_DONTNEED`), then one address is looked up: under a tenth
    /// of the DWARF's pages become resident (the unit headers, the one
    /// unit that covers the address, its line table), and the source is the
    /// symbolizer's.
    @Test func oneAddressOfALargeDSYMMakesLittleOfItResident() throws {
        let directory = try Fixtures.temporaryDirectory()
        let (files, functions) = (32, 1000)
        var objects: [URL] = []
        for file in 0..<files {
            var lines = ["extern int table[256];"]
            for index in 0..<functions {
                lines += [
                    "int f\(file)_\(index)(int x, int y) {",
                    "    int a = table[x & 255] + \(index);",
                    "    int b = a * y - x;",
                    "    int c = b ^ (a >> 3);",
                    "    int d = c + table[(b >> 2) & 255];",
                    index == 0 ? "    return d - x;" : "    return d - f\(file)_\(index - 1)(b, c);",
                    "}",
                ]
            }
            if file == 0 { lines.append("int table[256];") }
            let source = directory.path("unit\(file).c")
            try (lines.joined(separator: "\n") + "\n").write(to: source, atomically: true, encoding: .utf8)
            objects.append(try MachOFixtures.compileObject(source, for: .arm64, flags: ["-g", "-O0"], to: directory.path("unit\(file).o")))
        }
        let dylib = try MachOFixtures.link(
            MachOFixtures.Image(
                sources: [], product: .dylib(installName: "@rpath/liblarge.dylib"), frameworks: [], libraries: ["System"],
                inputs: objects),
            to: directory.path("liblarge.dylib"))
        let bundle = directory.path("liblarge.dylib.dSYM")
        try Command.run("/usr/lib/llvm-14/bin/dsymutil", [dylib.path, "-o", bundle.path])
        let dwarf = bundle.appendingPathComponent("Contents/Resources/DWARF/liblarge.dylib").path

        let image = try #require(try images(dylib).first)
        let machO = try MachOReader.withImage(image.identity) { machO, _ in machO }
        let function = try #require(
            DebugMap(symbols: machO.symbols).objects.flatMap(\.symbols).first { $0.name == "_f\(files / 2)_\(functions / 2)" })
        let address = function.address + 8
        let plan = MachODWARFPlan(addresses: [address], image: image, dsyms: [])
        #expect(plan.origin == .dSYM(dwarf))
        guard case .mapped(let mapped) = try #require(plan.parts.first).sections else {
            Issue.record("the dSYM's sections are not mapped")
            return
        }

        let descriptor = open(dwarf, O_RDONLY)
        #expect(descriptor >= 0)
        #expect(fdatasync(descriptor) == 0)
        #expect(posix_fadvise(descriptor, 0, 0, POSIX_FADV_DONTNEED) == 0)
        close(descriptor)
        let before = try mapped.read(residency)
        #expect(before.total > 6_000_000, "DWARF of \(before.total) bytes")
        #expect(before.resident >= 0 && before.resident < before.total / 100, "resident before the lookup: \(before)")

        let lookup = MachOSourceLines.resolve(plan, imageName: image.name)
        let after = try mapped.read(residency)
        #expect(lookup.notes.isEmpty)
        let expected = try #require(try Symbolizer.source(of: address, in: dwarf))
        #expect(lookup.sources[address] == expected)
        #expect(expected.function == "f\(files / 2)_\(functions / 2)")
        #expect(after.resident > before.resident && after.resident < after.total / 10, "resident after the lookup: \(after)")
    }
    #endif

    /// The dSYM beside the Uploader framework, mapped by the plan, then
    /// truncated before the first of its `__DWARF` sections (as a rebuild
    /// rewriting it in place does): the lookup, whose pages vanished,
    /// reads zeros instead of dying of SIGBUS, and is a note naming the
    /// dSYM; before the truncation the same plan gives sources.
    @Test func dSYMTruncatedUnderItsMappingIsANote() throws {
        let build = try MachODebugBuild()
        let dwarf = try MachODebugBuild.makeDSYM(of: build.framework, at: build.directory.path("Products/Uploader.framework.dSYM"))
        let image = try #require(try images(build.framework).first)
        let machO = try MachOReader.withImage(image.identity) { machO, _ in machO }
        let addresses = Set(DebugMap(symbols: machO.symbols).objects.flatMap(\.symbols).filter(\.isFunction).map { $0.address + 4 })
        let plan = MachODWARFPlan(addresses: addresses, image: image, dsyms: [])
        #expect(plan.origin == .dSYM(dwarf.path))
        let intact = MachOSourceLines.resolve(plan, imageName: image.name)
        #expect(intact.notes.isEmpty && !intact.sources.isEmpty)

        let uuid = try #require(machO.uuid)
        let slice = try #require(try DWARFSegment(path: dwarf.path).slice(withUUID: uuid))
        let firstSection = try #require(slice.sections.map(\.fileOffset).min())
        #expect(truncate(dwarf.path, off_t(slice.fileOffset + Int(firstSection))) == 0)
        let truncated = MachOSourceLines.resolve(plan, imageName: image.name)
        #expect(truncated.sources.isEmpty)
        #expect(
            truncated.notes == [
                "\(dwarf.path): changed while the debug information of \(image.name) was read: its call sites have no source; check it again once it is written"
            ])
    }
}
