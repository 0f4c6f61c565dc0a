/// One entry of `.dynsym` or `.symtab`, as far as linkage is concerned.
public struct Symbol: Sendable, Hashable {
    /// The raw (mangled) name from the symbol's string table.
    public var name: String
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
        binding: SymbolBinding, type: SymbolType, value: UInt64 = 0, size: UInt64 = 0
    ) {
        self.name = name
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

    init(_ raw: UInt8) {
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

    init(_ raw: UInt8) {
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
