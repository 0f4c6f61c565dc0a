/// A symbol the image binds from elsewhere: an entry of the chained-fixup
/// imports table, a symbol of the bind, weak-bind or lazy-bind opcode
/// streams, or (only where an image has neither, as in `MH_OBJECT` files) an
/// undefined external of the symbol table.
public struct MachOImport: Sendable, Hashable {
    /// The symbol name as bound (`_OBJC_CLASS_$_UIApplication`, `_dlopen`).
    public var name: String
    /// Where dyld looks for it.
    public var library: LibraryOrdinal
    /// A weak import (`weak_import` of `dyld_chained_import`,
    /// `BIND_SYMBOL_FLAGS_WEAK_IMPORT`, `N_WEAK_REF`): missing is not an error.
    public var isWeak: Bool
    /// What it was read from.
    public var source: ImportSource
    /// The addend of `dyld_chained_import_addend(64)` (0 otherwise; opcode
    /// binds carry theirs on each ``Binding``).
    public var addend: Int64

    public init(name: String, library: LibraryOrdinal, isWeak: Bool = false, source: ImportSource, addend: Int64 = 0) {
        self.name = name
        self.library = library
        self.isWeak = isWeak
        self.source = source
        self.addend = addend
    }
}

/// The library an import is looked up in: a two-level-namespace library
/// ordinal, or one of the special ordinals.
public enum LibraryOrdinal: Sendable, Hashable, CustomStringConvertible {
    /// Ordinal N ≥ 1: the dependency whose ``DylibDependency/ordinal`` is N
    /// (``MachOImage/dependency(for:)``).
    case dylib(Int)
    /// 0 (`BIND_SPECIAL_DYLIB_SELF`, `SELF_LIBRARY_ORDINAL`): the image
    /// itself.
    case image
    /// -1 (`BIND_SPECIAL_DYLIB_MAIN_EXECUTABLE`, `EXECUTABLE_ORDINAL` 0xff):
    /// the main executable.
    case mainExecutable
    /// -2 (`BIND_SPECIAL_DYLIB_FLAT_LOOKUP`, `DYNAMIC_LOOKUP_ORDINAL` 0xfe):
    /// every loaded image, in load order.
    case flatLookup
    /// -3 (`BIND_SPECIAL_DYLIB_WEAK_LOOKUP`) or a weak-bind opcode entry:
    /// the first weak definition of the name among loaded images.
    case weakLookup
    /// Another negative ordinal, or an `n_desc` ordinal between the number
    /// of dependencies and 0xfe: kept as read.
    case invalid(Int)

    /// From a signed ordinal as bind opcodes and chained imports give it.
    init(signed ordinal: Int) {
        switch ordinal {
        case 0: self = .image
        case -1: self = .mainExecutable
        case -2: self = .flatLookup
        case -3: self = .weakLookup
        case 1...: self = .dylib(ordinal)
        default: self = .invalid(ordinal)
        }
    }

    /// From `GET_LIBRARY_ORDINAL(n_desc)`.
    init(nlist ordinal: UInt8) {
        switch ordinal {
        case 0: self = .image
        case 0xff: self = .mainExecutable
        case 0xfe: self = .flatLookup
        default: self = .dylib(Int(ordinal))
        }
    }

    public var description: String {
        switch self {
        case .dylib(let ordinal): "dylib \(ordinal)"
        case .image: "this image"
        case .mainExecutable: "main executable"
        case .flatLookup: "flat lookup"
        case .weakLookup: "weak lookup"
        case .invalid(let ordinal): "invalid ordinal \(ordinal)"
        }
    }
}

/// What an import was read from.
public enum ImportSource: String, Sendable, Hashable {
    /// The `LC_DYLD_CHAINED_FIXUPS` imports table.
    case chainedFixups = "chained fixups"
    /// The bind opcodes of `LC_DYLD_INFO(_ONLY)`.
    case bind
    /// The lazy-bind opcodes.
    case lazyBind = "lazy bind"
    /// The weak-bind opcodes (bound by name, no library).
    case weakBind = "weak bind"
    /// An undefined external (`N_UNDF | N_EXT`) of the symbol table.
    case symbolTable = "symbol table"
}

/// One pointer slot dyld binds to an import.
public struct Binding: Sendable, Hashable {
    /// The slot's virtual address.
    public var address: UInt64
    /// Index of the import in ``MachOImage/imports``.
    public var importIndex: Int
    /// The addend added to the symbol's address.
    public var addend: Int64

    public init(address: UInt64, importIndex: Int, addend: Int64 = 0) {
        self.address = address
        self.importIndex = importIndex
        self.addend = addend
    }
}

/// One pointer slot dyld rebases (slides) to an address in the image.
public struct Rebase: Sendable, Hashable {
    /// The slot's virtual address.
    public var address: UInt64
    /// The virtual address it points to: decoded from the chained pointer
    /// (the `high8` top byte left out), or for opcode images the pointer
    /// value in the file at the slot; `nil` when the slot cannot be read.
    public var target: UInt64?

    public init(address: UInt64, target: UInt64?) {
        self.address = address
        self.target = target
    }
}
