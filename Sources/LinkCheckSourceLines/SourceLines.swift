import LinkCheckImage

/// The source of addresses of one image, from its debug information: the
/// one interface the report layer sees, whatever the format. Called for the
/// call sites a report shows, never for every address of an image.
public enum SourceLines {
    /// The source (file, line, column, inline chain) of each of `addresses`
    /// (virtual addresses of instructions in `image`) that the image's debug
    /// information covers; an address it does not cover, and every address
    /// of an image without debug information (built without `-g`, stripped)
    /// or of a format whose debug information is not read yet (Mach-O), is
    /// left out.
    ///
    /// - Throws: ``SourceLinesError`` when the file cannot be read again or
    ///   its debug information is damaged.
    public static func sources(of addresses: Set<UInt64>, in image: BinaryImage) throws(SourceLinesError) -> [UInt64: AddressSource] {
        guard !addresses.isEmpty else { return [:] }
        switch image.format {
        case .elf:
            #if canImport(CLibDW)
            return try ELFSourceLines.sources(of: addresses, path: image.path)
            #else
            return [:]
            #endif
        case .macho:
            return [:]
        }
    }
}
