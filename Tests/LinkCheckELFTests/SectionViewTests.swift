#if canImport(CLibELF)  // ELF read through libelf: not in a build without it (Package.swift)
import Foundation
import LinkCheckELF
import LinkCheckTestSupport
import Testing

/// The section headers checked against the program headers: damage to the
/// table the loader never reads does not hide what it binds.
@Suite(.enabled(if: Readelf.isAvailable, "needs readelf")) struct SectionViewTests {
    /// libfixture.so.1 (DT_NEEDED, DT_RUNPATH, versioned imports and
    /// exports) and a copy of it with `damage`, in `directory`.
    static func damagedCopy(
        _ damage: SectionHeaderDamage, seed: UInt64 = 1, in directory: TemporaryDirectory
    ) throws -> (intact: String, damaged: String) {
        let library = try FixtureInspectionTests.buildVersionedLibrary(in: directory)
        let damaged = directory.path("damaged.so")
        try damage.applied(to: Data(contentsOf: library), seed: seed).write(to: damaged)
        return (library.path, damaged.path)
    }

    /// The first value of `readelf -d`'s line for `tag` (`(SYMTAB)`).
    static func dynamicTag(_ path: String, _ tag: String) throws -> String {
        let output = try Command.run("readelf", ["-d", "-W", path]).standardOutput
        let line = try #require(output.split(separator: "\n").first { $0.contains("(\(tag))") })
        return String(try #require(line.split(separator: " ").last))
    }

    @Test(arguments: SectionHeaderDamage.sectionsOnly)
    func damagedSectionHeadersDoNotHideWhatTheLoaderBinds(_ damage: SectionHeaderDamage) throws {
        let directory = try Fixtures.temporaryDirectory()
        let (intact, damaged) = try Self.damagedCopy(damage, in: directory)
        let expected = try ELFReader.read(path: intact)
        let oracle = try Readelf.dynamicSymbolNames(intact)
        let image = try ELFReader.read(path: damaged)
        #expect(Set(image.imports.map(\.name)) == oracle.imports)
        #expect(Set(image.exports.map(\.name)) == oracle.exports)
        #expect(image.dependencyNames == expected.dependencyNames)
        #expect(image.declaredName == expected.declaredName)
        #expect(image.searchPaths == expected.searchPaths)
        #expect(image.facts.elf?.symbolTable == .dynsym)
        #expect(image.warnings.count == 1, "\(image.warnings)")
        #expect(image.warnings.map(\.description).first?.hasPrefix("the section headers disagree with PT_DYNAMIC (") == true)
        #expect(image.warnings.map(\.description).first?.hasSuffix("): read through PT_DYNAMIC; symbol versions not read") == true)
    }

    @Test func aZeroedSectionHeaderTableNamesWherePTDynamicIs() throws {
        let directory = try Fixtures.temporaryDirectory()
        let (intact, damaged) = try Self.damagedCopy(.zeroed, in: directory)
        let segments = try Command.run("readelf", ["-l", "-W", intact]).standardOutput
        let fields = try #require(segments.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("DYNAMIC") })
            .split(separator: " ")
        let (offset, size) = (
            try #require(UInt64(fields[1].dropFirst(2), radix: 16)), try #require(UInt64(fields[4].dropFirst(2), radix: 16))
        )
        #expect(
            try ELFReader.read(path: damaged).warnings.map(\.description) == [
                "the section headers disagree with PT_DYNAMIC (no SHT_DYNAMIC section has its \(size) bytes at file offset 0x\(String(offset, radix: 16))): read through PT_DYNAMIC; symbol versions not read"
            ])
    }

    @Test func aDynsymRetypedAsProgbitsNamesDTSymtabAndDTStrtab() throws {
        let directory = try Fixtures.temporaryDirectory()
        let (intact, damaged) = try Self.damagedCopy(.dynsymRetyped, in: directory)
        let (symtab, strtab) = (try Self.dynamicTag(intact, "SYMTAB"), try Self.dynamicTag(intact, "STRTAB"))
        func address(_ text: String) -> String { "0x" + String(UInt64(text.dropFirst(2), radix: 16) ?? 0, radix: 16) }
        #expect(
            try ELFReader.read(path: damaged).warnings.map(\.description) == [
                "the section headers disagree with PT_DYNAMIC (no SHT_DYNSYM section is at DT_SYMTAB \(address(symtab)) with its strings at DT_STRTAB \(address(strtab))): read through PT_DYNAMIC; symbol versions not read"
            ])
    }

    /// Program headers random too: libelf rejects the file, or it is read
    /// with a warning; never as a complete image.
    @Test(arguments: 1...20)
    func randomBytesAfterTheELFHeaderAreNeverReadAsComplete(seed: Int) throws {
        let directory = try Fixtures.temporaryDirectory()
        let (_, damaged) = try Self.damagedCopy(.everythingAfterTheHeader, seed: UInt64(seed), in: directory)
        do {
            let image = try ELFReader.read(path: damaged)
            #expect(!image.warnings.isEmpty, "read as complete: \(image.imports.count) imports")
        } catch {
            #expect(error.path == damaged)
        }
    }

    @Test func anIntactLibraryIsReadThroughItsSectionsWithoutWarnings() throws {
        let directory = try Fixtures.temporaryDirectory()
        let (intact, _) = try Self.damagedCopy(.zeroed, in: directory)
        #expect(try ELFReader.read(path: intact).warnings.map(\.description) == [])
    }
}
#endif
