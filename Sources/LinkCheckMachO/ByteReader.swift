/// A bounds-checked view of a byte range of the file: every read of the
/// Mach-O reader goes through one of these.
///
/// Offsets given to it are relative to the start of the view (for an image,
/// the start of its Mach header; for a fat file, the start of the file);
/// ``fileOffset`` turns them into file offsets for messages. Reads outside
/// the view return `nil` (or throw ``ReadFailure``), never trap, and never
/// allocate more than the bytes that are there.
///
/// The view borrows the bytes of a buffer that outlives it: it is created
/// inside `withUnsafeBytes` and never escapes the read.
struct ByteReader {
    /// The bytes of the view.
    let bytes: UnsafeRawBufferPointer
    /// The file offset of the view's first byte, in bytes.
    let fileOffset: Int
    /// Byte order of multi-byte values: `true` for little-endian.
    let littleEndian: Bool

    init(_ bytes: UnsafeRawBufferPointer, fileOffset: Int = 0, littleEndian: Bool = true) {
        self.bytes = bytes
        self.fileOffset = fileOffset
        self.littleEndian = littleEndian
    }

    /// A view of no bytes.
    static var empty: ByteReader { ByteReader(UnsafeRawBufferPointer(start: nil, count: 0)) }

    /// The number of bytes in the view.
    var count: Int { bytes.count }

    /// Whether `size` bytes at `offset` lie inside the view (overflow-safe).
    func contains(offset: Int, size: Int) -> Bool {
        offset >= 0 && size >= 0 && offset <= bytes.count && size <= bytes.count - offset
    }

    /// Like ``contains(offset:size:)`` for 64-bit values read from the file.
    func contains(offset: UInt64, size: UInt64) -> Bool {
        offset <= UInt64(bytes.count) && size <= UInt64(bytes.count) - offset
    }

    /// The same view with another byte order.
    func withByteOrder(littleEndian: Bool) -> ByteReader {
        ByteReader(bytes, fileOffset: fileOffset, littleEndian: littleEndian)
    }

    /// The view of `size` bytes at `offset`, or `nil` when they are not all
    /// inside this one.
    func window(offset: Int, size: Int) -> ByteReader? {
        guard contains(offset: offset, size: size) else { return nil }
        return ByteReader(
            UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + size]), fileOffset: fileOffset &+ offset,
            littleEndian: littleEndian)
    }

    /// Like ``window(offset:size:)`` for 64-bit values read from the file.
    func window(offset: UInt64, size: UInt64) -> ByteReader? {
        guard contains(offset: offset, size: size) else { return nil }
        return window(offset: Int(offset), size: Int(size))
    }

    /// A fixed-size structure (`structure` names it, e.g. `segment_command_64`)
    /// of `size` bytes at `offset`, whose fields can then be read without
    /// further checks.
    ///
    /// - Throws: ``ReadFailure`` when it does not fit in the view.
    func record(_ structure: String, at offset: Int, size: Int) throws(ReadFailure) -> Record {
        guard let window = window(offset: offset, size: size) else {
            throw ReadFailure(
                structure: structure, fileOffset: fileOffset &+ offset, needed: size,
                available: contains(offset: offset, size: 0) ? bytes.count - offset : 0)
        }
        return Record(bytes: window.bytes, littleEndian: littleEndian)
    }

    func u8(at offset: Int) -> UInt8? {
        guard contains(offset: offset, size: 1) else { return nil }
        return bytes[offset]
    }

    func u16(at offset: Int) -> UInt16? {
        guard contains(offset: offset, size: 2) else { return nil }
        let value = bytes.loadUnaligned(fromByteOffset: offset, as: UInt16.self)
        return littleEndian ? UInt16(littleEndian: value) : UInt16(bigEndian: value)
    }

    func u32(at offset: Int) -> UInt32? {
        guard contains(offset: offset, size: 4) else { return nil }
        let value = bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
        return littleEndian ? UInt32(littleEndian: value) : UInt32(bigEndian: value)
    }

    func u64(at offset: Int) -> UInt64? {
        guard contains(offset: offset, size: 8) else { return nil }
        let value = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        return littleEndian ? UInt64(littleEndian: value) : UInt64(bigEndian: value)
    }

    /// A pointer-sized value: 8 bytes when `is64Bit`, else 4.
    func pointer(at offset: Int, is64Bit: Bool) -> UInt64? {
        is64Bit ? u64(at: offset) : u32(at: offset).map(UInt64.init)
    }

    /// The offset of the first NUL at or after `offset` and before `end`
    /// (clamped to the view), or `nil` when there is none.
    func nul(from offset: Int, end: Int? = nil) -> Int? {
        let end = min(end ?? bytes.count, bytes.count)
        guard offset >= 0, offset < end else { return nil }
        var position = offset
        while position < end {
            if bytes[position] == 0 { return position }
            position += 1
        }
        return nil
    }

    /// The NUL-terminated UTF-8 string at `offset`, which must end before
    /// `end` (default: the end of the view); `nil` when it does not.
    /// Invalid UTF-8 is repaired (U+FFFD).
    func cString(at offset: Int, end: Int? = nil) -> String? {
        guard let nul = nul(from: offset, end: end) else { return nil }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<nul]), as: UTF8.self)
    }

    /// A fixed-width, NUL-padded name such as `segname[16]`.
    func fixedString(at offset: Int, length: Int) -> String? {
        guard contains(offset: offset, size: length) else { return nil }
        let field = UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + length])
        let used = field.firstIndex(of: 0) ?? length
        return String(decoding: UnsafeRawBufferPointer(rebasing: field[0..<used]), as: UTF8.self)
    }

    /// An unsigned LEB128 value at `offset`, which moves past it; `nil` when
    /// it runs past `end` (clamped to the view) or does not fit in 64 bits.
    func uleb128(at offset: inout Int, end: Int? = nil) -> UInt64? {
        let end = min(end ?? bytes.count, bytes.count)
        var result: UInt64 = 0
        var shift: UInt64 = 0
        var position = offset
        while position >= 0, position < end {
            let byte = bytes[position]
            position += 1
            let bits = UInt64(byte & 0x7f)
            if shift < 64 {
                // Bits that would be shifted out make the value too large.
                if shift > 57 && bits >> (64 - shift) != 0 { return nil }
                result |= bits << shift
            } else if bits != 0 {
                return nil
            }
            if byte & 0x80 == 0 {
                offset = position
                return result
            }
            shift += 7
        }
        return nil
    }

    /// A signed LEB128 value at `offset`, which moves past it; `nil` when it
    /// runs past `end` (clamped to the view) or does not fit in 64 bits.
    func sleb128(at offset: inout Int, end: Int? = nil) -> Int64? {
        let end = min(end ?? bytes.count, bytes.count)
        var result: Int64 = 0
        var shift: Int64 = 0
        var position = offset
        while position >= 0, position < end {
            let byte = bytes[position]
            position += 1
            if shift < 64 { result |= Int64(byte & 0x7f) << shift }
            shift += 7
            if byte & 0x80 == 0 {
                if shift < 64 && byte & 0x40 != 0 { result |= -1 << shift }
                offset = position
                return result
            }
        }
        return nil
    }
}

/// A fixed-size structure already checked to lie inside the file: its
/// fields (at offsets within its size) are read without further checks.
/// A field offset outside it is a programming error and reads as 0, never
/// traps.
struct Record {
    let bytes: UnsafeRawBufferPointer
    let littleEndian: Bool

    func u8(_ offset: Int) -> UInt8 {
        offset >= 0 && offset < bytes.count ? bytes[offset] : 0
    }

    func u16(_ offset: Int) -> UInt16 {
        guard offset >= 0, offset <= bytes.count - 2 else { return 0 }
        let value = bytes.loadUnaligned(fromByteOffset: offset, as: UInt16.self)
        return littleEndian ? UInt16(littleEndian: value) : UInt16(bigEndian: value)
    }

    func u32(_ offset: Int) -> UInt32 {
        guard offset >= 0, offset <= bytes.count - 4 else { return 0 }
        let value = bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
        return littleEndian ? UInt32(littleEndian: value) : UInt32(bigEndian: value)
    }

    func i32(_ offset: Int) -> Int32 { Int32(bitPattern: u32(offset)) }

    func u64(_ offset: Int) -> UInt64 {
        guard offset >= 0, offset <= bytes.count - 8 else { return 0 }
        let value = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        return littleEndian ? UInt64(littleEndian: value) : UInt64(bigEndian: value)
    }

    /// A NUL-padded name of `length` bytes at `offset` (`segname[16]`).
    func name(_ offset: Int, length: Int) -> String {
        guard offset >= 0, length >= 0, offset <= bytes.count - length else { return "" }
        let field = UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + length])
        let used = field.firstIndex(of: 0) ?? length
        return String(decoding: UnsafeRawBufferPointer(rebasing: field[0..<used]), as: UTF8.self)
    }
}

/// A structure that does not fit in the bytes there are: `needed` bytes at
/// file offset `fileOffset`, of which `available` are there.
struct ReadFailure: Error {
    var structure: String
    var fileOffset: Int
    var needed: Int
    var available: Int

    var description: String {
        "\(structure) at file offset \(hex(fileOffset)) needs \(needed) bytes, \(available) available"
    }
}

/// `0x`-prefixed lower-case hexadecimal, as the warnings print offsets and
/// addresses.
func hex<Value: BinaryInteger>(_ value: Value) -> String {
    value < 0 ? "-0x" + String(value.magnitude, radix: 16) : "0x" + String(value, radix: 16)
}
