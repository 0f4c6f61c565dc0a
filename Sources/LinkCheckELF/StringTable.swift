import SystemInterface

/// The bytes of a string-table section (`SHT_STRTAB`; ELF spec "String
/// Table"): NUL-terminated names, each found by its offset (`st_name`,
/// `sh_name`). Read in place from libelf's buffer
/// (``ELFFile/stringTable(_:)``), valid while the file is open.
package struct StringTable {
    package let bytes: UnsafeBufferPointer<UInt8>

    /// Whether a name that is not empty starts at `offset` and a NUL ends
    /// it inside the table (what `elf_strptr` checks, less the empty name).
    package func hasName(at offset: Int) -> Bool {
        guard offset >= 0, offset < bytes.count, bytes[offset] != 0, let base = bytes.baseAddress else { return false }
        return memchr(base + offset, 0, bytes.count - offset) != nil
    }

    /// The bytes of the name at `offset` (no NUL), in the table's buffer,
    /// or `nil` when the offset is outside the table or no NUL ends the name
    /// inside it.
    package func nameBytes(at offset: Int) -> UnsafeBufferPointer<UInt8>? {
        guard offset >= 0, offset < bytes.count, let base = bytes.baseAddress,
            let nul = memchr(base + offset, 0, bytes.count - offset)
        else { return nil }
        return UnsafeBufferPointer(start: base + offset, count: UnsafeRawPointer(nul) - UnsafeRawPointer(base + offset))
    }

    /// The name at `offset` (``nameBytes(at:)``) as a string. Ill-formed
    /// UTF-8 is repaired, as `String(cString:)` does.
    package func name(at offset: Int) -> String? {
        nameBytes(at: offset).map { String(decoding: $0, as: UTF8.self) }
    }
}
