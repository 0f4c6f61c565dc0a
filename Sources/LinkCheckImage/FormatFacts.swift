/// A format's own facts about an image, in one typed field per format.
public enum FormatFacts: Sendable, Equatable {
    case elf(ELFFacts)
    case macho(MachOFacts)

    /// The ELF facts, for an ELF image.
    public var elf: ELFFacts? {
        if case .elf(let facts) = self { return facts }
        return nil
    }

    /// The Mach-O facts, for a Mach-O image.
    public var macho: MachOFacts? {
        if case .macho(let facts) = self { return facts }
        return nil
    }

    /// The format's name for the file type: `ET_DYN`, `MH_EXECUTE`, ….
    public var fileTypeName: String {
        switch self {
        case .elf(let facts): facts.fileType
        case .macho(let facts): facts.fileType
        }
    }
}

/// What an ELF image says of itself beyond the neutral model.
public struct ELFFacts: Sendable, Equatable {
    /// `e_type` as the spec names it: `ET_DYN`, `ET_EXEC`, `ET_REL`,
    /// `ET_CORE`, or `ET_<n>`.
    public var fileType: String
    /// `EI_OSABI` as a name (`SYSV`, `GNU`, `FreeBSD`, …).
    public var osABI: String
    /// Which symbol table imports and exports were read from.
    public var symbolTable: SymbolTableKind
    /// DT_FLAGS (`DF_*` bits), 0 when absent.
    public var flags: UInt64
    /// DT_FLAGS_1 (`DF_1_*` bits), 0 when absent.
    public var flags1: UInt64

    public init(fileType: String, osABI: String = "SYSV", symbolTable: SymbolTableKind = .dynsym, flags: UInt64 = 0, flags1: UInt64 = 0) {
        self.fileType = fileType
        self.osABI = osABI
        self.symbolTable = symbolTable
        self.flags = flags
        self.flags1 = flags1
    }
}

/// Which ELF symbol table the import and export lists come from.
public enum SymbolTableKind: String, Sendable, Codable {
    /// `.dynsym` (`SHT_DYNSYM`): what the dynamic linker sees.
    case dynsym = ".dynsym"
    /// `.symtab` (`SHT_SYMTAB`), used when there is no `.dynsym`
    /// (relocatable objects, static executables).
    case symtab = ".symtab"
    /// Neither table is present.
    case none
}

/// What a Mach-O image says of itself beyond the neutral model
/// (`mach_header`, `<mach-o/loader.h>`).
public struct MachOFacts: Sendable, Equatable {
    /// `filetype` as `<mach-o/loader.h>` names it: `MH_DYLIB`, `MH_EXECUTE`,
    /// `MH_BUNDLE`, `MH_OBJECT`, ….
    public var fileType: String
    /// `flags`, the raw bits.
    public var flags: UInt32
    /// The named bits of `flags` (`MH_TWOLEVEL`, `MH_APP_EXTENSION_SAFE`, …),
    /// in bit order.
    public var flagNames: [String]
    /// `MH_APP_EXTENSION_SAFE` (0x02000000): the linker's
    /// `-application_extension` marked the image extension-safe. Only a
    /// claim: the linker does not look at the code.
    public var appExtensionSafe: Bool
    /// `LC_ENCRYPTION_INFO(_64)` with a non-zero `cryptid`: the code is
    /// encrypted (an App Store download), so it cannot be read.
    public var encrypted: Bool
    /// `LC_CODE_SIGNATURE` is present.
    public var codeSigned: Bool
    /// How dyld binds the image's imports.
    public var fixups: Fixups
    /// A `__LLVM` segment (embedded bitcode) is present.
    public var hasBitcode: Bool
    /// The 16 bytes of `LC_UUID` (`uuid_command`), in file order; `nil`
    /// without one.
    public var uuid: [UInt8]?
    /// The symbol table holds debugging entries (`n_type & N_STAB`): the
    /// linker's debug map (`N_OSO` objects and their `N_FUN` functions) is
    /// there when an image has one.
    public var hasDebugEntries: Bool

    public init(
        fileType: String, flags: UInt32, flagNames: [String], appExtensionSafe: Bool, encrypted: Bool = false,
        codeSigned: Bool = false, fixups: Fixups = .none, hasBitcode: Bool = false, uuid: [UInt8]? = nil,
        hasDebugEntries: Bool = false
    ) {
        self.fileType = fileType
        self.flags = flags
        self.flagNames = flagNames
        self.appExtensionSafe = appExtensionSafe
        self.encrypted = encrypted
        self.codeSigned = codeSigned
        self.fixups = fixups
        self.hasBitcode = hasBitcode
        self.uuid = uuid
        self.hasDebugEntries = hasDebugEntries
    }

    /// The source of an image's binds.
    public enum Fixups: String, Sendable, Codable {
        /// `LC_DYLD_CHAINED_FIXUPS`.
        case chained
        /// `LC_DYLD_INFO(_ONLY)` bind, weak-bind and lazy-bind opcodes.
        case opcodes = "dyld-info"
        /// Neither (an object file): imports come from the symbol table.
        case none
    }
}
