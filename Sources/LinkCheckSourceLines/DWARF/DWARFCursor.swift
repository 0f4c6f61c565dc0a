/// A read position in one DWARF section, bounded by an end (the section's,
/// or a unit's inside it): every read checks that its bytes are there and
/// throws a ``DWARFError`` naming the section and offset when they are not,
/// so that no read traps or goes past the end.
struct DWARFCursor {
    /// The section's bytes (borrowed from ``DWARFSections``).
    let bytes: UnsafeRawBufferPointer
    /// Which section they are, for errors.
    let section: DWARFSections.Name
    /// Whether multi-byte values are little-endian.
    let littleEndian: Bool
    /// The offset of the next read, in bytes from the section's beginning.
    var offset: Int
    /// The offset past the last byte reads may take.
    var end: Int

    /// A cursor at `offset` in `section`, bounded by the section's end.
    ///
    /// - Throws: ``DWARFError/Problem/outOfRange(target:offset:size:)`` when
    ///   `offset` is past the section's end.
    init(_ section: DWARFSections.Name, in sections: DWARFSections, at offset: UInt64) throws(DWARFError) {
        let bytes = sections.bytes[section] ?? UnsafeRawBufferPointer(start: nil, count: 0)
        guard offset <= UInt64(bytes.count) else {
            throw DWARFError(
                section: section, offset: offset,
                problem: .outOfRange(target: section, offset: offset, size: UInt64(bytes.count)))
        }
        (self.bytes, self.section, self.littleEndian) = (bytes, section, sections.littleEndian)
        (self.offset, self.end) = (Int(offset), bytes.count)
    }

    /// Whether every byte up to ``end`` has been read.
    var isAtEnd: Bool { offset >= end }

    /// An error about the structure at `offset` (the current one when
    /// `nil`) of this section.
    func error(_ problem: DWARFError.Problem, at offset: Int? = nil) -> DWARFError {
        DWARFError(section: section, offset: UInt64(offset ?? self.offset), problem: problem)
    }

    /// Checks that `count` bytes are left before ``end``.
    private func require(_ count: Int) throws(DWARFError) {
        guard count <= end - offset else {
            throw error(.truncated(needed: UInt64(count), available: UInt64(max(0, end - offset))))
        }
    }

    /// Moves `count` bytes on.
    mutating func skip(_ count: UInt64) throws(DWARFError) {
        guard count <= UInt64(max(0, end - offset)) else {
            throw error(.truncated(needed: count, available: UInt64(max(0, end - offset))))
        }
        offset += Int(count)
    }

    mutating func u8() throws(DWARFError) -> UInt8 {
        try require(1)
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func u16() throws(DWARFError) -> UInt16 { UInt16(try unsigned(size: 2)) }

    mutating func u32() throws(DWARFError) -> UInt32 { UInt32(try unsigned(size: 4)) }

    mutating func u64() throws(DWARFError) -> UInt64 { try unsigned(size: 8) }

    /// An unsigned value of `size` bytes (1 to 8), in the sections' byte
    /// order.
    mutating func unsigned(size: Int) throws(DWARFError) -> UInt64 {
        try require(size)
        var value: UInt64 = 0
        for index in 0..<size {
            let byte = UInt64(bytes[offset + (littleEndian ? index : size - 1 - index)])
            value |= byte << (8 * UInt64(index))
        }
        offset += size
        return value
    }

    /// An unsigned LEB128 number.
    ///
    /// - Throws: ``DWARFError/Problem/oversizedNumber`` for more than 64
    ///   bits of value, ``DWARFError/Problem/truncated(needed:available:)``
    ///   when it runs past the end.
    mutating func uleb() throws(DWARFError) -> UInt64 {
        let start = offset
        var (value, shift): (UInt64, UInt64) = (0, 0)
        while true {
            let byte = try u8()
            let bits = UInt64(byte & 0x7f)
            if shift >= 64 || (shift > 0 && bits >> (64 - shift) != 0) {
                if bits != 0 { throw error(.oversizedNumber, at: start) }
            } else {
                value |= bits << shift
            }
            if byte & 0x80 == 0 { return value }
            shift += 7
        }
    }

    /// A signed LEB128 number (bits past 64 are dropped).
    mutating func sleb() throws(DWARFError) -> Int64 {
        var (value, shift): (UInt64, UInt64) = (0, 0)
        var byte: UInt8
        repeat {
            byte = try u8()
            if shift < 64 { value |= UInt64(byte & 0x7f) << shift }
            shift += 7
        } while byte & 0x80 != 0
        if shift < 64 && byte & 0x40 != 0 { value |= ~0 << shift }
        return Int64(bitPattern: value)
    }

    /// A unit's initial length: its length in bytes after the field, and
    /// whether the unit is 64-bit DWARF (`0xffffffff` then 8 bytes).
    ///
    /// - Throws: ``DWARFError/Problem/reservedUnitLength(_:)`` for
    ///   `0xfffffff0`–`0xfffffffe`.
    mutating func initialLength() throws(DWARFError) -> (length: UInt64, is64Bit: Bool) {
        let start = offset
        let length = try u32()
        if length == 0xffff_ffff { return (try u64(), true) }
        guard length < 0xffff_fff0 else { throw error(.reservedUnitLength(UInt64(length)), at: start) }
        return (UInt64(length), false)
    }

    /// An offset into another section: 4 bytes in 32-bit DWARF, 8 in
    /// 64-bit.
    mutating func sectionOffset(is64Bit: Bool) throws(DWARFError) -> UInt64 {
        try unsigned(size: is64Bit ? 8 : 4)
    }

    /// The NUL-terminated string at the cursor, without its NUL, and moves
    /// past the NUL.
    mutating func cString() throws(DWARFError) -> String {
        let start = offset
        guard let terminator = bytes[offset..<max(offset, end)].firstIndex(of: 0) else {
            throw error(.unterminatedString, at: start)
        }
        offset = terminator + 1
        return String(decoding: bytes[start..<terminator], as: UTF8.self)
    }

    /// Moves past the NUL-terminated string at the cursor without decoding
    /// it.
    mutating func skipCString() throws(DWARFError) {
        guard let terminator = bytes[offset..<max(offset, end)].firstIndex(of: 0) else {
            throw error(.unterminatedString)
        }
        offset = terminator + 1
    }

    /// A cursor over the `length` bytes from here, and moves this one past
    /// them.
    mutating func sub(length: UInt64) throws(DWARFError) -> DWARFCursor {
        var part = self
        try skip(length)
        part.end = offset
        return part
    }
}
