#if canImport(CLibELF)  // read through libelf: not in a build without it (Package.swift)
import CLibELF
import LinkCheckImage
import SystemInterface

/// The imports and exports of one symbol table.
struct SymbolTableContents {
    var kind: SymbolTableKind
    var imports: [Symbol] = []
    var exports: [Symbol] = []

    /// Whether the entry's binding is global, weak or `STB_GNU_UNIQUE`.
    static func isGlobal(_ raw: GElf_Sym) -> Bool {
        let binding = raw.binding
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
        guard !name.isEmpty, isImport || raw.isVisibleToOthers,
            selection.keeps(name)
        else { return }
        let version = version()
        let symbol = Symbol(
            name: String(decoding: name, as: UTF8.self), version: version?.name, isVersionHidden: version?.hidden ?? false,
            binding: raw.binding, type: raw.type,
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
    func symbolTable(sections: [Section], selection: SymbolSelection, warnings: inout ReadWarnings) -> SymbolTableContents {
        let table =
            sections.first { $0.type == UInt32(SHT_DYNSYM) }
            ?? sections.first { $0.type == UInt32(SHT_SYMTAB) }
        guard let table, table.data != nil else { return SymbolTableContents(kind: .none) }
        let isDynamic = table.type == UInt32(SHT_DYNSYM)
        var contents = SymbolTableContents(kind: isDynamic ? .dynsym : .symtab)
        let versions = isDynamic ? SymbolVersions(file: self, sections: sections, warnings: &warnings) : nil
        var names = SymbolNames(file: self, table: table, selection: selection)
        forEachSymbol(in: table) { index, raw in
            guard SymbolTableContents.isGlobal(raw), let name = names.mayBeKept(raw) else { return }
            contents.add(raw, name: name, selection: selection) { versions?.version(ofSymbolAt: index) }
        }
        if names.outOfRange > 0 {
            warnings.add("\(table.name): \(names.outOfRange) symbol name offsets out of range of section \(names.section)")
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
    func localFunctions(sections: [Section], selection: SymbolSelection, warnings: inout ReadWarnings) -> [Symbol] {
        guard let table = sections.first(where: { $0.type == UInt32(SHT_SYMTAB) }), table.data != nil else { return [] }
        var names = SymbolNames(file: self, table: table, selection: selection)
        var functions: [Symbol] = []
        var seen = Set<String>()
        forEachSymbol(in: table) { _, raw in
            guard raw.isDefinedFunction, raw.binding == .local || !raw.isVisibleToOthers,
                let bytes = names.mayBeKept(raw), !bytes.isEmpty, selection.keeps(bytes)
            else { return }
            let text = String(decoding: bytes, as: UTF8.self)
            guard seen.insert(text).inserted else { return }
            functions.append(Symbol(name: text, binding: raw.binding, type: raw.type, value: raw.st_value, size: raw.st_size))
        }
        if names.outOfRange > 0 {
            warnings.add("\(table.name): \(names.outOfRange) local function name offsets out of range of section \(names.section)")
        }
        return functions
    }
}

extension ELFFile {
    /// The size of one symbol-table entry (`Elf32_Sym` or `Elf64_Sym`, by
    /// the file's class: `gelf_fsize(ELF_T_SYM)`), in bytes; at least 1.
    package var symbolEntrySize: Int {
        max(gelf_fsize(elf, ELF_T_SYM, 1, UInt32(EV_CURRENT)), 1)
    }

    /// Calls `body` with the index and contents of each entry of the
    /// symbol-table section `table` (`SHT_SYMTAB`, `SHT_DYNSYM`) after
    /// entry 0 (the null symbol), in table order (`gelf_getsym`), up to
    /// the first one libelf cannot read; nothing when the section has no
    /// data.
    package func forEachSymbol(in table: Section, _ body: (_ index: Int, _ symbol: GElf_Sym) -> Void) {
        guard let data = table.data else { return }
        Self.forEachSymbol(in: data, count: data.pointee.d_size / symbolEntrySize, body)
    }

    /// Calls `body` with the index and contents of each of the first
    /// `count` entries of the symbol table in `data` after entry 0, in
    /// table order (`gelf_getsym`), up to the first one libelf cannot read.
    static func forEachSymbol(
        in data: UnsafeMutablePointer<Elf_Data>, count: Int, _ body: (_ index: Int, _ symbol: GElf_Sym) -> Void
    ) {
        var raw = GElf_Sym()
        for index in 1..<max(count, 1) {
            guard gelf_getsym(data, Int32(clamping: index), &raw) != nil else { break }
            body(index, raw)
        }
    }
}

/// The names of one symbol table's entries, looked up in its string table
/// (`sh_link`, with `elf_strptr`) only for the entries a selection may
/// keep, counting those whose name offset is out of range.
struct SymbolNames {
    let file: ELFFile
    /// The string table's section index (`sh_link`).
    let section: Int
    let selection: SymbolSelection
    /// How many entries' `st_name` was out of range of the string table.
    private(set) var outOfRange = 0

    init(file: ELFFile, table: Section, selection: SymbolSelection) {
        self.file = file
        section = Int(table.header.sh_link)
        self.selection = selection
    }

    /// The bytes (no NUL) of `raw`'s name when ``SymbolSelection/mayKeep(nameAt:)``
    /// says the selection may keep it; `nil` otherwise, or (counted in
    /// ``outOfRange``) when its offset is out of range.
    mutating func mayBeKept(_ raw: GElf_Sym) -> UnsafeBufferPointer<UInt8>? {
        guard let name = elf_strptr(file.elf, section, Int(raw.st_name)) else {
            outOfRange += 1
            return nil
        }
        let start = UnsafeRawPointer(name).assumingMemoryBound(to: UInt8.self)
        guard selection.mayKeep(nameAt: start) else { return nil }
        return UnsafeBufferPointer(start: start, count: strlen(name))
    }
}

extension GElf_Sym {
    /// `STB_*` from `st_info`'s high nibble (`GELF_ST_BIND`).
    package var binding: SymbolBinding { SymbolBinding(st_info >> 4) }

    /// `STT_*` from `st_info`'s low nibble (`GELF_ST_TYPE`).
    package var type: SymbolType { SymbolType(st_info & 0xf) }

    /// Visibility `STV_DEFAULT` or `STV_PROTECTED` (`st_other`'s low two
    /// bits): other images can bind to it, where `STV_HIDDEN` and
    /// `STV_INTERNAL` keep it to its own.
    package var isVisibleToOthers: Bool {
        let visibility = st_other & 0x3
        return visibility == UInt8(STV_DEFAULT) || visibility == UInt8(STV_PROTECTED)
    }

    /// A function the image defines: `STT_FUNC` or `STT_GNU_IFUNC`, in a
    /// section (`st_shndx` other than `SHN_UNDEF`).
    package var isDefinedFunction: Bool {
        (type == .function || type == .indirectFunction) && st_shndx != UInt16(SHN_UNDEF)
    }
}
#endif
