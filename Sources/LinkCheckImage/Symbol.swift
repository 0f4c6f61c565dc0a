/// One imported, exported or internally defined symbol, as far as linkage
/// is concerned: an entry of ELF `.dynsym` or `.symtab`, or a Mach-O bind,
/// export or `nlist` entry.
public struct Symbol: Sendable, Hashable {
    /// The raw (mangled) name from the symbol's string table, without the
    /// leading `_` that Mach-O adds to every C-level name.
    public var name: String
    /// For a Mach-O import, the library it binds to (two-level namespace);
    /// `nil` for ELF, whose imports bind to whichever library defines them.
    public var library: LibraryReference?
    /// The symbol version (`GLIBC_2.34`), from `.gnu.version` together with
    /// `.gnu.version_r` (imports) or `.gnu.version_d` (exports); `nil` when
    /// unversioned.
    public var version: String?
    /// `true` when the version is hidden (`VERSYM_HIDDEN`, shown by readelf
    /// as `name@VER` rather than `name@@VER`).
    public var isVersionHidden: Bool
    /// `STB_*` binding.
    public var binding: SymbolBinding
    /// `STT_*` type.
    public var type: SymbolType
    /// `st_value`: a virtual address for defined symbols in executables and
    /// shared objects, 0 for undefined ones.
    public var value: UInt64
    /// `st_size`, in bytes.
    public var size: UInt64

    public init(
        name: String, version: String? = nil, isVersionHidden: Bool = false,
        binding: SymbolBinding, type: SymbolType, value: UInt64 = 0, size: UInt64 = 0, library: LibraryReference? = nil
    ) {
        self.name = name
        self.library = library
        self.version = version
        self.isVersionHidden = isVersionHidden
        self.binding = binding
        self.type = type
        self.value = value
        self.size = size
    }
}

/// `STB_*` symbol binding (ELF spec, "Symbol Table").
public enum SymbolBinding: Sendable, Hashable, CustomStringConvertible {
    case local, global, weak, unique
    case other(UInt8)

    /// The binding of ELF `st_info`'s high nibble.
    public init(_ raw: UInt8) {
        switch raw {
        case 0: self = .local
        case 1: self = .global
        case 2: self = .weak
        case 10: self = .unique  // STB_GNU_UNIQUE
        default: self = .other(raw)
        }
    }

    /// readelf's spelling: `LOCAL`, `GLOBAL`, `WEAK`, `UNIQUE`, or the number.
    public var description: String {
        switch self {
        case .local: "LOCAL"
        case .global: "GLOBAL"
        case .weak: "WEAK"
        case .unique: "UNIQUE"
        case .other(let raw): "<\(raw)>"
        }
    }
}

/// `STT_*` symbol type (ELF spec, "Symbol Table").
public enum SymbolType: Sendable, Hashable, CustomStringConvertible {
    case notype, object, function, section, file, common, tls, indirectFunction
    case other(UInt8)

    /// The type of ELF `st_info`'s low nibble.
    public init(_ raw: UInt8) {
        switch raw {
        case 0: self = .notype
        case 1: self = .object
        case 2: self = .function
        case 3: self = .section
        case 4: self = .file
        case 5: self = .common
        case 6: self = .tls
        case 10: self = .indirectFunction  // STT_GNU_IFUNC
        default: self = .other(raw)
        }
    }

    /// readelf's spelling: `NOTYPE`, `OBJECT`, `FUNC`, `IFUNC`, ….
    public var description: String {
        switch self {
        case .notype: "NOTYPE"
        case .object: "OBJECT"
        case .function: "FUNC"
        case .section: "SECTION"
        case .file: "FILE"
        case .common: "COMMON"
        case .tls: "TLS"
        case .indirectFunction: "IFUNC"
        case .other(let raw): "<\(raw)>"
        }
    }
}

/// The library a Mach-O import binds to: the library ordinal of its bind
/// (`<mach-o/loader.h>`, two-level namespace).
public enum LibraryReference: Sendable, Hashable {
    /// Ordinal N ≥ 1: the image's Nth dylib load command, as an index into
    /// ``BinaryImage/dependencies`` (N − 1).
    case dependency(Int)
    /// Ordinal 0: the image itself.
    case selfImage
    /// The main executable (`BIND_SPECIAL_DYLIB_MAIN_EXECUTABLE`, 0xFF).
    case mainExecutable
    /// Any loaded image (`BIND_SPECIAL_DYLIB_FLAT_LOOKUP`, 0xFE).
    case flatLookup
    /// A weak definition anywhere (`BIND_SPECIAL_DYLIB_WEAK_LOOKUP`).
    case weakLookup
}
