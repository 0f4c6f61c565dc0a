import CLibELF

extension ELFFile {
    /// The NUL-terminated strings of at least `minimumLength` bytes in the
    /// read-only data sections: `SHT_PROGBITS`, `SHF_ALLOC`, neither
    /// `SHF_WRITE` nor `SHF_EXECINSTR` nor `SHF_COMPRESSED`, named `.rodata`
    /// or `.rodata.*`. Bytes must be printable ASCII, tab, or part of a UTF-8
    /// sequence; of a run that holds invalid UTF-8, only the part after the
    /// last invalid sequence is kept. Deduplicated, in file order.
    func readOnlyStrings(sections: [Section], minimumLength: Int = 4) -> [String] {
        var seen = Set<String>()
        var result: [String] = []
        for section in sections where Self.isReadOnlyData(section) {
            guard let data = section.data, let base = data.pointee.d_buf else { continue }
            let bytes = UnsafeRawBufferPointer(start: base, count: data.pointee.d_size)
            var start = 0
            for (index, byte) in bytes.enumerated() {
                if byte == 0 {
                    if index - start >= minimumLength {
                        var text = Substring(String(decoding: bytes[start..<index], as: UTF8.self))
                        // Binary data that runs into a string: keep what
                        // follows the last invalid UTF-8 sequence.
                        if let junk = text.lastIndex(of: "\u{FFFD}") { text = text[text.index(after: junk)...] }
                        if text.utf8.count >= minimumLength, seen.insert(String(text)).inserted {
                            result.append(String(text))
                        }
                    }
                    start = index + 1
                } else if !(byte >= 0x20 && byte != 0x7f || byte == 0x09) {
                    start = index + 1
                }
            }
        }
        return result
    }

    private static func isReadOnlyData(_ section: Section) -> Bool {
        let flags = section.header.sh_flags
        return section.type == UInt32(SHT_PROGBITS)
            && flags & UInt64(SHF_ALLOC) != 0
            && flags & UInt64(SHF_WRITE | SHF_EXECINSTR | SHF_COMPRESSED) == 0
            && (section.name == ".rodata" || section.name.hasPrefix(".rodata."))
    }
}
