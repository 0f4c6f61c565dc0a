import LinkCheckImage

/// One Mach-O image as read: a thin file, one architecture slice of a fat
/// file, or one member of a static archive. Its identity is (file, slice,
/// member), never the path alone.
///
/// A plain value: it holds no file handle and no copy of the file. Virtual
/// addresses are the image's unslid addresses (as linked); file offsets of
/// load-command fields (``Section/fileOffset``, ``Segment/fileOffset``) are
/// from the start of the image's Mach header, as in the file, and
/// ``fileOffset`` is where that header is in the file.
///
/// ``ImageReader`` makes it from the header and the load commands, and
/// fills in what they point at; what an image lacks stays empty.
public struct MachOImage: Sendable {
    /// The path of the file the image was read from.
    public var path: String
    /// The archive member's name (`RxAtomic.o`) for an image in a static
    /// archive, else `nil`.
    public var archiveMember: String?
    /// The archive member's `ar_date` (its modification time when it was
    /// added to the archive, in seconds since the epoch, as `N_OSO`'s
    /// `n_value` records it in a debug map); `nil` outside an archive or
    /// when the field is not a decimal number.
    public var archiveMemberDate: UInt64?
    /// Offset of the image's Mach header from the start of the file, in bytes.
    public var fileOffset: Int
    /// The image's size in bytes (the fat slice, the archive member, or the
    /// whole thin file).
    public var size: Int
    /// The Mach header.
    public var header: MachHeader
    /// Every load command read, in order (`LoadCommand/name` names it).
    public var loadCommands: [LoadCommand]
    /// `LC_SEGMENT(_64)` commands with their sections, in order.
    public var segments: [Segment] = []
    /// `LC_ID_DYLIB`: the install name other images link this one by.
    public var installName: String?
    /// The libraries the image links, in load-command order.
    public var dependencies: [DylibDependency] = []
    /// `LC_RPATH` paths, in order (duplicates kept).
    public var rpaths: [String] = []
    /// `LC_BUILD_VERSION` and `LC_VERSION_MIN_*` commands, in order.
    public var platforms: [PlatformVersion] = []
    /// `LC_UUID`: the build's identity (the first such command), shared by
    /// the slice of its dSYM; `nil` when the image has none.
    public var uuid: ImageUUID?
    /// `LC_MAIN`: the entry point.
    public var entryPoint: EntryPoint?
    /// `LC_ENCRYPTION_INFO(_64)`.
    public var encryption: EncryptionInfo?
    /// `LC_CODE_SIGNATURE` is present.
    public var hasCodeSignature: Bool = false
    /// Which fixup information the imports, bindings and rebases come from.
    public var fixupFormat: MachOFacts.Fixups = .none
    /// The `DYLD_CHAINED_PTR_*` formats of the chained fixups (one per
    /// segment that has chains; usually one).
    public var chainedPointerFormats: [ChainedPointerFormat] = []
    /// The symbols bound from elsewhere. With chained fixups, the imports
    /// table in order (a binding's ordinal indexes it); with opcodes, each
    /// distinct (name, library, weak, stream) in stream order (bind, lazy
    /// bind, then weak bind); with neither, the symbol table's undefined
    /// externals (libraries from `n_desc` when `MH_TWOLEVEL`). The symbol
    /// table is never used when there are fixups: it can be incomplete
    /// (`MH_NLIST_OUTOFSYNC_WITH_DYLDINFO`).
    public var imports: [MachOImport] = []
    /// Each pointer slot bound to an import, in the order the fixups list
    /// them. A slot can appear twice with opcodes: bound, and weak-bound to
    /// the same name.
    public var bindings: [Binding] = []
    /// Each pointer slot rebased to an address within the image.
    public var rebases: [Rebase] = []
    /// Exported symbols: the exports trie, or where there is none the
    /// symbol table's defined externals.
    public var exports: [MachOExport] = []
    /// The symbol table (`LC_SYMTAB`), every entry in order.
    public var symbols: [NlistSymbol] = []
    /// `LC_DYSYMTAB`, with the indirect symbol table.
    public var dynamicSymbolTable: DynamicSymbolTable?
    /// `LC_FUNCTION_STARTS`, decoded to virtual addresses.
    public var functionStarts: [UInt64] = []
    /// The stubs of `S_SYMBOL_STUBS` sections (`__stubs`, `__auth_stubs`),
    /// each with the symbol it calls.
    public var symbolStubs: [SymbolStub] = []
    /// The slots of symbol-pointer sections (`__got`, `__auth_got`,
    /// `__la_symbol_ptr`, `__nl_symbol_ptr`), each with its symbol.
    public var symbolPointers: [SymbolPointer] = []
    /// Relocation entries of `MH_OBJECT` files, section by section.
    public var relocations: [Relocation] = []
    /// `__objc_classrefs` slots and the class each refers to.
    public var classReferences: [ObjCClassReference] = []
    /// The classes the image defines (`__objc_classlist`), with their
    /// superclasses.
    public var classDefinitions: [ObjCClassDefinition] = []
    /// The image's categories (`__objc_catlist`, `__objc_nlcatlist`) and
    /// the classes they extend.
    public var categories: [ObjCCategory] = []
    /// The methods the image's classes and categories define, from their
    /// method lists (``ObjCMethodLists``): names for the functions of a
    /// stripped image.
    public var objcMethods: [ObjCMethod] = []
    /// `__objc_selrefs` slots and the selector each refers to.
    public var selectorReferences: [SelectorReference] = []
    /// `__objc_stubs` stubs (`objc_msgSend$selector`, Xcode 14+).
    public var objcStubs: [ObjCStub] = []
    /// The file ranges scanned for string literals (``StringLiteralRange``).
    public var stringLiteralRanges: [StringLiteralRange] = []
    /// `__cfstring` constants.
    public var cfStrings: [CFStringLiteral] = []
    /// The string literals asked for (``MachOFile/init(path:strings:)``)
    /// that occur in ``stringLiteralRanges``, in the order asked.
    public var readOnlyStrings: [String] = []
    /// Problems that did not stop the read, each naming the structure and
    /// its file offset.
    public var warnings: [ReadWarning] = []

    /// `cputype`/`cpusubtype`, named (`arm64`, `x86_64`).
    public var cpu: CPUType { header.cpu }
    /// `filetype`.
    public var fileType: FileType { header.fileType }
    /// `MH_APP_EXTENSION_SAFE` is set.
    public var appExtensionSafe: Bool { header.appExtensionSafe }
    /// The first platform command (images normally have one; a zippered
    /// macOS/Mac Catalyst image has two).
    public var platform: PlatformVersion? { platforms.first }
    /// A `__LLVM` segment (embedded bitcode) is present, or in an
    /// `MH_OBJECT` file (one unnamed segment) a section of one
    /// (`__LLVM,__bitcode`).
    public var hasBitcode: Bool {
        segments.contains { $0.name == "__LLVM" || $0.sections.contains { $0.segmentName == "__LLVM" } }
    }
    /// `cryptid` of `LC_ENCRYPTION_INFO(_64)` is not 0.
    public var isEncrypted: Bool { (encryption?.cryptID ?? 0) != 0 }
    /// Every section of every segment, in order: section number N
    /// (`n_sect`) is element N - 1.
    public var sections: [Section] { segments.flatMap(\.sections) }

    /// The image's preferred load address: the `vmaddr` of the segment
    /// mapped from file offset 0 (`__TEXT`), 0 when there is none. Exports
    /// trie, function starts and `LC_MAIN` offsets are from it.
    public var baseAddress: UInt64 {
        segments.first { $0.fileOffset == 0 && $0.fileSize > 0 }?.address ?? 0
    }

    /// The dependency a library ordinal names; `nil` for the special
    /// ordinals and ordinals past the dependencies.
    public func dependency(for library: LibraryOrdinal) -> DylibDependency? {
        guard case .dylib(let ordinal) = library else { return nil }
        return dependencies.first { $0.ordinal == ordinal }
    }

    /// Section number `number` (1-based, as `n_sect`).
    public func section(number: Int) -> Section? {
        var remaining = number
        for segment in segments {
            if remaining >= 1 && remaining <= segment.sections.count { return segment.sections[remaining - 1] }
            remaining -= segment.sections.count
        }
        return nil
    }
}

/// `LC_MAIN` (`entry_point_command`).
public struct EntryPoint: Sendable, Hashable {
    /// `entryoff`: offset of `main` from the start of `__TEXT` (the image
    /// base), in bytes.
    public var offset: UInt64
    /// The virtual address of `main`: base address + `entryoff`.
    public var address: UInt64
    /// `stacksize`, in bytes (0: the default).
    public var stackSize: UInt64
}

/// `LC_ENCRYPTION_INFO` / `LC_ENCRYPTION_INFO_64` (`encryption_info_command`).
public struct EncryptionInfo: Sendable, Hashable {
    /// `cryptoff` and `cryptsize`: the encrypted range, in bytes from the
    /// start of the image.
    public var offset: UInt32
    public var size: UInt32
    /// `cryptid`: 0 when the range is not encrypted (as built), non-zero
    /// for App Store encryption (FairPlay).
    public var cryptID: UInt32
}
