/// An attribute's value as its form (`DW_FORM_*`, DWARF 2 to 5 and the GNU
/// extensions) encodes it, decoded only as far as the reader needs: what an
/// address, a name, a reference or a constant needs later resolved
/// (`DW_FORM_strx*` through `.debug_str_offsets`, `DW_FORM_addrx*`
/// through `.debug_addr`) is kept as the index or offset.
enum DWARFValue: Sendable, Equatable {
    /// `DW_FORM_addr`: an address.
    case address(UInt64)
    /// `DW_FORM_addrx*`, `DW_FORM_GNU_addr_index`: an index into the unit's
    /// `.debug_addr` contribution.
    case addressIndex(UInt64)
    /// `DW_FORM_data*`, `DW_FORM_udata`, `DW_FORM_sdata` (its bits),
    /// `DW_FORM_implicit_const` (its bits).
    case constant(UInt64)
    /// A string: where its bytes are.
    case string(DWARFStringLocation)
    /// `DW_FORM_ref*`, `DW_FORM_ref_addr`: an entry, by its offset from the
    /// beginning of `.debug_info`.
    case reference(UInt64)
    /// `DW_FORM_sec_offset` (and a `DW_FORM_data4`/`data8` of DWARF 2 and 3
    /// where an offset goes): an offset into another section.
    case sectionOffset(UInt64)
    /// `DW_FORM_rnglistx`: an index into the unit's range list offsets.
    case rangeListIndex(UInt64)
    /// `DW_FORM_flag`, `DW_FORM_flag_present`.
    case flag(Bool)
    /// A value the reader has no use for (blocks, expressions, `data16`,
    /// `ref_sig8`, location list indexes, supplementary-file forms).
    case other

    /// The value as an unsigned number, when it is a constant or an offset.
    var unsigned: UInt64? {
        switch self {
        case .constant(let value), .sectionOffset(let value): value
        default: nil
        }
    }
}

/// Where a string value's bytes are.
enum DWARFStringLocation: Sendable, Equatable {
    /// `DW_FORM_string`: in `.debug_info` itself, at this offset.
    case inline(UInt64)
    /// `DW_FORM_strp`: at this offset in `.debug_str`.
    case strp(UInt64)
    /// `DW_FORM_line_strp`: at this offset in `.debug_line_str`.
    case lineStrp(UInt64)
    /// `DW_FORM_strx*`, `DW_FORM_GNU_str_index`: the unit's string offset
    /// with this index, into `.debug_str`.
    case strx(UInt64)
}

/// What the size of a form's value depends on: the DWARF version, 32- or
/// 64-bit DWARF, the address size; and the offset a unit-relative
/// reference is from (of its unit, in bytes from the beginning of
/// `.debug_info`).
struct DWARFEncoding: Sendable {
    let version: UInt16
    let is64Bit: Bool
    let addressSize: UInt8
    let unitOffset: UInt64

    /// The size of an offset into another section, 4 or 8 bytes.
    var offsetSize: Int { is64Bit ? 8 : 4 }
}

/// The attribute forms (`DW_FORM_*`) and how each is read.
enum DWARFForm {
    static let implicitConst: UInt64 = 0x21
    static let indirect: UInt64 = 0x16

    /// Reads the value of `form` at `cursor` in a unit with `unit`'s encoding and
    /// moves past it. `implicitConstant` is the abbreviation's value for
    /// `DW_FORM_implicit_const`. A `DW_FORM_indirect` is followed once: an
    /// indirect form that names another indirect form is an error.
    ///
    /// - Throws: ``DWARFError/Problem/unknownForm(_:)`` for a form this
    ///   reader does not know, ``DWARFError/Problem/truncated(needed:available:)``
    ///   when the value runs past the unit's end.
    static func read(
        _ form: UInt64, implicitConstant: Int64, at cursor: inout DWARFCursor, unit: DWARFEncoding, nested: Bool = false
    ) throws(DWARFError) -> DWARFValue {
        let is64Bit = unit.is64Bit
        let offset = unit.unitOffset
        switch form {
        case 0x01: return .address(try cursor.unsigned(size: Int(unit.addressSize)))
        case 0x03: try cursor.skip(UInt64(try cursor.u16()))  // block2
        case 0x04: try cursor.skip(UInt64(try cursor.u32()))  // block4
        case 0x05: return .constant(UInt64(try cursor.u16()))  // data2
        case 0x06: return unit.version < 4 ? .sectionOffset(UInt64(try cursor.u32())) : .constant(UInt64(try cursor.u32()))
        case 0x07: return unit.version < 4 ? .sectionOffset(try cursor.u64()) : .constant(try cursor.u64())
        case 0x08:  // string
            let offset = UInt64(cursor.offset)
            try cursor.skipCString()
            return .string(.inline(offset))
        case 0x09, 0x18: try cursor.skip(try cursor.uleb())  // block, exprloc
        case 0x0a: try cursor.skip(UInt64(try cursor.u8()))  // block1
        case 0x0b: return .constant(UInt64(try cursor.u8()))  // data1
        case 0x0c: return .flag(try cursor.u8() != 0)
        case 0x0d: return .constant(UInt64(bitPattern: try cursor.sleb()))  // sdata
        case 0x0e: return .string(.strp(try cursor.sectionOffset(is64Bit: is64Bit)))
        case 0x0f: return .constant(try cursor.uleb())  // udata
        case 0x10:  // ref_addr: an address's size in DWARF 2, an offset's after
            return .reference(try cursor.unsigned(size: unit.version == 2 ? Int(unit.addressSize) : unit.offsetSize))
        case 0x11: return .reference(offset &+ UInt64(try cursor.u8()))
        case 0x12: return .reference(offset &+ UInt64(try cursor.u16()))
        case 0x13: return .reference(offset &+ UInt64(try cursor.u32()))
        case 0x14: return .reference(offset &+ (try cursor.u64()))
        case 0x15: return .reference(offset &+ (try cursor.uleb()))
        case indirect:
            let start = cursor.offset
            let actual = try cursor.uleb()
            guard !nested, actual != DWARFForm.indirect else { throw cursor.error(.unknownForm(actual), at: start) }
            return try read(actual, implicitConstant: implicitConstant, at: &cursor, unit: unit, nested: true)
        case 0x17: return .sectionOffset(try cursor.sectionOffset(is64Bit: is64Bit))
        case 0x19: return .flag(true)  // flag_present
        case 0x1a, 0x1f02: return .string(.strx(try cursor.uleb()))  // strx, GNU_str_index
        case 0x1b, 0x1f01: return .addressIndex(try cursor.uleb())  // addrx, GNU_addr_index
        case 0x1c: try cursor.skip(4)  // ref_sup4
        case 0x1d, 0x1f20, 0x1f21: _ = try cursor.sectionOffset(is64Bit: is64Bit)  // strp_sup, GNU_ref_alt, GNU_strp_alt
        case 0x1e: try cursor.skip(16)  // data16
        case 0x1f: return .string(.lineStrp(try cursor.sectionOffset(is64Bit: is64Bit)))
        case 0x20, 0x24: try cursor.skip(8)  // ref_sig8, ref_sup8
        case implicitConst: return .constant(UInt64(bitPattern: implicitConstant))
        case 0x22: _ = try cursor.uleb()  // loclistx
        case 0x23: return .rangeListIndex(try cursor.uleb())
        case 0x25...0x28: return .string(.strx(try cursor.unsigned(size: Int(form - 0x24))))  // strx1-4
        case 0x29...0x2c: return .addressIndex(try cursor.unsigned(size: Int(form - 0x28)))  // addrx1-4
        default: throw cursor.error(.unknownForm(form))
        }
        return .other
    }
}
