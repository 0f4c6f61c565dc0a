import LinkCheckImage
import LinkCheckLiterals

#if canImport(CLibELF)
import CLibELF
#endif

/// Turns one ELF file into a ``BinaryImage`` (the format-neutral model),
/// reading it only through libelf/gelf. A build without libelf (what a Mac
/// builds by default: Package.swift) still recognises ELF files, and reads
/// none: each is an error that says so.
public enum ELFReader: Sendable {
    #if canImport(CLibELF)
    /// Whether this build of linkcheck reads ELF: it was built with libelf.
    public static let readsELF = true

    /// Reads the ELF file at `path`: header, dynamic section, symbols with
    /// versions, `.note.dlopen`, and which of `strings` occur as literals in
    /// its read-only data. A file of up to ``ELFFile/largestReadFile`` bytes
    /// is read with `pread(2)`, a larger one mapped
    /// (``ELFFile/Access/readIfSmall``).
    ///
    /// `symbols` decides which symbols become ``Symbol`` values in
    /// ``BinaryImage/imports``, ``BinaryImage/exports`` and
    /// ``BinaryImage/definitions`` (`.symtab`'s local functions): all of them by
    /// default; a check that needs only what rules may match passes the
    /// others over (``SymbolSelection/only(leads:_:)``), which is much cheaper.
    ///
    /// Structures that are malformed but not essential (a version table, a
    /// string offset) become ``BinaryImage/warnings``; the image is still
    /// returned.
    ///
    /// - Throws: ``InspectionError`` when the file cannot be read, is not
    ///   ELF, its ELF header or section header table is malformed, or it
    ///   changed while it was read.
    public static func read(
        path: String, strings: LiteralPatterns = [], symbols selection: SymbolSelection = .all
    ) throws(InspectionError) -> BinaryImage {
        try ELFFile.read(path, access: .readIfSmall) { file throws(InspectionError) in
            let header = try file.header()
            let (elfClass, encoding) = try file.classAndEncoding()
            let ident = try file.identification()
            let sections = try file.sections()
            var warnings = ReadWarnings()
            if let repair = file.repair { warnings.add(repair) }
            var dynamic = file.dynamicInfo(sections: sections, warnings: &warnings)
            var symbols = file.symbolTable(sections: sections, selection: selection, warnings: &warnings)
            if sections.isEmpty && (header.e_shoff != 0 || header.e_shnum != 0) {
                warnings.add(
                    "the section header table (\(header.e_shnum) entries at offset \(header.e_shoff)) cannot be read: the file is truncated or corrupt"
                )
            }
            // The loader reads only program headers: when the sections are
            // missing or disagree with them, read what it reads.
            let segments = file.programHeaders()
            let disagreement =
                sections.isEmpty
                ? "no section headers" : file.sectionViewDisagreement(sections: sections, segments: segments, dynamic: dynamic)
            if let disagreement,
                let segment = file.dynamicSegment(segments, because: disagreement, selection: selection, warnings: &warnings)
            {
                dynamic = segment.dynamic
                symbols = segment.symbols
            }
            if let missing = file.missingLoadSegment(header: header, segments: segments) { warnings.add(missing) }
            let machine = Machine(code: header.e_machine, elfClass: elfClass, dataEncoding: encoding)
            let fileType = ELFFileType(header.e_type)
            return BinaryImage(
                identity: ImageIdentity(path: path),
                format: .elf,
                architecture: machine.architecture(elfClass: elfClass, dataEncoding: encoding),
                fileType: fileType.neutral(positionIndependentExecutable: dynamic.isPositionIndependentExecutable),
                declaredName: dynamic.soname,
                dependencies: dynamic.needed.map { Dependency(name: $0) },
                searchPaths: dynamic.rpath.map { SearchPath(path: $0, kind: .rpath) }
                    + dynamic.runpath.map { SearchPath(path: $0, kind: .runpath) },
                imports: symbols.imports,
                exports: symbols.exports,
                definitions: file.localFunctions(sections: sections, selection: selection, warnings: &warnings),
                stringLiterals: try file.readOnlyStrings(sections: sections, matching: strings),
                declaredLoads: file.declaredLoads(sections: sections, warnings: &warnings),
                facts: .elf(
                    ELFFacts(
                        fileType: fileType.description, osABI: osABIName(ident[Int(EI_OSABI)]), symbolTable: symbols.kind,
                        flags: dynamic.flags, flags1: dynamic.flags1)),
                warnings: warnings.all
            )
        }
    }
    #else
    /// Whether this build of linkcheck reads ELF: it was built without
    /// libelf.
    public static let readsELF = false

    /// Reads no ELF file: this build has no libelf.
    ///
    /// - Throws: ``InspectionError/formatNotBuilt(path:format:library:)``,
    ///   always.
    public static func read(
        path: String, strings: LiteralPatterns = [], symbols selection: SymbolSelection = .all
    ) throws(InspectionError) -> BinaryImage {
        throw .formatNotBuilt(path: path, format: .elf, library: "libelf")
    }
    #endif

    /// `ELFMAG`, the first four bytes of every ELF file: `\x7fELF`.
    static let magic: [UInt8] = [0x7f, 0x45, 0x4c, 0x46]

    /// The format this reader reads.
    public static let format = BinaryFormat.elf

    /// Whether a file starting with `leadingBytes` is ELF: its first four
    /// bytes are `ELFMAG` (`\x7fELF`).
    public static func recognises(leadingBytes: ArraySlice<UInt8>) -> Bool {
        leadingBytes.starts(with: magic)
    }

    /// The one image of the ELF file at `path`, as ``read(path:strings:symbols:)``
    /// reads it.
    ///
    /// - Throws: as ``read(path:strings:symbols:)``.
    public static func images(
        atPath path: String, strings: LiteralPatterns, symbols: SymbolSelection
    ) throws(InspectionError) -> [BinaryImage] {
        [try read(path: path, strings: strings, symbols: symbols)]
    }
}
