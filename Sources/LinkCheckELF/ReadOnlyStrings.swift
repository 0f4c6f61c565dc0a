#if canImport(CLibELF)  // read through libelf: not in a build without it (Package.swift)
import CLibELF
import LinkCheckImage
import LinkCheckLiterals

extension ELFFile {
    /// Which of `patterns` occur as string literals in the read-only data
    /// sections (``isReadOnlyData(_:)``: `.rodata` and `.rodata.*`).
    ///
    /// A pattern occurs when a NUL-terminated run of bytes equals it, or
    /// ends with it right after a byte that cannot continue a name
    /// (``StringLiteralMatcher``, which the Mach-O reader shares). The
    /// sections are scanned once, read with `pread(2)` a piece at a time
    /// into one buffer (``readPieces(of:size:overlap:_:)``): libelf never
    /// reads them, and where it maps the file (``Access``) their pages are
    /// never touched, so a library's read-only data (tens of MB for ICU's
    /// or the Swift compiler's) is never resident, and no pages of it are
    /// unmapped at the end (with two threads, unmapping touched pages
    /// interrupts the other CPU).
    ///
    /// - Returns: the patterns found, in the order given.
    /// - Throws: as ``readPieces(of:size:overlap:_:)``.
    func readOnlyStrings(sections: [Section], matching patterns: LiteralPatterns) throws(InspectionError) -> [String] {
        guard !patterns.isEmpty else { return [] }
        var matcher = StringLiteralMatcher(patterns: patterns)
        for section in sections.filter(Self.isReadOnlyData).withDistinctFileRanges() {
            try readPieces(of: section, size: Self.pieceSize, overlap: matcher.lookBehind) { bytes, from in
                matcher.scan(bytes, from: from)
            }
        }
        return matcher.found
    }

    /// How much read-only data is read at a time: a buffer that stays in
    /// the core's cache.
    package static let pieceSize = 256 << 10

    /// A `.rodata` or `.rodata.*` section (`SHT_PROGBITS`, `SHF_ALLOC`,
    /// neither `SHF_EXECINSTR` nor `SHF_COMPRESSED`). `SHF_WRITE` does not
    /// rule one out: a linker merges a writable input `.rodata` (swiftc
    /// emits one for key-path literals) into the read-only one, and the
    /// literals are still there.
    private static func isReadOnlyData(_ section: Section) -> Bool {
        let flags = section.header.sh_flags
        return section.type == UInt32(SHT_PROGBITS)
            && flags & UInt64(SHF_ALLOC) != 0
            && flags & UInt64(SHF_EXECINSTR | SHF_COMPRESSED) == 0
            && (section.name == ".rodata" || section.name.hasPrefix(".rodata."))
    }
}
#endif
