/// The header of one unit of `.debug_info` (DWARF 2 to 5): where the unit
/// is, how its entries are encoded, and what kind of unit it is.
struct DWARFUnitHeader: Sendable {
    /// The unit's offset, in bytes from the beginning of `.debug_info`: of
    /// its initial length field.
    let offset: UInt64
    /// The offset of its first entry (past the header).
    let entriesOffset: UInt64
    /// The offset past its last byte.
    let endOffset: UInt64
    /// The DWARF version, 2 to 5.
    let version: UInt16
    /// `DW_UT_*` (DWARF 5's `unit_type`; `DW_UT_compile` for earlier
    /// versions, whose `.debug_info` has compilation and partial units).
    let unitType: UInt8
    /// Whether the unit is 64-bit DWARF (offsets of 8 bytes).
    let is64Bit: Bool
    /// The size of an address, 4 or 8 bytes.
    let addressSize: UInt8
    /// The offset of the unit's abbreviation table in `.debug_abbrev`.
    let abbreviationsOffset: UInt64

    /// `DW_UT_compile`, `DW_UT_partial`: the units that describe code;
    /// type, skeleton and split units are skipped.
    var describesCode: Bool { unitType == 0x01 || unitType == 0x03 }

    /// The size of an offset into another section, 4 or 8 bytes.
    var offsetSize: Int { is64Bit ? 8 : 4 }

    /// How the unit's attribute values are encoded.
    var encoding: DWARFEncoding {
        DWARFEncoding(version: version, is64Bit: is64Bit, addressSize: addressSize, unitOffset: offset)
    }

    /// Reads the header of the unit at `cursor` (in `.debug_info`) and
    /// leaves `cursor` at the next unit.
    ///
    /// - Throws: ``DWARFError`` when the unit's length runs past the
    ///   section's end, its version is not 2 to 5, or its address size not
    ///   4 or 8.
    init(at cursor: inout DWARFCursor) throws(DWARFError) {
        offset = UInt64(cursor.offset)
        let (length, is64Bit) = try cursor.initialLength()
        let lengthEnd = UInt64(cursor.offset)
        guard length <= UInt64(cursor.end) - lengthEnd else {
            throw cursor.error(.unitLengthPastEnd(length: length, sectionSize: UInt64(cursor.bytes.count)), at: Int(offset))
        }
        var unit = try cursor.sub(length: length)
        self.is64Bit = is64Bit
        endOffset = lengthEnd + length
        let versionOffset = unit.offset
        version = try unit.u16()
        guard (2...5).contains(version) else { throw unit.error(.unsupportedVersion(version), at: versionOffset) }
        if version >= 5 {
            unitType = try unit.u8()
            addressSize = try unit.u8()
            abbreviationsOffset = try unit.sectionOffset(is64Bit: is64Bit)
            switch unitType {
            case 0x04, 0x05: try unit.skip(8)  // DW_UT_skeleton, DW_UT_split_compile: dwo_id
            case 0x02, 0x06: try unit.skip(8 + UInt64(is64Bit ? 8 : 4))  // DW_UT_type, DW_UT_split_type
            default: break
            }
        } else {
            unitType = 0x01
            abbreviationsOffset = try unit.sectionOffset(is64Bit: is64Bit)
            addressSize = try unit.u8()
        }
        guard addressSize == 4 || addressSize == 8 else {
            throw unit.error(.unsupportedAddressSize(addressSize), at: versionOffset)
        }
        entriesOffset = UInt64(unit.offset)
    }

    /// The headers of every unit in `.debug_info`, in order; none when the
    /// section is absent.
    ///
    /// - Throws: ``DWARFError`` for the first unit header that cannot be
    ///   read: the units after it cannot be found.
    static func all(in sections: DWARFSections) throws(DWARFError) -> [DWARFUnitHeader] {
        var cursor = try DWARFCursor(.info, in: sections, at: 0)
        var headers: [DWARFUnitHeader] = []
        while !cursor.isAtEnd {
            headers.append(try DWARFUnitHeader(at: &cursor))
        }
        return headers
    }
}
