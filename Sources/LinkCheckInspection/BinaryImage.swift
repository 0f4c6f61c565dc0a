/// One ELF file as the inspector sees it: header facts, the dynamic section,
/// imported and exported symbols, and string literals in read-only data.
///
/// A plain value: it holds no file handle and no copy of the file. Built by
/// ``ImageInspector``; knows nothing about rules.
public struct BinaryImage: Sendable, Equatable {
    /// The path the image was found at, as given or as discovered.
    public var path: String
    /// `EI_CLASS`: 32 or 64 (ELF spec, "ELF Identification").
    public var elfClass: ELFClass
    /// `EI_DATA`: little- or big-endian.
    public var dataEncoding: ELFDataEncoding
    /// `e_machine`, mapped to a standard name (``Machine``).
    public var machine: Machine
    /// `e_type`: `ET_REL`, `ET_EXEC`, `ET_DYN`, `ET_CORE`, …
    public var fileType: ELFFileType
    /// `EI_OSABI`, as a name (`SYSV`, `GNU`, `FreeBSD`, …).
    public var osABI: String
    /// The dynamic section's entries (DT_SONAME, DT_NEEDED, …).
    public var dynamic: DynamicInfo
    /// Which symbol table imports and exports were read from.
    public var symbolTable: SymbolTableKind
    /// Symbols the image needs from elsewhere: undefined, global or weak;
    /// those the inspection's ``SymbolSelection`` kept, in table order.
    public var imports: [Symbol]
    /// Symbols the image defines for others: global, weak or unique
    /// binding, default or protected visibility; those the inspection's
    /// ``SymbolSelection`` kept, in table order.
    public var exports: [Symbol]
    /// The string literals asked for (``ImageInspector/inspect(path:strings:symbols:)``)
    /// that occur in the read-only data sections (`.rodata`, `.rodata.*`).
    public var readOnlyStrings: [String]
    /// Conditional dependencies declared in `.note.dlopen`.
    public var declaredLoads: [DeclaredLoad]
    /// Problems that did not stop inspection (a malformed version table,
    /// a string offset out of range), each naming the structure at fault.
    public var warnings: [String]

    public init(
        path: String, elfClass: ELFClass, dataEncoding: ELFDataEncoding, machine: Machine,
        fileType: ELFFileType, osABI: String = "SYSV", dynamic: DynamicInfo = DynamicInfo(),
        symbolTable: SymbolTableKind = .dynsym, imports: [Symbol] = [], exports: [Symbol] = [],
        readOnlyStrings: [String] = [], declaredLoads: [DeclaredLoad] = [], warnings: [String] = []
    ) {
        self.path = path
        self.elfClass = elfClass
        self.dataEncoding = dataEncoding
        self.machine = machine
        self.fileType = fileType
        self.osABI = osABI
        self.dynamic = dynamic
        self.symbolTable = symbolTable
        self.imports = imports
        self.exports = exports
        self.readOnlyStrings = readOnlyStrings
        self.declaredLoads = declaredLoads
        self.warnings = warnings
    }

    /// The name other images use to link this one: DT_SONAME, else the
    /// file name.
    public var linkName: String { dynamic.soname ?? fileName }

    /// The last path component.
    public var fileName: String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return path }
        return String(path[path.utf8.index(after: slash)...])
    }

    /// `true` for `ELFCLASS32` images.
    public var is32Bit: Bool { elfClass == .elf32 }
}

/// Which symbol table the import and export lists come from.
public enum SymbolTableKind: String, Sendable, Codable {
    /// `.dynsym` (`SHT_DYNSYM`): what the dynamic linker sees.
    case dynsym = ".dynsym"
    /// `.symtab` (`SHT_SYMTAB`), used when there is no `.dynsym`
    /// (relocatable objects, static executables).
    case symtab = ".symtab"
    /// Neither table is present.
    case none
}

/// The parts of the dynamic section (`SHT_DYNAMIC`, ELF spec "Dynamic
/// Section") that linkage analysis needs.
public struct DynamicInfo: Sendable, Equatable {
    /// DT_SONAME.
    public var soname: String?
    /// DT_NEEDED entries, in the order they appear.
    public var needed: [String] = []
    /// DT_RPATH, split at `:`.
    public var rpath: [String] = []
    /// DT_RUNPATH, split at `:`.
    public var runpath: [String] = []
    /// DT_FLAGS (`DF_*` bits), 0 when absent.
    public var flags: UInt64 = 0
    /// DT_FLAGS_1 (`DF_1_*` bits), 0 when absent.
    public var flags1: UInt64 = 0

    public init() {}
}
