#if canImport(CLibELF)  // ELF read through libelf: not in a build without it (Package.swift)
import Foundation
import LinkCheckELF
import LinkCheckImage
import LinkCheckTestSupport
import Testing

/// The inspector's imports and exports equal readelf's, on real libraries.
@Suite struct ReadelfAgreementTests {
    /// Libraries from the toolchain and Debian's multiarch folder; absent
    /// ones are skipped with a message.
    static var candidates: [String] {
        let toolchain = "/opt/swift/usr/lib/swift/linux"
        let toolchainLibraries = ((try? FileManager.default.contentsOfDirectory(atPath: toolchain)) ?? [])
            .filter { $0.hasSuffix(".so") }.sorted().map { "\(toolchain)/\($0)" }
        let system = [
            "libc.so.6", "libm.so.6", "libstdc++.so.6", "libgcc_s.so.1", "libz.so.1", "libelf.so.1",
            "libcrypto.so.3", "libssl.so.3", "libsqlite3.so.0", "libxml2.so.2", "libcurl.so.4",
            "libexpat.so.1", "libffi.so.8", "liblzma.so.5", "libzstd.so.1",
        ].map { "/usr/lib/x86_64-linux-gnu/\($0)" }
        return toolchainLibraries + system
    }

    @Test(.enabled(if: Readelf.isAvailable, "needs readelf (Debian binutils)"))
    func importAndExportNamesEqualReadelfs() throws {
        var compared = 0
        for path in Self.candidates {
            guard FileManager.default.fileExists(atPath: path) else {
                print("skipped \(path): not on this machine")
                continue
            }
            let expected = try Readelf.dynamicSymbolNames(path)
            let image = try ELFReader.read(path: path)
            #expect(image.facts.elf?.symbolTable == .dynsym, "\(path)")
            #expect(Set(image.imports.map(\.name)) == expected.imports, "imports of \(path)")
            #expect(Set(image.exports.map(\.name)) == expected.exports, "exports of \(path)")
            compared += 1
        }
        #expect(compared >= 20, "only \(compared) libraries were found to compare")
    }
}
#endif
