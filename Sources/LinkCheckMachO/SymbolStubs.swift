/// A stub of an `S_SYMBOL_STUBS` section (`__stubs`, `__auth_stubs`,
/// `__symbol_stub`, `__picsymbolstub4`): code that jumps to an imported
/// symbol, so a call to the stub is a call to the symbol.
public struct SymbolStub: Sendable, Hashable {
    /// The stub's virtual address.
    public var address: UInt64
    /// Its size in bytes (`reserved2` of the section).
    public var size: UInt32
    /// The symbol it jumps to (from the indirect symbol table entry
    /// `reserved1` + the stub's index).
    public var name: String
    /// The section, as `segname,sectname`.
    public var section: String
}

/// A pointer slot of a symbol-pointer section (`S_NON_LAZY_SYMBOL_POINTERS`:
/// `__got`, `__auth_got`, `__nl_symbol_ptr`; `S_LAZY_SYMBOL_POINTERS`:
/// `__la_symbol_ptr`), which holds the address of a symbol.
public struct SymbolPointer: Sendable, Hashable {
    /// The slot's virtual address.
    public var address: UInt64
    /// The symbol: from the indirect symbol table, or the import a binding
    /// of the slot names where the table has no entry for it.
    public var name: String
    /// The import bound into the slot (index into ``MachOImage/imports``),
    /// when there is a binding of it.
    public var importIndex: Int?
    /// `S_LAZY_SYMBOL_POINTERS` (bound on first call).
    public var isLazy: Bool
    /// The section, as `segname,sectname`.
    public var section: String
}

/// Stubs and symbol pointers, named through the indirect symbol table
/// (`LC_DYSYMTAB`): entry `reserved1 + i` of the table names the symbol of
/// stub or slot `i` of a section.
enum SymbolStubs {
    static func read(_ context: ReadContext, warnings: inout Warnings) -> ([SymbolStub], [SymbolPointer]) {
        var stubs: [SymbolStub] = []
        var pointers: [SymbolPointer] = []
        let indirect = context.indirectSymbols
        /// The name of indirect entry `index`, or `nil` for local and absolute
        /// entries and indexes out of range.
        func name(indirect index: UInt64) -> String? {
            guard index < UInt64(indirect.count) else { return nil }
            let entry = indirect[Int(index)]
            guard entry & (DynamicSymbolTable.indirectSymbolLocal | DynamicSymbolTable.indirectSymbolAbsolute) == 0,
                  Int(entry) < context.symbols.count
            else { return nil }
            return context.symbols[Int(entry)].name
        }
        let pointerSize = UInt64(context.header.pointerSize)
        for (_, section) in context.contentSections {
            let location = context.image.fileOffset &+ Int(section.fileOffset)
            switch section.type {
            case .symbolStubs:
                let size = UInt64(section.reserved2)
                guard size > 0 else {
                    warnings.add("section \(section.qualifiedName)", at: location, "S_SYMBOL_STUBS with a stub size (reserved2) of 0; stubs not read")
                    continue
                }
                let count = section.size / size
                if UInt64(section.reserved1) + count > UInt64(indirect.count) {
                    warnings.add(
                        "section \(section.qualifiedName)", at: location,
                        "its \(count) stubs from indirect symbol \(section.reserved1) run past the \(indirect.count) indirect symbols")
                }
                for index in 0..<count {
                    guard UInt64(section.reserved1) + index < UInt64(indirect.count) else { break }
                    guard let symbol = name(indirect: UInt64(section.reserved1) + index) else { continue }
                    stubs.append(
                        SymbolStub(
                            address: section.address &+ index &* size, size: section.reserved2, name: symbol,
                            section: section.qualifiedName))
                }
            case .nonLazySymbolPointers, .lazySymbolPointers, .lazyDylibSymbolPointers:
                let count = section.size / pointerSize
                for index in 0..<count {
                    let address = section.address &+ index &* pointerSize
                    let bound = context.boundImport[address]
                    guard let symbol = name(indirect: UInt64(section.reserved1) + index) ?? bound.map({ context.imports[$0].name })
                    else { continue }
                    pointers.append(
                        SymbolPointer(
                            address: address, name: symbol, importIndex: bound, isLazy: section.type != .nonLazySymbolPointers,
                            section: section.qualifiedName))
                }
            default:
                continue
            }
        }
        return (stubs, pointers)
    }
}
