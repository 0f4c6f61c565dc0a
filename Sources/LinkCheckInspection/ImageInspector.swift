import CLibELF

/// Turns one ELF file into a ``BinaryImage``.
public enum ImageInspector {
    /// Inspects the ELF file at `path`: header, dynamic section, symbols
    /// with versions, and which of `strings` occur as literals in its
    /// read-only data.
    ///
    /// `symbols` decides which global symbols become ``Symbol`` values in
    /// ``BinaryImage/imports`` and ``BinaryImage/exports``: all of them by
    /// default; a check that needs only what rules may match passes the
    /// others over (``SymbolSelection/only(_:)``), which is much cheaper.
    ///
    /// Structures that are malformed but not essential (a version table, a
    /// string offset) become ``BinaryImage/warnings``; the image is still
    /// returned.
    ///
    /// - Throws: ``InspectionError`` when the file cannot be read, is not
    ///   ELF, its ELF header or section header table is malformed, or it
    ///   changed while it was read.
    public static func inspect(
        path: String, strings: [String] = [], symbols selection: SymbolSelection = .all
    ) throws(InspectionError) -> BinaryImage {
        try ELFFile.read(path) { file throws(InspectionError) in
            let header = try file.header()
            let (elfClass, encoding) = try file.classAndEncoding()
            let ident = try file.identification()
            let sections = try file.sections()
            var warnings: [String] = file.repair.map { [$0] } ?? []
            var dynamic = file.dynamicInfo(sections: sections, warnings: &warnings)
            var symbols = file.symbolTable(sections: sections, selection: selection, warnings: &warnings)
            if sections.isEmpty && (header.e_shoff != 0 || header.e_shnum != 0) {
                warnings.append("the section header table (\(header.e_shnum) entries at offset \(header.e_shoff)) cannot be read: the file is truncated or corrupt")
            }
            if sections.isEmpty, let segment = file.dynamicSegment(selection: selection, warnings: &warnings) {
                dynamic = segment.dynamic
                symbols = segment.symbols
            }
            return BinaryImage(
                path: path,
                elfClass: elfClass,
                dataEncoding: encoding,
                machine: Machine(code: header.e_machine, elfClass: elfClass, dataEncoding: encoding),
                fileType: ELFFileType(header.e_type),
                osABI: osABIName(ident[Int(EI_OSABI)]),
                dynamic: dynamic,
                symbolTable: symbols.kind,
                imports: symbols.imports,
                exports: symbols.exports,
                readOnlyStrings: file.readOnlyStrings(sections: sections, matching: strings),
                declaredLoads: file.declaredLoads(sections: sections, warnings: &warnings),
                warnings: warnings
            )
        }
    }

    /// Whether the file at `path` is one inspection reads as an image: a
    /// regular file that starts with the ELF magic `\x7fELF` (only its
    /// first four bytes are read).
    public static func isImage(path: String) -> Bool {
        ELFFile.startsWithMagic(path)
    }
}
