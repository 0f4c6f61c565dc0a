import CLibELF

/// The imports and exports of one symbol table.
struct SymbolTableContents {
    var kind: SymbolTableKind
    var imports: [Symbol] = []
    var exports: [Symbol] = []

    /// Whether the entry's binding is global, weak or `STB_GNU_UNIQUE`.
    static func isGlobal(_ raw: GElf_Sym) -> Bool {
        let binding = SymbolBinding(raw.st_info >> 4)
        return binding == .global || binding == .weak || binding == .unique
    }

    /// Files a global entry: undefined (`SHN_UNDEF`) → import; defined with
    /// default or protected visibility → export; anything else is dropped.
    mutating func add(_ raw: GElf_Sym, name: String, version: (name: String, hidden: Bool)?) {
        guard !name.isEmpty else { return }
        let symbol = Symbol(
            name: name, version: version?.name, isVersionHidden: version?.hidden ?? false,
            binding: SymbolBinding(raw.st_info >> 4), type: SymbolType(raw.st_info & 0xf),
            value: raw.st_value, size: raw.st_size)
        if raw.st_shndx == UInt16(SHN_UNDEF) {
            imports.append(symbol)
        } else {
            let visibility = raw.st_other & 0x3
            if visibility == UInt8(STV_DEFAULT) || visibility == UInt8(STV_PROTECTED) {
                exports.append(symbol)
            }
        }
    }
}

extension ELFFile {
    /// Reads imports and exports from `.dynsym` (`SHT_DYNSYM`), or from
    /// `.symtab` (`SHT_SYMTAB`) when there is no `.dynsym` (ELF spec,
    /// "Symbol Table"), with `gelf_getsym`.
    ///
    /// - Imports: `st_shndx == SHN_UNDEF`, non-empty name, binding global or
    ///   weak (entry 0, the null symbol, is skipped).
    /// - Exports: defined (any section index other than `SHN_UNDEF`,
    ///   including `SHN_ABS` and `SHN_COMMON`), binding global, weak or
    ///   `STB_GNU_UNIQUE`, visibility `STV_DEFAULT` or `STV_PROTECTED`.
    ///
    /// Versions come from ``SymbolVersions`` (`.dynsym` only). Names whose
    /// string offset is out of range are skipped and reported in `warnings`.
    func symbolTable(sections: [Section], warnings: inout [String]) -> SymbolTableContents {
        let table = sections.first { $0.type == UInt32(SHT_DYNSYM) }
            ?? sections.first { $0.type == UInt32(SHT_SYMTAB) }
        guard let table, let data = table.data else { return SymbolTableContents(kind: .none) }
        let isDynamic = table.type == UInt32(SHT_DYNSYM)
        var contents = SymbolTableContents(kind: isDynamic ? .dynsym : .symtab)
        let versions = isDynamic ? SymbolVersions(file: self, sections: sections, warnings: &warnings) : nil
        let entrySize = max(gelf_fsize(elf, ELF_T_SYM, 1, UInt32(EV_CURRENT)), 1)
        let count = data.pointee.d_size / entrySize
        let strings = Int(table.header.sh_link)
        var badNames = 0

        var raw = GElf_Sym()
        for index in 1..<max(count, 1) {
            guard gelf_getsym(data, Int32(clamping: index), &raw) != nil else { break }
            guard SymbolTableContents.isGlobal(raw) else { continue }
            guard let name = string(inSection: strings, at: Int(raw.st_name)) else {
                badNames += 1
                continue
            }
            contents.add(raw, name: name, version: versions?.version(ofSymbolAt: index))
        }
        if badNames > 0 {
            warnings.append("\(table.name): \(badNames) symbol name offsets out of range of section \(strings)")
        }
        return contents
    }
}
