#if canImport(CLibELF)  // ELF read through libelf: not in a build without it (Package.swift)
import Foundation
import LinkCheckImage
import LinkCheckTestSupport
import Testing

@testable import LinkCheckELF

/// How libelf reaches a file's bytes (``ELFFile/Access``): inspection reads
/// a small file with `pread(2)` and maps only a large one; code analysis
/// always maps. What is mapped is read from `/proc/self/maps` while the
/// file is open.
@Suite struct FileAccessTests {
    /// The paths this process has mapped (the sixth field of each line of
    /// `/proc/self/maps`, read to its end: its size is 0 to `stat`).
    static func mappedPaths() throws -> Set<String> {
        let maps = try #require(FileHandle(forReadingAtPath: "/proc/self/maps")).readToEnd() ?? Data()
        return Set(
            String(decoding: maps, as: UTF8.self).split(separator: "\n").compactMap { line in
                line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true).dropFirst(5).first
                    .map { $0.trimmingCharacters(in: .whitespaces) }
            })
    }

    @Test func inspectionReadsASmallFileAndMapsALargeOne() throws {
        let directory = try Fixtures.temporaryDirectory()
        let small = try Fixtures.compile("callsites.c", to: directory.path("libsmall.so"))
        // The same library padded with zeros past the last section: a valid
        // file one byte larger than the largest one read.
        let large = directory.path("liblarge.so")
        try FileManager.default.copyItem(at: small, to: large)
        #expect(truncate(large.path, off_t(ELFFile.largestReadFile + 1)) == 0)

        for (library, access, mapped) in [
            (small, ELFFile.Access.readIfSmall, false), (large, .readIfSmall, true), (small, .mapped, true),
        ] {
            let path = library.resolvingSymlinksInPath().path
            let (seen, exports) = try ELFFile.read(path, access: access) { file throws(InspectionError) in
                var warnings = ReadWarnings()
                let exports = file.symbolTable(sections: try file.sections(), selection: .all, warnings: &warnings).exports
                return (try? Self.mappedPaths().contains(path), exports.map(\.name))
            }
            #expect(seen == mapped, "\(library.lastPathComponent) with \(access)")
            #expect(exports.contains("load_plugin"), "\(library.lastPathComponent) with \(access)")
        }
        #expect(try !Self.mappedPaths().contains(large.resolvingSymlinksInPath().path), "unmapped once closed")
    }

    /// A file cut inside its ELF header is the same error read or mapped:
    /// libelf's read mode would take it for an ELF_K_NONE, so it is mapped.
    @Test(arguments: [20, 40, 63])
    func aFileCutInsideItsHeaderIsTheSameErrorEitherWay(length: Int) throws {
        let directory = try Fixtures.temporaryDirectory()
        let library = try Fixtures.compile("callsites.c", to: directory.path("libfull.so"))
        let cut = directory.path("libcut.so")
        try Data(try Data(contentsOf: library).prefix(length)).write(to: cut)
        func error(_ access: ELFFile.Access) -> String {
            do {
                return try ELFFile.read(cut.path, access: access) { file throws(InspectionError) in "read: \(try file.header())" }
            } catch {
                return "\(error)"
            }
        }
        #expect(error(.readIfSmall) == error(.mapped))
        #expect(error(.mapped).contains("ELF header"), "\(error(.mapped))")
    }
}
#endif
