#if canImport(CLibELF)  // read through libelf: not in a build without it (Package.swift)
import CLibELF

extension ELFFile {
    /// The function starts the `.eh_frame_hdr` binary search table lists
    /// (the initial location of every FDE, as the unwinder looks them up;
    /// LSB "Exception Frames", `.eh_frame_hdr`), sorted: where functions
    /// start in a stripped image, whose symbols name only its exports.
    ///
    /// For a little-endian image (those call sites are analysed for). Read
    /// only in the common encoding: version 1, a `DW_EH_PE_udata4`
    /// count and a `DW_EH_PE_datarel | DW_EH_PE_sdata4` table (relative to
    /// the section's address), which GNU ld, gold, lld and mold write. Any
    /// other encoding, or a count the section cannot hold, gives none. The
    /// section is `SHT_PROGBITS` (GNU ld, lld), or `SHT_X86_64_UNWIND` as
    /// gold writes it for x86-64 (x86-64 psABI, "Unwind Table").
    package func unwindFunctionStarts(sections: [Section]) -> [UInt64] {
        let types = [UInt32(SHT_PROGBITS), UInt32(SHT_X86_64_UNWIND)]
        guard let section = sections.first(where: { $0.name == ".eh_frame_hdr" && types.contains($0.type) }),
            let data = section.data, let base = data.pointee.d_buf
        else { return [] }
        let bytes = UnsafeRawBufferPointer(start: base, count: data.pointee.d_size)
        // version, eh_frame_ptr_enc, fde_count_enc, table_enc.
        guard bytes.count >= 8, bytes[0] == 1, bytes[2] == 0x03, bytes[3] == 0x3b,
            let pointerSize = Self.encodedSize(bytes[1]), bytes.count >= 4 + pointerSize + 4
        else { return [] }
        let countOffset = 4 + pointerSize
        let count = Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: countOffset, as: UInt32.self)))
        let tableOffset = countOffset + 4
        guard count <= (bytes.count - tableOffset) / 8 else { return [] }
        let address = section.header.sh_addr
        var starts: [UInt64] = []
        starts.reserveCapacity(count)
        for index in 0..<count {
            let entry = bytes.loadUnaligned(fromByteOffset: tableOffset + 8 * index, as: UInt32.self)
            let relative = Int32(bitPattern: UInt32(littleEndian: entry))
            starts.append(address &+ UInt64(bitPattern: Int64(relative)))
        }
        starts.sort()
        return starts
    }

    /// The size of an `.eh_frame_hdr` pointer encoded as `encoding` (the
    /// fixed-size `DW_EH_PE_*` formats), or `nil`.
    private static func encodedSize(_ encoding: UInt8) -> Int? {
        switch encoding & 0x0f {
        case 0x02, 0x0a: 2
        case 0x03, 0x0b: 4
        case 0x04, 0x0c: 8
        default: nil
        }
    }
}
#endif
