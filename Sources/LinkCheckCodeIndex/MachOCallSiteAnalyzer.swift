import LinkCheckImage
import LinkCheckMachO

/// Finds the call sites of a Mach-O image with Capstone: reads its file
/// again (``MachOReader/withImage(_:_:)``), lays out its stubs, symbol pointers,
/// Objective-C references and functions (``MachOCodeLayout``), and decodes
/// its code sections (`__TEXT,__text` and the other sections of
/// instructions that are not stubs) as ELF images' are.
///
/// Analysed: linked arm64, arm64e and x86_64 images (`MH_EXECUTE`,
/// `MH_DYLIB`, `MH_BUNDLE`, …) whose code is not encrypted. Not analysed:
/// 32-bit images, and `MH_OBJECT` files (alone or as members of a static
/// archive), whose code is not relocated yet: their branch targets and page
/// addresses are placeholders until the linker applies the relocations, and
/// the image they are linked into is checked in their stead.
enum MachOCallSiteAnalyzer {
    static func supports(_ image: BinaryImage) -> Bool {
        image.format == .macho && Disassembler.InstructionSet(image.architecture) != nil
            && image.fileType != .relocatableObject && image.identity.member == nil
            && image.facts.macho?.encrypted != true
    }

    /// Every call site of `image` (all its code decoded).
    ///
    /// - Returns: `nil` when the image is not analysed (``supports(_:)``).
    /// - Throws: ``InspectionError`` when the file cannot be read, or
    ///   changed since it was inspected.
    static func analyze(_ image: BinaryImage) throws(InspectionError) -> CodeAnalysis? {
        try withCode(image) { $0.analysis() } ?? nil
    }

    /// The call sites of `image` that `interest` asks for, indexed
    /// (``CodeIndex/analyze(_:interest:mode:)``).
    ///
    /// - Returns: `nil` when the image is not analysed.
    /// - Throws: as ``analyze(_:)``.
    static func index(_ image: BinaryImage, interest: CallSiteInterest, mode: CallSiteMode) throws(InspectionError) -> CodeIndex? {
        try withCode(image) { $0.index(interest: interest, mode: mode) } ?? nil
    }

    /// Reads `image`'s file again and calls `body` with its code
    /// (``LaidOutCode``): its layout, its instruction set, its code sections
    /// and a pass over their bytes.
    ///
    /// - Returns: `nil` when the image is not analysed.
    private static func withCode<Value>(
        _ image: BinaryImage, _ body: (LaidOutCode<MachOCodeLayout>) -> Value
    ) throws(InspectionError) -> Value? {
        guard supports(image), let architecture = Disassembler.InstructionSet(image.architecture) else { return nil }
        return try MachOReader.withImage(image.identity) { machO, file in
            let layout = MachOCodeLayout(image: machO, file: file)
            let sections = layout.code.map { CodeBytes(address: $0.section.address, fileOffset: $0.fileOffset, bytes: $0.bytes) }
            let regions = CodeRegions(functions: layout.functions, sections: sections)
            return body(
                LaidOutCode(layout: layout, architecture: architecture, regions: regions) { index, pass in
                    pass(sections[index].bytes) { _ in }
                })
        }
    }
}
