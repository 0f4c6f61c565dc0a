import LinkCheckImage

/// One relocation entry of a section of an `MH_OBJECT` file
/// (`relocation_info`, or `scattered_relocation_info` when `R_SCATTERED` is
/// set; `<mach-o/reloc.h>`).
public struct Relocation: Sendable, Hashable {
    /// The 1-based number of the section it applies to (as `n_sect`).
    public var sectionNumber: Int
    /// `r_address`: offset of the fixed-up bytes from the start of the
    /// section, in bytes.
    public var offset: UInt32
    /// What the fixed-up bytes refer to.
    public var target: Target
    /// `r_pcrel`.
    public var isPCRelative: Bool
    /// `r_length`: log2 of the fixed-up size (2: 4 bytes, 3: 8 bytes).
    public var length: UInt8
    /// `r_type`: machine-specific (`ARM64_RELOC_UNSIGNED` 0,
    /// `ARM64_RELOC_BRANCH26` 2, `X86_64_RELOC_BRANCH` 2, …).
    public var type: UInt8

    /// What a relocation refers to.
    public enum Target: Sendable, Hashable {
        /// `r_extern` set: symbol-table entry `r_symbolnum` (0-based).
        case symbol(Int)
        /// `r_extern` clear: section `r_symbolnum` (1-based); the address
        /// is in the fixed-up bytes.
        case section(Int)
        /// A scattered relocation: `r_value`, the target's address.
        case scattered(address: UInt32)
    }
}

extension Relocation {
    /// Reads the `nreloc` entries at `reloff` of section number
    /// `sectionNumber`; entries past the end of the image are dropped with a
    /// warning.
    static func readAll(
        of section: Section, number sectionNumber: Int, in image: ByteReader, warnings: inout ReadWarnings
    ) -> [Relocation] {
        let (offset, count) = (section.relocationsOffset, section.relocationCount)
        guard count > 0 else { return [] }
        var fitting = Int(count)
        if !image.contains(offset: UInt64(offset), size: UInt64(count) * 8) {
            fitting = Int(offset) < image.count ? (image.count - Int(offset)) / 8 : 0
            warnings.add(
                "relocations of \(section.qualifiedName)", at: image.fileOffset + Int(min(offset, UInt32(image.count))),
                "\(count) entries run past the end of the image; \(fitting) read")
        }
        var relocations: [Relocation] = []
        relocations.reserveCapacity(fitting)
        for index in 0..<fitting {
            guard let first = image.u32(at: Int(offset) + index * 8), let second = image.u32(at: Int(offset) + index * 8 + 4)
            else { break }
            if first & 0x8000_0000 != 0 {  // R_SCATTERED
                relocations.append(
                    Relocation(
                        sectionNumber: sectionNumber, offset: first & 0xff_ffff, target: .scattered(address: second),
                        isPCRelative: (first >> 30) & 1 != 0, length: UInt8((first >> 28) & 3),
                        type: UInt8((first >> 24) & 0xf)))
                continue
            }
            // relocation_info's bit fields are allocated from the low bits in
            // little-endian files and from the high bits in big-endian ones.
            let (symbol, pcrel, length, isExtern, type): (UInt32, UInt32, UInt32, UInt32, UInt32) =
                image.littleEndian
                ? (second & 0xff_ffff, (second >> 24) & 1, (second >> 25) & 3, (second >> 27) & 1, second >> 28)
                : (second >> 8, (second >> 7) & 1, (second >> 5) & 3, (second >> 4) & 1, second & 0xf)
            relocations.append(
                Relocation(
                    sectionNumber: sectionNumber, offset: first, target: isExtern != 0 ? .symbol(Int(symbol)) : .section(Int(symbol)),
                    isPCRelative: pcrel != 0, length: UInt8(length), type: UInt8(type)))
        }
        return relocations
    }
}
