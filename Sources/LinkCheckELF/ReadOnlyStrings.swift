import CLibELF
import LinkCheckLiterals

extension ELFFile {
    /// Which of `patterns` occur as string literals in the read-only data
    /// sections (``isReadOnlyData(_:)``: `.rodata` and `.rodata.*`).
    ///
    /// A pattern occurs when a NUL-terminated run of bytes equals it, or
    /// ends with it right after a byte that cannot continue a name
    /// (``StringLiteralMatcher``, which the Mach-O reader shares). The
    /// sections are scanned once, without copying them, each in a mapping
    /// of its own whose pages are given back as the scan moves on
    /// (``withContents(of:_:)``): a library's read-only data (tens of MB
    /// for ICU's or the Swift compiler's) is never resident all at once.
    ///
    /// - Returns: the patterns found, in the order given.
    func readOnlyStrings(sections: [Section], matching patterns: [String]) -> [String] {
        guard !patterns.isEmpty else { return [] }
        var matcher = StringLiteralMatcher(patterns: patterns)
        for section in sections.filter(Self.isReadOnlyData).withDistinctFileRanges() {
            _ = withContents(of: section) { bytes, release in
                matcher.scan(bytes.assumingMemoryBound(to: UInt8.self), release: release)
            }
        }
        return matcher.found
    }

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
