/// Why DWARF sections could not be read: the section and the offset in it
/// (in bytes from the section's beginning) of the structure that is
/// damaged, and what is wrong with it.
public struct DWARFError: Error, Sendable, Equatable {
    /// The section the damaged structure is in.
    public var section: DWARFSections.Name
    /// The structure's offset, in bytes from the beginning of ``section``.
    public var offset: UInt64
    /// What is wrong.
    public var problem: Problem

    public init(section: DWARFSections.Name, offset: UInt64, problem: Problem) {
        (self.section, self.offset, self.problem) = (section, offset, problem)
    }

    /// What is wrong with a structure of a DWARF section.
    public enum Problem: Sendable, Equatable {
        /// A value of `needed` bytes runs past the end of the section
        /// (`available` bytes long) or of its unit.
        case truncated(needed: UInt64, available: UInt64)
        /// A unit's length (its initial length field) runs past the end of
        /// the section, `sectionSize` bytes long.
        case unitLengthPastEnd(length: UInt64, sectionSize: UInt64)
        /// An initial length in DWARF's reserved range
        /// (`0xfffffff0`–`0xfffffffe`).
        case reservedUnitLength(UInt64)
        /// A unit or line table version this reader does not know (it reads
        /// 2 to 5).
        case unsupportedVersion(UInt16)
        /// An address size other than 4 or 8 bytes.
        case unsupportedAddressSize(UInt8)
        /// A `DW_FORM_*` code this reader does not know, or a
        /// `DW_FORM_indirect` that names another indirect form.
        case unknownForm(UInt64)
        /// An entry whose abbreviation code its unit's table does not have.
        case unknownAbbreviation(UInt64)
        /// A range list entry kind (`DW_RLE_*`) that does not exist.
        case unknownRangeListEntry(UInt8)
        /// An offset or index into `target` that is outside it (`size`
        /// bytes; 0 when the file has no such section).
        case outOfRange(target: DWARFSections.Name, offset: UInt64, size: UInt64)
        /// A line table whose `line_range` is 0, so that special opcodes
        /// cannot be decoded.
        case zeroLineRange
        /// A string without its terminating NUL before the section's end.
        case unterminatedString
        /// An unsigned LEB128 number longer than 64 bits.
        case oversizedNumber
    }
}

extension DWARFError: CustomStringConvertible {
    /// The section and offset, then what is wrong: "debug_line at 0x1a0:
    /// unit length 0x7fff0000 runs past the section's end (0x2000 bytes)".
    public var description: String {
        "\(section.rawValue) at \(hex(offset)): " + problemDescription
    }

    private var problemDescription: String {
        switch problem {
        case .truncated(let needed, let available):
            "\(needed) bytes needed, \(available) available"
        case .unitLengthPastEnd(let length, let sectionSize):
            "unit length \(hex(length)) runs past the section's end (\(hex(sectionSize)) bytes)"
        case .reservedUnitLength(let length): "reserved unit length \(hex(length))"
        case .unsupportedVersion(let version): "unsupported DWARF version \(version)"
        case .unsupportedAddressSize(let size): "unsupported address size \(size)"
        case .unknownForm(let form): "unknown attribute form \(hex(form))"
        case .unknownAbbreviation(let code): "abbreviation code \(code) is not in the unit's table"
        case .unknownRangeListEntry(let kind): "unknown range list entry kind \(hex(UInt64(kind)))"
        case .outOfRange(let target, let offset, let size):
            "offset \(hex(offset)) is outside \(target.rawValue) (\(hex(size)) bytes)"
        case .zeroLineRange: "line_range is 0"
        case .unterminatedString: "string runs past the section's end"
        case .oversizedNumber: "LEB128 number longer than 64 bits"
        }
    }

    private func hex(_ value: UInt64) -> String { "0x" + String(value, radix: 16) }
}
