/// A unit of `.debug_info` opened for reading: its header, its
/// abbreviation table and its unit entry (`DW_TAG_compile_unit`,
/// `DW_TAG_partial_unit`), whose attributes say where the unit's strings,
/// addresses and range lists are; and the reads of its entries' values.
struct DWARFUnit {
    let header: DWARFUnitHeader
    let abbreviations: DWARFAbbreviations
    /// The unit entry.
    let root: DWARFEntry
    let sections: DWARFSections

    /// Opens the unit with `header`: reads its abbreviation table and its
    /// unit entry; `nil` when the unit has no entry.
    ///
    /// - Throws: ``DWARFError`` when the table or the entry cannot be read.
    static func open(_ header: DWARFUnitHeader, in sections: DWARFSections) throws(DWARFError) -> DWARFUnit? {
        let abbreviations = try DWARFAbbreviations(at: header.abbreviationsOffset, in: sections)
        var cursor = try entries(of: header, in: sections, from: header.entriesOffset)
        guard let root = try DWARFEntry.read(at: &cursor, unit: header, abbreviations: abbreviations) else { return nil }
        return DWARFUnit(header: header, abbreviations: abbreviations, root: root, sections: sections)
    }

    /// A cursor at `offset` in `.debug_info`, bounded by the end of the
    /// unit with `header`.
    private static func entries(
        of header: DWARFUnitHeader, in sections: DWARFSections, from offset: UInt64
    ) throws(DWARFError) -> DWARFCursor {
        var cursor = try DWARFCursor(.info, in: sections, at: header.offset)
        guard offset >= header.entriesOffset && offset < header.endOffset else {
            throw cursor.error(.outOfRange(target: .info, offset: offset, size: UInt64(cursor.bytes.count)))
        }
        cursor.offset = Int(offset)
        cursor.end = Int(header.endOffset)
        return cursor
    }

    /// A cursor at the entry at `offset` (in bytes from the beginning of
    /// `.debug_info`), which must be in this unit.
    func entries(from offset: UInt64) throws(DWARFError) -> DWARFCursor {
        try Self.entries(of: header, in: sections, from: offset)
    }

    /// The entry at `offset` in this unit (in bytes from the beginning of
    /// `.debug_info`); `nil` for a null entry.
    func entry(at offset: UInt64) throws(DWARFError) -> DWARFEntry? {
        var cursor = try entries(from: offset)
        return try DWARFEntry.read(at: &cursor, unit: header, abbreviations: abbreviations)
    }

    /// The text of a string value of this unit's entries: from
    /// `.debug_info`, `.debug_str`, `.debug_line_str`, or, for
    /// `DW_FORM_strx*`, `.debug_str` at the offset the unit's
    /// `.debug_str_offsets` contribution (`DW_AT_str_offsets_base`) gives.
    func string(_ location: DWARFStringLocation) throws(DWARFError) -> String {
        let (section, offset): (DWARFSections.Name, UInt64)
        switch location {
        case .inline(let inline): (section, offset) = (.info, inline)
        case .strp(let strp): (section, offset) = (.str, strp)
        case .lineStrp(let lineStrp): (section, offset) = (.lineStr, lineStrp)
        case .strx(let index):
            // Without DW_AT_str_offsets_base: the first contribution, past
            // its header.
            let base = root.stringOffsetsBase ?? UInt64(header.is64Bit ? 16 : 8)
            var offsets = try DWARFCursor(.strOffsets, in: sections, at: try indexed(base, index, size: header.offsetSize, in: .strOffsets))
            (section, offset) = (.str, try offsets.sectionOffset(is64Bit: header.is64Bit))
        }
        var cursor = try DWARFCursor(section, in: sections, at: offset)
        return try cursor.cString()
    }

    /// The address an address value stands for: itself, or for
    /// `DW_FORM_addrx*`, the entry of the unit's `.debug_addr` contribution
    /// (`DW_AT_addr_base`) it indexes; `nil` for a value of another form.
    func address(_ value: DWARFValue) throws(DWARFError) -> UInt64? {
        switch value {
        case .address(let address): return address
        case .addressIndex(let index):
            let base = root.addressBase ?? 8  // without DW_AT_addr_base: past the first contribution's header
            var cursor = try DWARFCursor(.addr, in: sections, at: try indexed(base, index, size: Int(header.addressSize), in: .addr))
            return try cursor.unsigned(size: Int(header.addressSize))
        default: return nil
        }
    }

    /// `base + index * size`, the offset of an indexed entry in `section`.
    ///
    /// - Throws: ``DWARFError/Problem/outOfRange(target:offset:size:)``
    ///   when it overflows.
    func indexed(_ base: UInt64, _ index: UInt64, size: Int, in section: DWARFSections.Name) throws(DWARFError) -> UInt64 {
        let (product, overflow) = index.multipliedReportingOverflow(by: UInt64(size))
        let (offset, carry) = base.addingReportingOverflow(product)
        guard !overflow && !carry else {
            throw DWARFError(
                section: section, offset: base,
                problem: .outOfRange(target: section, offset: .max, size: UInt64(sections.bytes[section]?.count ?? 0)))
        }
        return offset
    }

    /// The unit's base address (the unit entry's `DW_AT_low_pc`, 0 without
    /// one), which range list offsets are relative to.
    func baseAddress() throws(DWARFError) -> UInt64 {
        guard let low = root.lowPC else { return 0 }
        return try address(low) ?? 0
    }

    /// The address ranges of `entry`: `DW_AT_low_pc` to `DW_AT_high_pc` (an
    /// address, or an offset from the low address), else its
    /// `DW_AT_ranges` list; none when it has neither. Empty ranges are
    /// left out.
    func ranges(of entry: DWARFEntry) throws(DWARFError) -> [Range<UInt64>] {
        if let lowValue = entry.lowPC, let low = try address(lowValue), let highValue = entry.highPC {
            let high: UInt64? =
                if let length = highValue.unsigned { low.addingReportingOverflow(length).overflow ? nil : low + length } else {
                    try address(highValue)
                }
            guard let high, high > low else { return [] }
            return [low..<high]
        }
        guard let list = entry.ranges else { return [] }
        return try DWARFRangeList.ranges(list, of: self)
    }
}
