/// One debugging information entry (DIE) of a unit, with the attributes
/// the source lookup reads (`DW_AT_*`); the others are decoded only to be
/// passed over.
struct DWARFEntry: Sendable {
    /// The entry's offset, in bytes from the beginning of `.debug_info`.
    let offset: UInt64
    /// `DW_TAG_*`.
    let tag: UInt64
    /// Whether children follow it, up to a null entry.
    let hasChildren: Bool
    var lowPC: DWARFValue?
    /// An address, or (a constant) the offset from `DW_AT_low_pc`.
    var highPC: DWARFValue?
    /// `DW_AT_ranges`: an offset into the range list section, or a
    /// `DW_FORM_rnglistx` index.
    var ranges: DWARFValue?
    var name: DWARFStringLocation?
    /// `DW_AT_linkage_name`, else `DW_AT_MIPS_linkage_name`.
    var linkageName: DWARFStringLocation?
    var abstractOrigin: UInt64?
    var specification: UInt64?
    /// `DW_AT_call_file`: an index into the unit's line table's files.
    var callFile: UInt64?
    var callLine: UInt64?
    var callColumn: UInt64?
    /// The unit entry's attributes: `DW_AT_comp_dir`, `DW_AT_stmt_list`
    /// (an offset into `.debug_line`), and DWARF 5's bases of the unit's
    /// contributions to `.debug_str_offsets`, `.debug_addr` and
    /// `.debug_rnglists`.
    var compilationDirectory: DWARFStringLocation?
    var statementList: UInt64?
    var stringOffsetsBase: UInt64?
    var addressBase: UInt64?
    var rangeListsBase: UInt64?

    static let subprogram: UInt64 = 0x2e
    static let inlinedSubroutine: UInt64 = 0x1d

    /// Whether the entry is a function's: `DW_TAG_subprogram` or
    /// `DW_TAG_inlined_subroutine`.
    var isFunction: Bool { tag == Self.subprogram || tag == Self.inlinedSubroutine }

    /// Reads the entry at `cursor` in the unit with `header`, encoded by
    /// `abbreviations`, and moves past it; `nil` for a null entry (the end
    /// of a list of children).
    ///
    /// - Throws: ``DWARFError`` for an abbreviation code the table does
    ///   not have, or a value that cannot be read.
    static func read(
        at cursor: inout DWARFCursor, unit header: DWARFUnitHeader, abbreviations: DWARFAbbreviations
    ) throws(DWARFError) -> DWARFEntry? {
        let offset = cursor.offset
        let code = try cursor.uleb()
        guard code != 0 else { return nil }
        guard let abbreviation = abbreviations[code] else { throw cursor.error(.unknownAbbreviation(code), at: offset) }
        let encoding = header.encoding
        var entry = DWARFEntry(offset: UInt64(offset), tag: abbreviation.tag, hasChildren: abbreviation.hasChildren)
        for attribute in abbreviation.attributes {
            let value = try DWARFForm.read(
                attribute.form, implicitConstant: attribute.implicitConstant, at: &cursor, unit: encoding)
            entry.take(attribute.name, value)
        }
        return entry
    }

    private init(offset: UInt64, tag: UInt64, hasChildren: Bool) {
        (self.offset, self.tag, self.hasChildren) = (offset, tag, hasChildren)
    }

    /// Keeps `value` when `attribute` is one the lookup reads.
    private mutating func take(_ attribute: UInt64, _ value: DWARFValue) {
        switch attribute {
        case 0x03: if case .string(let location) = value { name = location }
        case 0x10: statementList = value.unsigned
        case 0x11: lowPC = value
        case 0x12: highPC = value
        case 0x1b: if case .string(let location) = value { compilationDirectory = location }
        case 0x31: if case .reference(let target) = value { abstractOrigin = target }
        case 0x47: if case .reference(let target) = value { specification = target }
        case 0x55: ranges = value
        case 0x57: callColumn = value.unsigned
        case 0x58: callFile = value.unsigned
        case 0x59: callLine = value.unsigned
        case 0x6e: if case .string(let location) = value { linkageName = location }
        case 0x2007: if linkageName == nil, case .string(let location) = value { linkageName = location }
        case 0x72: stringOffsetsBase = value.unsigned
        case 0x73, 0x2133: addressBase = value.unsigned  // DW_AT_addr_base, DW_AT_GNU_addr_base
        case 0x74: rangeListsBase = value.unsigned
        default: break
        }
    }
}
