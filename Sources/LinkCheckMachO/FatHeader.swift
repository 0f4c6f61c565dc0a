import LinkCheckImage

/// One architecture of a fat (universal) file: a `fat_arch` or
/// `fat_arch_64` entry after the `fat_header` (`<mach-o/fat.h>`), always
/// big-endian.
public struct FatArch: Sendable, Hashable {
    /// `cputype`/`cpusubtype` the entry declares for its slice.
    public var cpu: CPUType
    /// `offset`: where the slice starts, in bytes from the start of the file.
    public var offset: UInt64
    /// `size`: the slice's size in bytes.
    public var size: UInt64
    /// `align`: the slice's alignment, as a power of two.
    public var alignment: UInt32
}

enum FatHeader {
    static let magic: UInt32 = 0xcafe_babe  // FAT_MAGIC
    static let magic64: UInt32 = 0xcafe_babf  // FAT_MAGIC_64

    /// The entries of the fat header at the start of `file` (big-endian),
    /// less those whose slice is empty, points past the end of the file, or
    /// overlaps the header or an earlier entry's slice (each dropped with a
    /// warning). `nfat_arch` is
    /// checked against the file's size before any entry is read.
    ///
    /// - Parameter fileSize: the file's size in bytes when `file` holds only
    ///   its start (the fat header and its entries, read on their own);
    ///   `nil` when `file` is the whole file.
    /// - Throws: ``ReadFailure`` when the 8-byte `fat_header` does not fit.
    static func read(_ file: ByteReader, fileSize: Int? = nil, warnings: inout ReadWarnings) throws(ReadFailure) -> [FatArch] {
        let reader = file.withByteOrder(littleEndian: false)
        let fileSize = UInt64(fileSize ?? reader.count)
        let header = try reader.record("fat_header", at: 0, size: 8)
        let is64 = header.u32(0) == magic64
        let entrySize = is64 ? 32 : 20
        let declared = header.u32(4)
        let fitting = (reader.count - 8) / entrySize
        if UInt64(declared) > UInt64(fitting) {
            warnings.add(
                "fat_header", at: 0,
                "nfat_arch \(declared) needs \(UInt64(declared) * UInt64(entrySize)) bytes of fat_arch entries, the file has \(reader.count - 8) after the header; \(fitting) read"
            )
        }
        var archs: [FatArch] = []
        let count = min(Int(declared), fitting)
        let headerEnd = UInt64(8 + count * entrySize)
        for index in 0..<count {
            let at = 8 + index * entrySize
            guard let entry = try? reader.record(is64 ? "fat_arch_64" : "fat_arch", at: at, size: entrySize) else { break }
            let arch =
                is64
                ? FatArch(
                    cpu: CPUType(type: entry.i32(0), subtype: entry.i32(4)), offset: entry.u64(8), size: entry.u64(16),
                    alignment: entry.u32(24))
                : FatArch(
                    cpu: CPUType(type: entry.i32(0), subtype: entry.i32(4)), offset: UInt64(entry.u32(8)), size: UInt64(entry.u32(12)),
                    alignment: entry.u32(16))
            let structure = "fat_arch \(index) (\(arch.cpu))"
            guard arch.offset <= fileSize, arch.size <= fileSize - arch.offset else {
                warnings.add(
                    structure, at: at,
                    "its slice (\(arch.size) bytes at \(hex(arch.offset))) runs past the end of the file (\(fileSize) bytes); slice skipped"
                )
                continue
            }
            guard arch.size > 0 else {
                warnings.add(structure, at: at, "an empty slice; skipped")
                continue
            }
            guard arch.offset >= headerEnd else {
                warnings.add(structure, at: at, "its slice at \(hex(arch.offset)) overlaps the fat header; slice skipped")
                continue
            }
            if let other = archs.firstIndex(where: { $0.offset < arch.offset + arch.size && arch.offset < $0.offset + $0.size }) {
                warnings.add(
                    structure, at: at,
                    "its slice (\(hex(arch.offset))..<\(hex(arch.offset + arch.size))) overlaps the slice of \(archs[other].cpu); slice skipped"
                )
                continue
            }
            archs.append(arch)
        }
        return archs
    }
}
