/// Address range lists: `.debug_ranges` (DWARF 2 to 4: pairs of
/// addresses relative to a base, with base address selection entries) and
/// `.debug_rnglists` (DWARF 5: `DW_RLE_*` entries), which a `DW_AT_ranges`
/// attribute names by offset or, in DWARF 5, by `DW_FORM_rnglistx` index.
enum DWARFRangeList {
    /// The ranges of the list `value` (a `DW_AT_ranges` value) of an entry
    /// of `unit`; empty ranges are left out. Each list entry is a few bytes
    /// of the section, so a list cannot have more ranges than its section
    /// has bytes, and it ends at its end entry or the section's end.
    ///
    /// - Throws: ``DWARFError`` when the list runs past the section's end,
    ///   its offset is outside it, or it has an unknown entry kind.
    static func ranges(_ value: DWARFValue, of unit: DWARFUnit) throws(DWARFError) -> [Range<UInt64>] {
        let header = unit.header
        let section: DWARFSections.Name = header.version >= 5 ? .rnglists : .ranges
        let offset: UInt64
        switch value {
        case .rangeListIndex(let index):
            // An index into the offsets after the unit's contribution
            // header (DW_AT_rnglists_base; without it, the first
            // contribution's), which are relative to that base.
            let base = unit.root.rangeListsBase ?? UInt64(header.is64Bit ? 20 : 12)
            var offsets = try DWARFCursor(
                .rnglists, in: unit.sections, at: try unit.indexed(base, index, size: header.offsetSize, in: .rnglists))
            let (sum, overflow) = base.addingReportingOverflow(try offsets.sectionOffset(is64Bit: header.is64Bit))
            guard !overflow else { throw offsets.error(.outOfRange(target: .rnglists, offset: .max, size: UInt64(offsets.bytes.count))) }
            offset = sum
        default:
            guard let sectionOffset = value.unsigned else { return [] }
            offset = sectionOffset
        }
        var cursor = try DWARFCursor(section, in: unit.sections, at: offset)
        let base = try unit.baseAddress()
        return header.version >= 5
            ? try rangeListEntries(at: &cursor, base: base, unit: unit)
            : try rangePairs(at: &cursor, base: base, addressSize: Int(header.addressSize))
    }

    /// A `.debug_ranges` list: pairs of addresses relative to `base`, a
    /// pair whose first address is the largest one setting a new base, up
    /// to a pair of zeros.
    private static func rangePairs(at cursor: inout DWARFCursor, base: UInt64, addressSize: Int) throws(DWARFError) -> [Range<UInt64>] {
        let baseSelection: UInt64 = addressSize == 8 ? .max : 0xffff_ffff
        var (base, ranges) = (base, [Range<UInt64>]())
        while true {
            let start = try cursor.unsigned(size: addressSize)
            let end = try cursor.unsigned(size: addressSize)
            if start == 0 && end == 0 { return ranges }
            if start == baseSelection {
                base = end
            } else {
                ranges.append(contentsOf: range(base &+ start, base &+ end))
            }
        }
    }

    /// A `.debug_rnglists` list, up to `DW_RLE_end_of_list`.
    private static func rangeListEntries(at cursor: inout DWARFCursor, base: UInt64, unit: DWARFUnit) throws(DWARFError) -> [Range<UInt64>]
    {
        let addressSize = Int(unit.header.addressSize)
        var (base, ranges) = (base, [Range<UInt64>]())
        while true {
            let kindOffset = cursor.offset
            switch try cursor.u8() {
            case 0x00: return ranges  // DW_RLE_end_of_list
            case 0x01: base = try indexedAddress(try cursor.uleb(), of: unit)  // DW_RLE_base_addressx
            case 0x02:  // DW_RLE_startx_endx
                let start = try indexedAddress(try cursor.uleb(), of: unit)
                ranges.append(contentsOf: range(start, try indexedAddress(try cursor.uleb(), of: unit)))
            case 0x03:  // DW_RLE_startx_length
                let start = try indexedAddress(try cursor.uleb(), of: unit)
                ranges.append(contentsOf: range(start, start &+ (try cursor.uleb())))
            case 0x04:  // DW_RLE_offset_pair
                let start = try cursor.uleb()
                ranges.append(contentsOf: range(base &+ start, base &+ (try cursor.uleb())))
            case 0x05: base = try cursor.unsigned(size: addressSize)  // DW_RLE_base_address
            case 0x06:  // DW_RLE_start_end
                let start = try cursor.unsigned(size: addressSize)
                ranges.append(contentsOf: range(start, try cursor.unsigned(size: addressSize)))
            case 0x07:  // DW_RLE_start_length
                let start = try cursor.unsigned(size: addressSize)
                ranges.append(contentsOf: range(start, start &+ (try cursor.uleb())))
            case let kind: throw cursor.error(.unknownRangeListEntry(kind), at: kindOffset)
            }
        }
    }

    /// The address of `.debug_addr` entry `index` of `unit`.
    private static func indexedAddress(_ index: UInt64, of unit: DWARFUnit) throws(DWARFError) -> UInt64 {
        try unit.address(.addressIndex(index)) ?? 0
    }

    /// `start..<end` as a list: empty when it is empty or reversed.
    private static func range(_ start: UInt64, _ end: UInt64) -> [Range<UInt64>] {
        start < end ? [start..<end] : []
    }
}
