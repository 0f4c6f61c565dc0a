import LinkCheckImage

/// One symbol table entry (`nlist` / `nlist_64`, `<mach-o/nlist.h>`).
public struct NlistSymbol: Sendable, Hashable {
    /// The name at `n_strx` in the string table (`_main`,
    /// `_OBJC_CLASS_$_UIView`); empty when `n_strx` is 0 or out of range.
    public var name: String
    /// `n_type`: `N_STAB` (0xe0), `N_PEXT` (0x10), `N_TYPE` (0x0e) and
    /// `N_EXT` (0x01) bits.
    public var type: UInt8
    /// `n_sect`: the 1-based number of the section the symbol is in, counting
    /// the sections of all segments in load-command order (0: `NO_SECT`).
    public var sectionNumber: UInt8
    /// `n_desc`: reference type, `N_WEAK_REF`, `N_WEAK_DEF`, and for
    /// undefined symbols in two-level images the library ordinal in the high
    /// byte.
    public var desc: UInt16
    /// `n_value`: a virtual address for a defined symbol (`N_SECT`), the
    /// value of an absolute one, the size of a common one.
    public var value: UInt64

    /// `n_type & N_STAB != 0`: a debugging entry.
    public var isDebugEntry: Bool { type & 0xe0 != 0 }
    /// `N_EXT`: visible outside its object file.
    public var isExternal: Bool { type & 0x01 != 0 }
    /// `N_PEXT`: private external (visible only within the linked image).
    public var isPrivateExternal: Bool { type & 0x10 != 0 }
    /// `n_type & N_TYPE`, for entries that are not debugging entries.
    public var kind: NlistKind {
        guard !isDebugEntry else { return .debug }
        switch type & 0x0e {
        case 0x0: return value != 0 && isExternal ? .common : .undefined
        case 0x2: return .absolute
        case 0xe: return .section
        case 0xc: return .prebound
        case 0xa: return .indirect
        default: return .other
        }
    }
    /// An undefined external symbol (`N_UNDF | N_EXT`, not common): an import.
    public var isUndefinedExternal: Bool { kind == .undefined && isExternal }
    /// `GET_LIBRARY_ORDINAL(n_desc)`: `(n_desc >> 8) & 0xff`, meaningful for
    /// undefined symbols in `MH_TWOLEVEL` images.
    public var libraryOrdinal: UInt8 { UInt8(truncatingIfNeeded: desc >> 8) }
    /// `N_WEAK_REF` (0x40): a weak import.
    public var isWeakReference: Bool { desc & 0x40 != 0 }
    /// `N_WEAK_DEF` (0x80): a weak definition.
    public var isWeakDefinition: Bool { desc & 0x80 != 0 }
}

/// What an `nlist` entry is, from `n_type & N_TYPE`.
public enum NlistKind: Sendable, Hashable {
    /// `N_UNDF` with `n_value` 0.
    case undefined
    /// `N_UNDF | N_EXT` with a non-zero `n_value` (the size): a common symbol.
    case common
    /// `N_ABS`.
    case absolute
    /// `N_SECT`: defined in section `n_sect`.
    case section
    /// `N_PBUD`.
    case prebound
    /// `N_INDR`: an alias for the symbol named at `n_value`.
    case indirect
    /// `N_STAB` set: a debugging entry.
    case debug
    case other
}

/// `LC_DYSYMTAB` (`dysymtab_command`): how the symbol table is grouped, and
/// the indirect symbol table.
public struct DynamicSymbolTable: Sendable, Hashable {
    /// `ilocalsym`/`nlocalsym`, `iextdefsym`/`nextdefsym`,
    /// `iundefsym`/`nundefsym`: index ranges into the symbol table.
    public var localSymbols: Range<Int>
    public var externalSymbols: Range<Int>
    public var undefinedSymbols: Range<Int>
    /// The indirect symbol table (`indirectsymoff`, `nindirectsyms`): for
    /// each stub and symbol-pointer slot, an index into the symbol table, or
    /// `INDIRECT_SYMBOL_LOCAL` (0x80000000) / `INDIRECT_SYMBOL_ABS`
    /// (0x40000000) flags.
    public var indirectSymbols: [UInt32]
    /// `extreloff`/`nextrel`, `locreloff`/`nlocrel`: external and local
    /// relocation entries (old images and `MH_OBJECT` files).
    public var externalRelocationsOffset: UInt32
    public var externalRelocationCount: UInt32
    public var localRelocationsOffset: UInt32
    public var localRelocationCount: UInt32

    static let indirectSymbolLocal: UInt32 = 0x8000_0000
    static let indirectSymbolAbsolute: UInt32 = 0x4000_0000
}

extension NlistSymbol {
    /// Reads the `LC_SYMTAB` command's symbols and names. Entries or names
    /// past the end of the image are dropped with a warning.
    static func readAll(
        _ command: LoadCommand, in image: ByteReader, is64Bit: Bool, warnings: inout ReadWarnings
    ) -> [NlistSymbol] {
        guard let record = try? command.bytes(in: image).record("symtab_command", at: 0, size: 24) else {
            warnings.add("LC_SYMTAB", at: image.fileOffset + command.offset, "shorter than symtab_command; skipped")
            return []
        }
        let (symbolsOffset, count, stringsOffset, stringsSize) = (record.u32(8), record.u32(12), record.u32(16), record.u32(20))
        let entrySize = is64Bit ? 16 : 12
        var fitting = Int(count)
        if !image.contains(offset: UInt64(symbolsOffset), size: UInt64(count) * UInt64(entrySize)) {
            fitting = Int(symbolsOffset) < image.count ? (image.count - Int(symbolsOffset)) / entrySize : 0
            warnings.add(
                "LC_SYMTAB", at: image.fileOffset + command.offset,
                "the symbol table (\(count) entries at \(hex(symbolsOffset))) runs past the end of the image; \(fitting) read")
        }
        var stringSize = UInt64(stringsSize)
        if !image.contains(offset: UInt64(stringsOffset), size: stringSize) {
            stringSize = UInt64(stringsOffset) < UInt64(image.count) ? UInt64(image.count) - UInt64(stringsOffset) : 0
            warnings.add(
                "LC_SYMTAB", at: image.fileOffset + command.offset,
                "the string table (\(stringsSize) bytes at \(hex(stringsOffset))) runs past the end of the image; \(stringSize) bytes read")
        }
        guard let entries = image.window(offset: Int(symbolsOffset), size: fitting * entrySize) else { return [] }
        var strings = StringTable(
            image.window(offset: UInt64(stringsOffset), size: stringSize) ?? .empty, expectedStrings: fitting)
        var symbols: [NlistSymbol] = []
        symbols.reserveCapacity(fitting)
        var unnamed = 0
        for index in 0..<fitting {
            let base = index * entrySize
            guard let nameOffset = entries.u32(at: base), let type = entries.u8(at: base + 4),
                let section = entries.u8(at: base + 5), let desc = entries.u16(at: base + 6),
                let value = is64Bit ? entries.u64(at: base + 8) : entries.u32(at: base + 8).map(UInt64.init)
            else { break }
            var name = ""
            if nameOffset != 0 {
                if let text = strings.string(at: nameOffset) { name = text } else { unnamed += 1 }
            }
            symbols.append(NlistSymbol(name: name, type: type, sectionNumber: section, desc: desc, value: value))
        }
        if unnamed > 0 {
            warnings.add(
                "LC_SYMTAB", at: image.fileOffset + command.offset,
                "\(unnamed) symbol names are outside the string table or not NUL-terminated\(strings.exhausted ? " (or past the limit on name bytes)" : ""); read as empty"
            )
        }
        return symbols
    }
}

extension DynamicSymbolTable {
    /// Reads `LC_DYSYMTAB` and its indirect symbol table (entries past the
    /// end of the image are dropped with a warning).
    static func read(_ command: LoadCommand, in image: ByteReader, warnings: inout ReadWarnings) -> DynamicSymbolTable? {
        guard let record = try? command.bytes(in: image).record("dysymtab_command", at: 0, size: 80) else {
            warnings.add("LC_DYSYMTAB", at: image.fileOffset + command.offset, "shorter than dysymtab_command; skipped")
            return nil
        }
        func range(_ start: Int, _ count: Int) -> Range<Int> {
            let low = Int(record.u32(start))
            return low..<(low + Int(record.u32(count)))
        }
        let (offset, count) = (record.u32(56), record.u32(60))
        var fitting = Int(count)
        if !image.contains(offset: UInt64(offset), size: UInt64(count) * 4) {
            fitting = Int(offset) < image.count ? (image.count - Int(offset)) / 4 : 0
            warnings.add(
                "LC_DYSYMTAB", at: image.fileOffset + command.offset,
                "the indirect symbol table (\(count) entries at \(hex(offset))) runs past the end of the image; \(fitting) read")
        }
        var indirect: [UInt32] = []
        indirect.reserveCapacity(fitting)
        for index in 0..<fitting {
            guard let entry = image.u32(at: Int(offset) + index * 4) else { break }
            indirect.append(entry)
        }
        return DynamicSymbolTable(
            localSymbols: range(8, 12), externalSymbols: range(16, 20), undefinedSymbols: range(24, 28),
            indirectSymbols: indirect, externalRelocationsOffset: record.u32(64), externalRelocationCount: record.u32(68),
            localRelocationsOffset: record.u32(72), localRelocationCount: record.u32(76))
    }
}
