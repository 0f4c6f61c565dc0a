/// Little-endian bytes of hand-made Mach-O files, for inputs no linker
/// writes: malformed headers, loops, every chained pointer format. Values
/// are laid out as `<mach-o/loader.h>`, `<mach-o/fat.h>` and
/// `<mach-o/fixup-chains.h>` declare them.
struct Bytes {
    var data: [UInt8] = []

    var count: Int { data.count }

    mutating func u8(_ value: UInt8) { data.append(value) }
    mutating func u16(_ value: UInt16) { data += withUnsafeBytes(of: value.littleEndian, Array.init) }
    mutating func u32(_ value: UInt32) { data += withUnsafeBytes(of: value.littleEndian, Array.init) }
    mutating func u64(_ value: UInt64) { data += withUnsafeBytes(of: value.littleEndian, Array.init) }
    mutating func u32BigEndian(_ value: UInt32) { data += withUnsafeBytes(of: value.bigEndian, Array.init) }
    mutating func u64BigEndian(_ value: UInt64) { data += withUnsafeBytes(of: value.bigEndian, Array.init) }
    /// A NUL-padded fixed-width name (`segname[16]`).
    mutating func name(_ text: String, width: Int = 16) {
        data += Array(text.utf8.prefix(width)) + Array(repeating: 0, count: max(0, width - text.utf8.count))
    }
    mutating func cString(_ text: String) { data += Array(text.utf8) + [0] }
    mutating func uleb(_ value: UInt64) {
        var rest = value
        repeat {
            var byte = UInt8(rest & 0x7f)
            rest >>= 7
            if rest != 0 { byte |= 0x80 }
            data.append(byte)
        } while rest != 0
    }
    mutating func pad(to size: Int) { if data.count < size { data += Array(repeating: 0, count: size - data.count) } }
    /// Writes `bytes` at `offset`, growing the data with zeros as needed.
    mutating func put(_ bytes: [UInt8], at offset: Int) {
        pad(to: offset + bytes.count)
        data.replaceSubrange(offset..<offset + bytes.count, with: bytes)
    }
    mutating func put(u64 value: UInt64, at offset: Int) { put(withUnsafeBytes(of: value.littleEndian, Array.init), at: offset) }
    mutating func put(u32 value: UInt32, at offset: Int) { put(withUnsafeBytes(of: value.littleEndian, Array.init), at: offset) }
}

/// One section of a hand-made `LC_SEGMENT_64`.
struct HandMadeSection {
    var name: String
    var segment: String
    var address: UInt64
    var size: UInt64
    var offset: UInt32
    var flags: UInt32 = 0
    var reserved1: UInt32 = 0
    var reserved2: UInt32 = 0
}

enum HandMade {
    static let arm64: Int32 = 0x0100_000c
    static let dylib: UInt32 = 6

    /// A 64-bit little-endian image: `mach_header_64`, then `commands`
    /// (each a whole command), then zeros up to `size`, with `contents`
    /// written at their offsets. `ncmds`/`sizeofcmds` default to the real ones.
    static func image(
        commands: [[UInt8]], contents: [(offset: Int, bytes: [UInt8])] = [], size: Int = 0, fileType: UInt32 = dylib,
        flags: UInt32 = 0x85, cpu: Int32 = arm64, ncmds: UInt32? = nil, sizeofcmds: UInt32? = nil
    ) -> [UInt8] {
        var bytes = Bytes()
        bytes.u32(0xfeed_facf)
        bytes.u32(UInt32(bitPattern: cpu))
        bytes.u32(0)
        bytes.u32(fileType)
        bytes.u32(ncmds ?? UInt32(commands.count))
        bytes.u32(sizeofcmds ?? UInt32(commands.map(\.count).reduce(0, +)))
        bytes.u32(flags)
        bytes.u32(0)
        for command in commands { bytes.data += command }
        bytes.pad(to: size)
        for (offset, data) in contents { bytes.put(data, at: offset) }
        return bytes.data
    }

    /// `LC_SEGMENT_64` with its sections.
    static func segment(
        _ name: String, address: UInt64, size: UInt64, fileOffset: UInt64, fileSize: UInt64, sections: [HandMadeSection] = []
    ) -> [UInt8] {
        var bytes = Bytes()
        bytes.u32(0x19)
        bytes.u32(UInt32(72 + 80 * sections.count))
        bytes.name(name)
        bytes.u64(address)
        bytes.u64(size)
        bytes.u64(fileOffset)
        bytes.u64(fileSize)
        bytes.u32(7)
        bytes.u32(3)
        bytes.u32(UInt32(sections.count))
        bytes.u32(0)
        for section in sections {
            bytes.name(section.name)
            bytes.name(section.segment)
            bytes.u64(section.address)
            bytes.u64(section.size)
            bytes.u32(section.offset)
            bytes.u32(3)
            bytes.u32(0)
            bytes.u32(0)
            bytes.u32(section.flags)
            bytes.u32(section.reserved1)
            bytes.u32(section.reserved2)
            bytes.u32(0)
        }
        return bytes.data
    }

    /// A `linkedit_data_command` (`LC_DYLD_CHAINED_FIXUPS` 0x80000034,
    /// `LC_DYLD_EXPORTS_TRIE` 0x80000033, `LC_FUNCTION_STARTS` 0x26).
    static func linkeditData(_ command: UInt32, offset: UInt32, size: UInt32) -> [UInt8] {
        var bytes = Bytes()
        bytes.u32(command)
        bytes.u32(16)
        bytes.u32(offset)
        bytes.u32(size)
        return bytes.data
    }

    /// `LC_DYLD_INFO_ONLY` with its rebase, bind, weak-bind, lazy-bind and
    /// export ranges.
    static func dyldInfo(rebase: (UInt32, UInt32) = (0, 0), bind: (UInt32, UInt32) = (0, 0), export: (UInt32, UInt32) = (0, 0)) -> [UInt8] {
        var bytes = Bytes()
        bytes.u32(0x8000_0022)
        bytes.u32(48)
        for (offset, size) in [rebase, bind, (0, 0), (0, 0), export] {
            bytes.u32(offset)
            bytes.u32(size)
        }
        return bytes.data
    }

    /// `LC_SYMTAB`.
    static func symtab(symbolsOffset: UInt32, count: UInt32, stringsOffset: UInt32, stringsSize: UInt32) -> [UInt8] {
        var bytes = Bytes()
        bytes.u32(0x2)
        bytes.u32(24)
        bytes.u32(symbolsOffset)
        bytes.u32(count)
        bytes.u32(stringsOffset)
        bytes.u32(stringsSize)
        return bytes.data
    }

    /// A `dylib_command` (`LC_LOAD_DYLIB` 0xc, `LC_ID_DYLIB` 0xd, …) with its
    /// name after the fixed part, padded to 8 bytes.
    static func dylib(_ command: UInt32, _ name: String) -> [UInt8] {
        var bytes = Bytes()
        let size = (24 + name.utf8.count + 1 + 7) / 8 * 8
        bytes.u32(command)
        bytes.u32(UInt32(size))
        bytes.u32(24)
        bytes.u32(2)
        bytes.u32(0x1_0000)
        bytes.u32(0x1_0000)
        bytes.cString(name)
        bytes.pad(to: size)
        return bytes.data
    }

    /// A load command of `cmd` and `cmdsize` with no body beyond them
    /// (padded to `size`, default `cmdsize`).
    static func bare(_ command: UInt32, cmdsize: UInt32, size: Int? = nil) -> [UInt8] {
        var bytes = Bytes()
        bytes.u32(command)
        bytes.u32(cmdsize)
        bytes.pad(to: size ?? Int(cmdsize))
        return bytes.data
    }

    /// A fat header (`FAT_MAGIC`, big-endian) with `archs` (cputype,
    /// cpusubtype, offset, size) and `nfat_arch` (default: their number),
    /// then zeros up to `size`, with `slices` written at their offsets.
    static func fat(
        archs: [(cpu: Int32, subtype: Int32, offset: UInt32, size: UInt32)], nfat: UInt32? = nil, size: Int,
        slices: [(offset: Int, bytes: [UInt8])]
    ) -> [UInt8] {
        var bytes = Bytes()
        bytes.u32BigEndian(0xcafe_babe)
        bytes.u32BigEndian(nfat ?? UInt32(archs.count))
        for arch in archs {
            bytes.u32BigEndian(UInt32(bitPattern: arch.cpu))
            bytes.u32BigEndian(UInt32(bitPattern: arch.subtype))
            bytes.u32BigEndian(arch.offset)
            bytes.u32BigEndian(arch.size)
            bytes.u32BigEndian(12)
        }
        bytes.pad(to: size)
        for (offset, data) in slices { bytes.put(data, at: offset) }
        return bytes.data
    }

    /// `LC_DYLD_CHAINED_FIXUPS` data: the header, starts for segment
    /// `segment` of `segmentCount` (one `dyld_chained_starts_in_segment` with
    /// `pageStarts`, of which the first `pageCount` are `page_start[]`), and the imports (`DYLD_CHAINED_IMPORT`: ordinal, weak,
    /// name) with their names.
    static func chainedFixups(
        segmentCount: Int, segment: Int, pageSize: UInt16, format: UInt16, segmentOffset: UInt64, pageStarts: [UInt16],
        pageCount: Int? = nil, maxValidPointer: UInt32 = 0, imports: [(ordinal: UInt8, weak: Bool, name: String)]
    ) -> [UInt8] {
        var starts = Bytes()
        starts.u32(UInt32(segmentCount))
        let segmentStartsOffset = 4 + 4 * segmentCount
        for index in 0..<segmentCount { starts.u32(index == segment ? UInt32(segmentStartsOffset) : 0) }
        starts.u32(UInt32(22 + 2 * pageStarts.count))
        starts.u16(pageSize)
        starts.u16(format)
        starts.u64(segmentOffset)
        starts.u32(maxValidPointer)
        starts.u16(UInt16(pageCount ?? pageStarts.count))
        for start in pageStarts { starts.u16(start) }
        while starts.count % 4 != 0 { starts.u8(0) }
        var names = Bytes()
        names.u8(0)
        var entries = Bytes()
        for entry in imports {
            entries.u32(UInt32(entry.ordinal) | (entry.weak ? 0x100 : 0) | UInt32(names.count) << 9)
            names.cString(entry.name)
        }
        var bytes = Bytes()
        let startsOffset = 32
        let importsOffset = startsOffset + starts.count
        let symbolsOffset = importsOffset + entries.count
        bytes.u32(0)
        bytes.u32(UInt32(startsOffset))
        bytes.u32(UInt32(importsOffset))
        bytes.u32(UInt32(symbolsOffset))
        bytes.u32(UInt32(imports.count))
        bytes.u32(1)
        bytes.u32(0)
        bytes.pad(to: startsOffset)
        bytes.data += starts.data + entries.data + names.data
        return bytes.data
    }
}
