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
    /// The entries in the order of their names in the string tables (as the
    /// symbol tables list them, which is about the names' order).
    private let nameOrder: [Int32]
    /// Gives back the pages of string table `table` before byte `end`
    /// (`Int.max`: all of them).
    private let giveBackNames: (_ table: Int, _ end: Int) -> Void

    private enum Names {
        /// ELF: string tables in libelf's buffers, valid while the file is
        /// open.
        case stringTables([StringTable])
        /// Mach-O: the names the reader made.
        case strings([String])
    }

    /// ELF functions whose names are in `tables` (``Entry/nameTable`` is an
    /// index into it; every entry's ``Entry/nameOffset`` must start a name
    /// there, ``StringTable/hasName(at:)``), listed in `nameOrder` as the
    /// symbol tables list them, with what gives back a table's pages before
    /// a byte (``ELFFile/discardPages(of:upTo:)``). The table is valid while
    /// the string tables' file is open.
    init(
        entries: [Entry], stringTables tables: [StringTable], nameOrder: [Int32],
        giveBackNames: @escaping (_ table: Int, _ end: Int) -> Void
    ) {
        self.entries = entries
        names = .stringTables(tables)
        self.nameOrder = nameOrder
        self.giveBackNames = giveBackNames
    }

    /// Functions that are strings already (Mach-O's), sorted by address,
    /// one per address.
    init(_ symbols: [FunctionSymbol]) {
        entries = symbols.enumerated().map { index, symbol in
            Entry(
                address: symbol.address, size: symbol.size, isExported: symbol.isExported, nameTable: 0,
                nameOffset: UInt32(truncatingIfNeeded: index))
        }
        names = .strings(symbols.map(\.name))
        nameOrder = symbols.indices.map { Int32($0) }
        giveBackNames = { _, _ in }
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
    /// bytes), by index. The names are read in their tables' order, and the
    /// ELF string tables' pages are given back as the pass leaves them and
    /// at its end: tens of MB in a large library, of which later questions
    /// read a few names again from the file.
    func flags(whereName predicate: (UnsafeBufferPointer<UInt8>) -> Bool) -> [Bool] {
        var flags = [Bool](repeating: false, count: count)
        for (position, index) in nameOrder.enumerated() {
            let entry = entries[Int(index)]
            if position % Self.namesBetweenReleases == 0 { giveBackNames(Int(entry.nameTable), Int(entry.nameOffset)) }
            flags[Int(index)] = withName(of: Int(index), predicate)
        }
        if case .stringTables(let tables) = names {
            for table in tables.indices { giveBackNames(table, .max) }
        }
        return flags
    }

    /// How many names ``flags(whereName:)`` reads between two page releases.
    private static let namesBetweenReleases = 4096

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
