import LinkCheckImage
import LinkCheckMachO

/// Finds the call sites of a Mach-O image with Capstone: reads its file
/// again (``MachOReader/image(_:)``), lays out its stubs, symbol pointers,
/// Objective-C references and functions (``MachOCodeLayout``), and decodes
/// its code sections (`__TEXT,__text` and the other sections of
/// instructions that are not stubs) with the scanner ELF images use.
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

    /// Analyses the code of `image`, keeping every call site.
    ///
    /// - Returns: `nil` when the image is not analysed (``supports(_:)``).
    /// - Throws: ``InspectionError`` when the file cannot be read, or
    ///   changed since it was inspected.
    static func analyze(_ image: BinaryImage) throws(InspectionError) -> CodeAnalysis? {
        var callSites: [CallSite] = []
        guard let (functions, codeSize) = try scan(image, sinkFor: { _ in { callSites.append($0) } }) else { return nil }
        return CodeAnalysis(functions: functions, callSites: callSites, codeSize: codeSize)
    }

    /// Analyses the code of `image`, handing each call site, in address
    /// order, to the sink `sinkFor` makes once the functions are known.
    ///
    /// - Returns: the image's functions and the bytes of code decoded;
    ///   `nil` when the image is not analysed.
    /// - Throws: as ``analyze(_:)``.
    static func scan(
        _ image: BinaryImage, sinkFor: ([FunctionSymbol]) -> (CallSite) -> Void
    ) throws(InspectionError) -> (functions: [FunctionSymbol], codeSize: Int)? {
        guard supports(image), let architecture = Disassembler.InstructionSet(image.architecture),
              let disassembler = Disassembler(architecture)
        else { return nil }
        let (machO, contents) = try MachOReader.image(image.identity)
        return contents.withUnsafeBytes { file in
            let layout = MachOCodeLayout(image: machO, file: file)
            var scanner = CallScanner(image: layout, architecture: architecture, record: sinkFor(layout.functions))
            var codeSize = 0
            for code in layout.code {
                codeSize += code.bytes.count
                disassembler.decode(code.bytes, at: code.section.address) { instruction in
                    scanner.visit(instruction, sectionOffset: code.fileOffset, sectionAddress: code.section.address)
                }
            }
            return (layout.functions, codeSize)
        }
    }
}
