#if canImport(CLibELF)  // read through libelf: not in a build without it (Package.swift)
import CLibELF
import LinkCheckELF
import LinkCheckImage

/// The defined functions of an ELF image's `.dynsym` and `.symtab`, as
/// addresses and name offsets (no name a string yet), gathered for its
/// ``FunctionTable``.
///
/// A large library's `.symtab` holds hundreds of thousands of names
/// (254,599 functions in `libsourcekitdInProc.so`): the symbols are
/// gathered as addresses and name offsets, sorted, and no name becomes a
/// string (``FunctionTable``); an exported name is compared by its bytes.
/// The pages of the symbol tables and their names are given back as the
/// gathering passes them (the names mostly follow the symbols' order; one
/// passed is read again if needed).
struct ELFFunctionSymbols {
    /// The defined `STT_FUNC` and `STT_GNU_IFUNC` entries with a non-zero
    /// value and a name, `.dynsym`'s then `.symtab`'s, in table order.
    private var symbols: [Entry] = []
    /// By ``Entry/order``, for `.dynsym`'s symbols: whether it is exported
    /// (not `STB_LOCAL`, visibility `STV_DEFAULT` or `STV_PROTECTED`).
    private var exportedDynamic: [Bool] = []
    /// The string tables the names are in, by ``Entry/table``.
    private var tables: [StringTable] = []
    /// By table: its section.
    private var nameSections: [Section?] = []

    /// How many symbols are read between two page releases (about 100 KB
    /// of `Elf64_Sym`s).
    private static let symbolsBetweenReleases = 4096

    /// Gathers the functions of `.dynsym` and of `.symtab` in `sections`.
    init(file: ELFFile, sections: [Section]) {
        for table in [UInt32(SHT_DYNSYM), UInt32(SHT_SYMTAB)] {
            guard let section = sections.first(where: { $0.type == table }), section.data != nil,
                let names = file.stringTable(Int(section.header.sh_link))
            else { continue }
            tables.append(names)
            let nameSection = sections.first { $0.index == Int(section.header.sh_link) }
            nameSections.append(nameSection)
            var namesReadUpTo = 0
            file.forEachSymbol(in: section) { index, raw in
                if index % Self.symbolsBetweenReleases == 0 {
                    file.discardPages(of: section, upTo: index * file.symbolEntrySize)
                    if let nameSection { file.discardPages(of: nameSection, upTo: namesReadUpTo) }
                }
                namesReadUpTo = Int(raw.st_name)
                guard raw.isDefinedFunction, raw.st_value != 0, names.hasName(at: Int(raw.st_name)) else { return }
                let isGlobal = raw.binding != .local
                if table == UInt32(SHT_DYNSYM) { exportedDynamic.append(isGlobal && raw.isVisibleToOthers) }
                symbols.append(
                    Entry(
                        address: raw.st_value, order: Int32(clamping: symbols.count), size: raw.st_size, isGlobal: isGlobal,
                        table: UInt8(tables.count - 1), nameOffset: raw.st_name))
            }
        }
        symbols.sort { ($0.address, $0.order) < ($1.address, $1.order) }
    }

    /// The function table: one function per address, named by the last
    /// global symbol there (`.dynsym`'s, then `.symtab`'s, in table order),
    /// else the first local one; its size the largest of the global
    /// symbols taken in turn (else the first symbol's), or where that is 0
    /// the distance to the next function; exported when `.dynsym` exports a
    /// symbol of its name. The pages of the names are given back as the
    /// table reads them.
    func functionTable(file: ELFFile) -> FunctionTable {
        var entries: [FunctionTable.Entry] = []
        /// By `order`: the entry a symbol became, -1 for one not taken.
        var entryOfSymbol = [Int32](repeating: -1, count: symbols.count)
        /// The names of `.dynsym`'s exported symbols, gathered when a
        /// symbol that is not one of them is taken (a stripped library has
        /// none).
        var exported: Set<NameBytes>?
        var start = 0
        while start < symbols.count {
            var end = start
            var taken = start
            var size: UInt64 = symbols[start].size
            while end + 1 < symbols.count, symbols[end + 1].address == symbols[start].address {
                end += 1
                if symbols[end].isGlobal {
                    size = max(symbols[end].size, size)
                    taken = end
                }
            }
            let symbol = symbols[taken]
            start = end + 1
            var isExported = isExportedDynamic(symbol)
            if !isExported {
                guard let name = nameBytes(symbol) else { continue }
                if exported == nil { exported = Set(symbols.filter(isExportedDynamic).compactMap(nameBytes)) }
                isExported = exported?.contains(name) == true
            }
            entryOfSymbol[Int(symbol.order)] = Int32(entries.count)
            entries.append(
                FunctionTable.Entry(
                    address: symbol.address, size: size, isExported: isExported, nameTable: symbol.table, nameOffset: symbol.nameOffset))
        }
        for index in entries.indices where entries[index].size == 0 {
            entries[index].size = index + 1 < entries.count ? entries[index + 1].address - entries[index].address : 0
        }
        return FunctionTable(entries: entries, stringTables: tables, nameOrder: entryOfSymbol.filter { $0 >= 0 }) { table, end in
            if let section = nameSections[table] { file.discardPages(of: section, upTo: end) }
        }
    }

    /// Whether `symbol` is one of `.dynsym`'s exported symbols.
    private func isExportedDynamic(_ symbol: Entry) -> Bool {
        Int(symbol.order) < exportedDynamic.count && exportedDynamic[Int(symbol.order)]
    }

    /// `symbol`'s name, in its string table.
    private func nameBytes(_ symbol: Entry) -> NameBytes? {
        tables[Int(symbol.table)].nameBytes(at: Int(symbol.nameOffset)).map(NameBytes.init)
    }

    /// A name's bytes in a string table, equal and hashed by content.
    private struct NameBytes: Hashable {
        let bytes: UnsafeBufferPointer<UInt8>

        static func == (left: NameBytes, right: NameBytes) -> Bool {
            left.bytes.count == right.bytes.count && left.bytes.elementsEqual(right.bytes)
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
        }
    }

    /// One defined function symbol as gathered: no string yet.
    private struct Entry {
        var address: UInt64
        /// Its place among the symbols gathered (`.dynsym`'s, then `.symtab`'s).
        var order: Int32
        var size: UInt64
        var isGlobal: Bool
        /// Which of the string tables gathered holds its name.
        var table: UInt8
        var nameOffset: UInt32
    }
}
#endif
