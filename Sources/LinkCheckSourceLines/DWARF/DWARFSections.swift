/// The DWARF sections of one object file (an ELF image, a dSYM's
/// `MH_DSYM` file, an `MH_OBJECT` of a debug map), by their DWARF names,
/// as borrowed bytes: the input of ``DWARFSourceLookup``. The bytes belong
/// to whoever made the value, for one call: a dSYM's mapping during its
/// guarded read (``MappedSections/read(_:)``), so that the lookup makes
/// resident only the pages it reads, or arrays already in memory
/// (``withOwned(_:littleEndian:_:)``). Addresses in them are the
/// object file's own (virtual addresses of an image, section-relative
/// addresses of an object file); offsets between them are offsets in bytes
/// from the beginning of the named section.
public struct DWARFSections {
    /// A DWARF section, named without its format's prefix (`.debug_info`
    /// in ELF, `__debug_info` in a Mach-O `__DWARF` segment).
    public enum Name: String, CaseIterable, Sendable {
        /// The units and their entries (`DW_TAG_*`, `DW_AT_*`).
        case info = "debug_info"
        /// The abbreviation tables the entries are encoded by.
        case abbrev = "debug_abbrev"
        /// The line-number programs.
        case line = "debug_line"
        /// The strings of `DW_FORM_strp` (and of `DW_FORM_strx*` through
        /// ``strOffsets``).
        case str = "debug_str"
        /// The strings of `DW_FORM_line_strp` (DWARF 5).
        case lineStr = "debug_line_str"
        /// The string offsets of `DW_FORM_strx*` (DWARF 5).
        case strOffsets = "debug_str_offsets"
        /// The addresses of `DW_FORM_addrx*` (DWARF 5).
        case addr = "debug_addr"
        /// The range lists of DWARF 2 to 4.
        case ranges = "debug_ranges"
        /// The range lists of DWARF 5.
        case rnglists = "debug_rnglists"

        /// The DWARF section an object file's section name stands for: an
        /// ELF name (`.debug_info`) or a Mach-O one (`__debug_info`, and
        /// `__debug_str_offs`, `__debug_str_offsets` cut to Mach-O's 16
        /// characters); `nil` for any other section.
        public static func section(named name: String) -> Name? {
            if name.hasPrefix("__") {
                let dwarfName = String(name.dropFirst(2))
                return dwarfName == "debug_str_offs" ? .strOffsets : Name(rawValue: dwarfName)
            }
            return name.hasPrefix(".") ? Name(rawValue: String(name.dropFirst())) : nil
        }
    }

    /// Each section's bytes; a section the file does not have has no key.
    public var bytes: [Name: UnsafeRawBufferPointer]
    /// Whether the sections' multi-byte values are little-endian (both
    /// `ELFDATA2LSB` ELF files and arm64/x86_64 Mach-O files are).
    public var littleEndian: Bool

    /// The sections over `bytes`, which must outlive every use of the
    /// value.
    public init(bytes: [Name: UnsafeRawBufferPointer], littleEndian: Bool) {
        (self.bytes, self.littleEndian) = (bytes, littleEndian)
    }

    /// Calls `body` with the sections over `owned` (bytes in memory
    /// already: an object file of a debug map, relocated), borrowed for the
    /// call.
    ///
    /// - Throws: what `body` throws.
    public static func withOwned<Value, Failure: Error>(
        _ owned: [Name: [UInt8]], littleEndian: Bool, _ body: (DWARFSections) throws(Failure) -> Value
    ) throws(Failure) -> Value {
        var borrowed: [Name: UnsafeRawBufferPointer] = [:]
        func borrowing(_ rest: ArraySlice<(key: Name, value: [UInt8])>) -> Result<Value, Failure> {
            guard let (name, bytes) = rest.first else {
                return Result { () throws(Failure) in try body(DWARFSections(bytes: borrowed, littleEndian: littleEndian)) }
            }
            return bytes.withUnsafeBytes { raw in
                borrowed[name] = raw
                return borrowing(rest.dropFirst())
            }
        }
        return try borrowing(ArraySlice(owned)).get()
    }

    /// The DWARF sections among `sections`, which are by the object file's
    /// own section names (`__debug_info` as ``LinkCheckMachO/DWARFSegment``
    /// and ``LinkCheckMachO/ObjectDWARF`` give them, or `.debug_info`), by
    /// their DWARF names; sections that are not DWARF's
    /// (``Name/section(named:)``) are left out.
    package static func byName<Bytes>(_ sections: [String: Bytes]) -> [Name: Bytes] {
        var byName: [Name: Bytes] = [:]
        for (name, bytes) in sections {
            if let section = Name.section(named: name) { byName[section] = bytes }
        }
        return byName
    }
}
