#if canImport(CLibELF)  // ELF read through libelf: not in a build without it (Package.swift)
import Foundation
import LinkCheckELF
import LinkCheckImage
import LinkCheckTestSupport
import Testing

/// The function starts read from `.eh_frame_hdr` equal the FDEs readelf
/// prints, whichever section type the linker gave the table: lld writes
/// `SHT_PROGBITS`, gold (the Swift toolchain's default linker on Linux)
/// `SHT_X86_64_UNWIND`.
@Suite struct UnwindTableTests {
    static let source = """
        __attribute__((noinline)) static int helper(int x) { return x * 3 + 1; }
        __attribute__((noinline)) static int other(int x) { return helper(x) ^ 7; }
        __attribute__((noinline)) static int third(int x) { return other(x) - helper(x); }
        int exported(int x) { return third(x) + other(x + 1); }
        """

    @Test(
        .enabled(if: Readelf.isAvailable, "needs readelf and ld.gold (Debian binutils)"),
        arguments: [("lld", "PROGBITS"), ("gold", "X86_64_UNWIND")])
    func functionStartsEqualReadelfsFDEs(linker: String, sectionType: String) throws {
        let directory = try Fixtures.temporaryDirectory()
        let library = try Fixtures.compile(
            "unwind.c", code: Self.source, to: directory.url.appendingPathComponent("libunwind-\(linker).so"),
            flags: ["-shared", "-fuse-ld=\(linker)", "-Wl,-s"])
        let sections = try Command.run("readelf", ["-S", "-W", library.path]).standardOutput
        let header = sections.split(separator: "\n").first { $0.contains(" .eh_frame_hdr ") }
        #expect(header?.split(separator: " ").contains(Substring(sectionType)) == true, "\(sections)")

        let starts = try ELFFile.read(library.path) { file throws(InspectionError) in
            file.unwindFunctionStarts(sections: try file.sections())
        }
        #expect(starts.count == 4, "the four functions, the static ones named nowhere else: \(starts)")
        let expected = try Self.readelfFDEStarts(library.path)
        #expect(starts == expected)
    }

    /// The initial locations of the FDEs `readelf --debug-dump=frames`
    /// prints (`… FDE cie=… pc=START..END`), sorted.
    static func readelfFDEStarts(_ path: String) throws -> [UInt64] {
        let output = try Command.run("readelf", ["--debug-dump=frames", "-W", path]).standardOutput
        return output.split(separator: "\n").compactMap { line -> UInt64? in
            guard line.contains(" FDE "), let range = line.range(of: "pc=") else { return nil }
            return UInt64(line[range.upperBound...].prefix { $0 != "." }, radix: 16)
        }.sorted()
    }
}
#endif
