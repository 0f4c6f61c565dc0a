import CLibELF
import LinkCheckImage

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension ELFFile {
    /// Which of `patterns` occur as string literals in the read-only data
    /// sections (``isReadOnlyData(_:)``: `.rodata` and `.rodata.*`).
    ///
    /// A pattern occurs when a NUL-terminated run of bytes equals it, or
    /// ends with it right after a byte that cannot continue a name (not a
    /// letter, digit, `_` or `:`): linkers merge a literal into the tail of a
    /// longer one, and data may run into a literal without a NUL. The
    /// sections are scanned once, without copying them; only the patterns
    /// found become strings.
    ///
    /// - Returns: the patterns found, in the order given.
    func readOnlyStrings(sections: [Section], matching patterns: [String]) -> [String] {
        guard !patterns.isEmpty else { return [] }
        let wanted = patterns.map { Array($0.utf8) }
        // Patterns by their last byte: a run is compared only with those
        // that end with the byte it ends with.
        var byLastByte = Array(repeating: [Int](), count: 256)
        for (number, pattern) in wanted.enumerated() where !pattern.isEmpty {
            byLastByte[Int(pattern[pattern.count - 1])].append(number)
        }
        let endsWanted = (0..<256).map { !byLastByte[$0].isEmpty }
        let shortest = wanted.map(\.count).min() ?? 1
        var found = Array(repeating: false, count: wanted.count)
        for section in sections.filter(Self.isReadOnlyData).withDistinctFileRanges() {
            guard let data = section.data, let base = data.pointee.d_buf, data.pointee.d_size > 0 else { continue }
            let bytes = base.assumingMemoryBound(to: UInt8.self)
            let size = data.pointee.d_size
            var start = 0
            // Read-only data is mostly short runs between NULs: a plain loop
            // over the bytes beats a memchr call per run.
            for end in 0..<size where bytes[end] == 0 {
                defer { start = end + 1 }
                if end - start >= shortest && endsWanted[Int(bytes[end - 1])] {
                    for number in byLastByte[Int(bytes[end - 1])] where !found[number] {
                        let pattern = wanted[number]
                        let tail = end - pattern.count
                        guard tail >= start, memcmp(bytes + tail, pattern, pattern.count) == 0 else { continue }
                        if tail == start || !Self.continuesName(bytes[tail - 1]) { found[number] = true }
                    }
                }
            }
        }
        return patterns.indices.filter { found[$0] }.map { patterns[$0] }
    }

    /// Letters, digits, `_`, `:` and bytes of multi-byte UTF-8 characters.
    private static func continuesName(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x3a) || (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a)
            || byte == 0x5f || byte >= 0x80
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
