import LinkCheckImage

/// The source of addresses of one image, from its debug information: the
/// one interface the report layer sees, whatever the format. Called for the
/// call sites a report shows, never for every address of an image.
public enum SourceLines {
    /// The source (file, line, column, inline chain) of each of `addresses`
    /// (virtual addresses of instructions in `image`) that the image's debug
    /// information covers, with notes on debug information found but not
    /// usable. An address it does not cover, and every address of an image
    /// without debug information (built without `-g`, stripped), is left
    /// out.
    ///
    /// - ELF: the image's own DWARF, through libdw (``ELFSourceLines``).
    /// - Mach-O: the dSYM with the image's `LC_UUID` (`dsyms`, the
    ///   `--dsym` paths, first; then beside the image's bundle, the
    ///   `dSYMs/` of its `.xcframework` library, an `.xcarchive`'s
    ///   `dSYMs/`), else the object files of the image's
    ///   debug map, else the image's own `__DWARF` sections
    ///   (``MachODWARFPlan``); every problem there is a note.
    ///
    /// - Throws: ``SourceLinesError`` when an ELF file cannot be read again
    ///   or its `.debug_info` is damaged.
    public static func sources(
        of addresses: Set<UInt64>, in image: BinaryImage, dsyms: [String] = []
    ) throws(SourceLinesError) -> SourceLookup {
        guard !addresses.isEmpty else { return SourceLookup() }
        switch image.format {
        case .elf:
            #if canImport(CLibDW)
            return try ELFSourceLines.sources(of: addresses, path: image.path)
            #else
            return SourceLookup()
            #endif
        case .macho:
            return MachOSourceLines.lookup(addresses, in: image, dsyms: dsyms)
        }
    }
}
