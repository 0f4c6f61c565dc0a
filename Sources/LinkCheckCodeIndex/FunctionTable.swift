import LinkCheckELF
import LinkCheckImage

/// An image's functions as call-site analysis reads them, sorted by
/// address, one per address: each one's address, size and whether it is
/// exported, and its name, made into a string only when asked for.
///
/// A large library's `.symtab` names hundreds of thousands of functions
/// (254,599 in the toolchain's `libsourcekitdInProc.so`, with 28 MB of
/// names) of which a check names a few: the names stay in the ELF string
/// tables (valid while the file is open) until a ``CodeIndex`` keeps those
/// it refers to.
struct FunctionTable {
    /// One function, its name not yet a string.
    struct Entry {
        /// `st_value` or `n_value`: the function's virtual address.
        var address: UInt64
        /// In bytes, as ``FunctionSymbol/size``.
        var size: UInt64
        /// As ``FunctionSymbol/isExported``.
        var isExported: Bool
        /// Which of the table's name sources holds its name: for ELF the
        /// index of a string table, for Mach-O 0.
        var nameTable: UInt8
        /// Where its name is in that source: for ELF the offset in the
        /// string table (`st_name`), for Mach-O the index among the names.
        var nameOffset: UInt32
    }

    /// Sorted by address, one per address.
    let entries: [Entry]
    private let names: Names
    /// Gives back the pages of the ELF string tables.
    private let giveBackNames: () -> Void

    private enum Names {
        /// ELF: string tables in libelf's buffers, valid while the file is
        /// open.
        case stringTables([StringTable])
        /// Mach-O: the names the reader made.
        case strings([String])
    }

    /// ELF functions whose names are in `tables` (``Entry/nameTable`` is an
    /// index into it; every entry's ``Entry/nameOffset`` must start a name
    /// there, ``StringTable/hasName(at:)``), with what gives back the
    /// tables' pages (``ELFFile/discardPages(of:)``). The table is valid
    /// while the string tables' file is open.
    init(entries: [Entry], stringTables tables: [StringTable], giveBackNames: @escaping () -> Void) {
        self.entries = entries
        names = .stringTables(tables)
        self.giveBackNames = giveBackNames
    }

    /// Functions that are strings already (Mach-O's), sorted by address,
    /// one per address.
    init(_ symbols: [FunctionSymbol]) {
        entries = symbols.enumerated().map { index, symbol in
            Entry(address: symbol.address, size: symbol.size, isExported: symbol.isExported, nameTable: 0,
                  nameOffset: UInt32(truncatingIfNeeded: index))
        }
        names = .strings(symbols.map(\.name))
        giveBackNames = {}
    }

    var count: Int { entries.count }

    var indices: Range<Int> { entries.indices }

    subscript(index: Int) -> Entry { entries[index] }

    /// Calls `body` with the UTF-8 bytes of the raw name of function
    /// `index` (no NUL), valid only during the call.
    func withName<Result>(of index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        let entry = entries[index]
        switch names {
        case .stringTables(let tables):
            return body(tables[Int(entry.nameTable)].nameBytes(at: Int(entry.nameOffset)) ?? UnsafeBufferPointer(start: nil, count: 0))
        case .strings(let strings):
            var name = strings[Int(entry.nameOffset)]
            return name.withUTF8(body)
        }
    }

    /// Whether `predicate` holds for each function's raw name (UTF-8
    /// bytes), by index. Every name is read, and then the ELF string tables'
    /// pages are given back: tens of MB in a large library, of which later
    /// questions read a few names again from the file.
    func flags(whereName predicate: (UnsafeBufferPointer<UInt8>) -> Bool) -> [Bool] {
        let flags = indices.map { withName(of: $0, predicate) }
        giveBackNames()
        return flags
    }

    /// The raw name of function `index`; ill-formed UTF-8 is repaired, as
    /// `String(cString:)` does.
    func name(of index: Int) -> String {
        withName(of: index) { String(decoding: $0, as: UTF8.self) }
    }

    /// Function `index` with its name.
    func symbol(_ index: Int) -> FunctionSymbol {
        let entry = entries[index]
        return FunctionSymbol(name: name(of: index), address: entry.address, size: entry.size, isExported: entry.isExported)
    }

    /// Every function with its name, in address order.
    var symbols: [FunctionSymbol] { indices.map(symbol) }

    /// The index of the function that starts at `address`, by binary search
    /// (no table of every function is kept).
    func function(startingAt address: UInt64) -> Int? {
        guard let index = entries.lastIndex(atOrBefore: address, address: \.address), entries[index].address == address
        else { return nil }
        return index
    }

    /// Whether other images or the Objective-C runtime call function
    /// `index` (``CodeIndex/isEntryPoint(isExported:name:)``).
    func isEntryPoint(_ index: Int) -> Bool {
        withName(of: index) { CodeIndex.isEntryPoint(isExported: entries[index].isExported, name: $0) }
    }
}
