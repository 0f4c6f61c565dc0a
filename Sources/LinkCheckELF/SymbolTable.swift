import CLibELF
import LinkCheckImage

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

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

    /// Files a global entry whose name is `name` (raw bytes, no NUL) when
    /// `selection` keeps it: undefined (`SHN_UNDEF`) → import; defined with
    /// default or protected visibility → export; anything else, or a name
    /// the selection passes over, is dropped before its name and `version`
    /// are made.
    mutating func add(
        _ raw: GElf_Sym, name: UnsafeBufferPointer<UInt8>, selection: SymbolSelection, version: () -> (name: String, hidden: Bool)?
    ) {
        let isImport = raw.st_shndx == UInt16(SHN_UNDEF)
        let visibility = raw.st_other & 0x3
        guard !name.isEmpty,
              isImport || visibility == UInt8(STV_DEFAULT) || visibility == UInt8(STV_PROTECTED),
              selection.keeps(name)
        else { return }
        let version = version()
        let symbol = Symbol(
            name: String(decoding: name, as: UTF8.self), version: version?.name, isVersionHidden: version?.hidden ?? false,
            binding: SymbolBinding(raw.st_info >> 4), type: SymbolType(raw.st_info & 0xf),
            value: raw.st_value, size: raw.st_size)
        if isImport { imports.append(symbol) } else { exports.append(symbol) }
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
    /// Only the symbols `selection` keeps are made into values.
    func symbolTable(sections: [Section], selection: SymbolSelection, warnings: inout [String]) -> SymbolTableContents {
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
            guard let name = elf_strptr(elf, strings, Int(raw.st_name)) else {
                badNames += 1
                continue
            }
            let start = UnsafeRawPointer(name).assumingMemoryBound(to: UInt8.self)
            guard selection.mayKeep(nameAt: start) else { continue }
            let bytes = UnsafeBufferPointer(start: start, count: strlen(name))
            contents.add(raw, name: bytes, selection: selection) { versions?.version(ofSymbolAt: index) }
        }
        if badNames > 0 {
            warnings.append("\(table.name): \(badNames) symbol name offsets out of range of section \(strings)")
        }
        return contents
    }

    /// The functions the image defines for its own use
    /// (``BinaryImage/definitions``), from `.symtab` (`SHT_SYMTAB`): defined
    /// (`st_shndx` other than `SHN_UNDEF`) `STT_FUNC` or `STT_GNU_IFUNC`
    /// entries with binding `STB_LOCAL`, or with visibility `STV_HIDDEN` or
    /// `STV_INTERNAL`; each name once, in table order, only those
    /// `selection` keeps. The type and binding are tested before the name
    /// is looked up, so a large table costs little more than one pass.
    /// Names whose string offset is out of range are skipped and reported in
    /// `warnings`. Empty without `.symtab`.
    func localFunctions(sections: [Section], selection: SymbolSelection, warnings: inout [String]) -> [Symbol] {
        guard let table = sections.first(where: { $0.type == UInt32(SHT_SYMTAB) }), let data = table.data else { return [] }
        let count = data.pointee.d_size / max(gelf_fsize(elf, ELF_T_SYM, 1, UInt32(EV_CURRENT)), 1)
        let strings = Int(table.header.sh_link)
        var functions: [Symbol] = []
        var seen = Set<String>()
        var badNames = 0
        var raw = GElf_Sym()
        for index in 1..<max(count, 1) {
            guard gelf_getsym(data, Int32(clamping: index), &raw) != nil else { break }
            let type = SymbolType(raw.st_info & 0xf)
            let visibility = raw.st_other & 0x3
            guard type == .function || type == .indirectFunction, raw.st_shndx != UInt16(SHN_UNDEF),
                  SymbolBinding(raw.st_info >> 4) == .local || visibility == UInt8(STV_HIDDEN) || visibility == UInt8(STV_INTERNAL)
            else { continue }
            guard let name = elf_strptr(elf, strings, Int(raw.st_name)) else {
                badNames += 1
                continue
            }
            let start = UnsafeRawPointer(name).assumingMemoryBound(to: UInt8.self)
            guard selection.mayKeep(nameAt: start) else { continue }
            let bytes = UnsafeBufferPointer(start: start, count: strlen(name))
            guard !bytes.isEmpty, selection.keeps(bytes) else { continue }
            let text = String(decoding: bytes, as: UTF8.self)
            guard seen.insert(text).inserted else { continue }
            functions.append(Symbol(
                name: text, binding: SymbolBinding(raw.st_info >> 4), type: type, value: raw.st_value, size: raw.st_size))
        }
        if badNames > 0 {
            warnings.append("\(table.name): \(badNames) local function name offsets out of range of section \(strings)")
        }
        return functions
    }
}
