/// One image as linkcheck sees it, whatever its format: one ELF file, one
/// architecture slice of a Mach-O file, or one member of a static archive.
///
/// A plain value: it holds no file handle and no copy of the file. The
/// readers (ELF through libelf, Mach-O our own) make it; analysis, rules,
/// reports and the CLI see only this model, and reach a format's own facts
/// through ``facts``.
public struct BinaryImage: Sendable, Equatable {
    /// Which file, slice and member this is.
    public var identity: ImageIdentity
    public var format: BinaryFormat
    /// Machine, word size and byte order.
    public var architecture: Architecture
    /// The platform, minimum OS and SDK (Mach-O `LC_BUILD_VERSION` or
    /// `LC_VERSION_MIN_*`); `nil` for formats that do not record them.
    public var platform: PlatformVersion?
    public var fileType: ImageFileType
    /// The name other images link this one by, as the image declares it:
    /// `DT_SONAME` (ELF) or the `LC_ID_DYLIB` install name (Mach-O); `nil`
    /// when it declares none.
    public var declaredName: String?
    /// What the image links, in the order the format lists it: `DT_NEEDED`
    /// entries, or the dylib load commands.
    public var dependencies: [Dependency]
    /// Where the loader looks for dependencies: DT_RPATH and DT_RUNPATH
    /// entries, or LC_RPATH paths, in order.
    public var searchPaths: [SearchPath]
    /// Symbols the image needs from elsewhere: the undefined global and weak
    /// symbols of `.dynsym` (ELF), or those bound through chained fixups or
    /// bind opcodes (Mach-O, with their library); those the reader's
    /// ``SymbolSelection`` kept, in table order. Names are as a language
    /// spells them: Mach-O's leading `_` is dropped (`_dlopen` is `dlopen`).
    public var imports: [Symbol]
    /// Symbols the image defines for others, those the reader's
    /// ``SymbolSelection`` kept, in table order.
    public var exports: [Symbol]
    /// Functions the image defines for its own use, not exports: the
    /// defined `STT_FUNC` and `STT_GNU_IFUNC` entries of ELF `.symtab` that
    /// are local (`STB_LOCAL`, as a version script's `local: *` or a static
    /// function leaves them) or hidden (`STV_HIDDEN`, `STV_INTERNAL`); those
    /// the reader's ``SymbolSelection`` kept, in table order, each name
    /// once; for Mach-O, the `nlist` entries defined in a section of code
    /// that are not `N_EXT` or are `N_PEXT`, without the leading `_`. The
    /// code of a module linked in statically shows here when it exports
    /// nothing; empty when the image has no such symbol table (stripped).
    public var definitions: [Symbol]
    /// Objective-C classes the code references (`__objc_classrefs`) and
    /// the classes its categories extend (`__objc_catlist`), by name,
    /// sorted, each once.
    public var objcClassReferences: [String]
    /// For each class the image defines (Mach-O: `__objc_classlist`, and the
    /// classes of its own that ``objcClassReferences`` names), its
    /// superclasses, nearest first, up to the first one another image
    /// defines: `MyApp` → `[UIApplication]` for `@interface MyApp :
    /// UIApplication` (Mach-O: the `class_t` `superclass` fields, to the
    /// import bound into the last). Defining the class uses them: a message
    /// to it, or to `self` in its methods, can reach their methods.
    public var objcSuperclasses: [String: [String]]
    /// Objective-C selectors the code references (`__objc_selrefs`,
    /// `objc_msgSend$sel` stubs), sorted, each once.
    public var selectorReferences: [String]
    /// The string literals asked for that occur in read-only data (ELF
    /// `.rodata`; Mach-O `__TEXT,__cstring` and `__TEXT,__const`).
    public var stringLiterals: [String]
    /// Libraries the image declares it loads at run time (`.note.dlopen`).
    public var declaredLoads: [DeclaredLoad]
    /// The format's own facts (ELF: OS ABI, `e_type`, DT_FLAGS; Mach-O:
    /// header flags, `MH_APP_EXTENSION_SAFE`, encryption, code signature).
    public var facts: FormatFacts
    /// Problems that did not stop reading (a malformed version table, a
    /// string offset out of range, a load command past the end), each
    /// naming the structure at fault.
    public var warnings: [ReadWarning]

    public init(
        identity: ImageIdentity, format: BinaryFormat, architecture: Architecture, platform: PlatformVersion? = nil,
        fileType: ImageFileType, declaredName: String? = nil, dependencies: [Dependency] = [],
        searchPaths: [SearchPath] = [], imports: [Symbol] = [], exports: [Symbol] = [], definitions: [Symbol] = [],
        objcClassReferences: [String] = [], objcSuperclasses: [String: [String]] = [:], selectorReferences: [String] = [],
        stringLiterals: [String] = [],
        declaredLoads: [DeclaredLoad] = [], facts: FormatFacts, warnings: [ReadWarning] = []
    ) {
        self.identity = identity
        self.format = format
        self.architecture = architecture
        self.platform = platform
        self.fileType = fileType
        self.declaredName = declaredName
        self.dependencies = dependencies
        self.searchPaths = searchPaths
        self.imports = imports
        self.exports = exports
        self.definitions = definitions
        self.objcClassReferences = objcClassReferences
        self.objcSuperclasses = objcSuperclasses
        self.selectorReferences = selectorReferences
        self.stringLiterals = stringLiterals
        self.declaredLoads = declaredLoads
        self.facts = facts
        self.warnings = warnings
    }

    /// The file the image is in (for a slice or a member, the whole file's
    /// path), as given or as discovered.
    public var path: String { identity.path }

    /// How reports name the image: the path, with the slice and member when
    /// there are several in the file (``ImageIdentity/description``).
    public var name: String { identity.description }

    /// The name other images link this one by: ``declaredName``, else the
    /// file name.
    public var linkName: String { declaredName ?? fileName }

    /// The name chains show: the link name for ELF (`libShareKit.so`); for
    /// Mach-O the framework bundle (`SyncKit.framework`) or the library's
    /// file name (`libz.1.dylib`), not the whole install name.
    public var shortName: String {
        switch format {
        case .elf: return linkName
        case .macho: break
        }
        let components = linkName.split(separator: "/")
        if let bundle = components.last(where: { $0.hasSuffix(".framework") }) { return String(bundle) }
        return components.last.map(String.init) ?? linkName
    }

    /// The last path component of ``path``.
    public var fileName: String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return path }
        return String(path[path.utf8.index(after: slash)...])
    }

    /// The names of ``dependencies``, in order.
    public var dependencyNames: [String] { dependencies.map(\.name) }

    /// `true` for 32-bit images (`ELFCLASS32`, `MH_MAGIC`).
    public var is32Bit: Bool { !architecture.is64Bit }
}

/// The file formats linkcheck reads.
public enum BinaryFormat: String, Sendable, Codable, CaseIterable {
    /// ELF (System V ABI), read through libelf.
    case elf
    /// Mach-O, thin or fat, and static archives of Mach-O objects.
    case macho

    /// The format's name in messages: `ELF`, `Mach-O`.
    public var displayName: String {
        switch self {
        case .elf: "ELF"
        case .macho: "Mach-O"
        }
    }

    /// What the format calls a link to a library the loader must load:
    /// `DT_NEEDED` (an ELF dynamic-section entry), `LC_LOAD_DYLIB` (a
    /// Mach-O load command).
    public var dependencyTerm: String {
        switch self {
        case .elf: "DT_NEEDED"
        case .macho: "LC_LOAD_DYLIB"
        }
    }
}
