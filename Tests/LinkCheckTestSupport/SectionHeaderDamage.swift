import Foundation

/// Damage to the section header table of an ELF64 little-endian file, which
/// the loader never reads: what must not hide an image's imports.
public enum SectionHeaderDamage: String, CaseIterable, Sendable {
    /// The table zeroed in place (`e_shnum` still counts its entries).
    case zeroed
    /// The table replaced with random bytes.
    case random
    /// Every byte after the 64-byte ELF header random, the file's size kept
    /// (program headers included).
    case everythingAfterTheHeader
    /// The `.dynsym` section's `sh_type` changed to `SHT_PROGBITS`.
    case dynsymRetyped

    /// The damage that leaves the program headers intact.
    public static let sectionsOnly: [SectionHeaderDamage] = [.zeroed, .random, .dynsymRetyped]

    /// `data` with this damage; random bytes come from `seed`.
    public func applied(to data: Data, seed: UInt64 = 1) -> Data {
        var bytes = [UInt8](data)
        func integer<T: FixedWidthInteger>(_ offset: Int, as: T.Type) -> Int {
            Int(bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: T.self) })
        }
        // Elf64_Ehdr: e_shoff at 0x28, e_shentsize at 0x3a, e_shnum at 0x3c.
        let (tableOffset, entrySize, count) = (
            integer(0x28, as: UInt64.self), integer(0x3a, as: UInt16.self), integer(0x3c, as: UInt16.self)
        )
        let table = tableOffset..<(tableOffset + entrySize * count)
        var generator = SplitMix64(seed: seed)
        switch self {
        case .zeroed:
            bytes.replaceSubrange(table, with: repeatElement(0, count: table.count))
        case .random:
            bytes.replaceSubrange(table, with: table.map { _ in UInt8(truncatingIfNeeded: generator.next()) })
        case .everythingAfterTheHeader:
            for index in 64..<bytes.count { bytes[index] = UInt8(truncatingIfNeeded: generator.next()) }
        case .dynsymRetyped:
            // Elf64_Shdr: sh_type 4 bytes into each entry; SHT_DYNSYM is 11,
            // SHT_PROGBITS 1.
            for entry in stride(from: table.lowerBound, to: table.upperBound, by: entrySize) where bytes[entry + 4] == 11 {
                bytes[entry + 4] = 1
            }
        }
        return Data(bytes)
    }
}
