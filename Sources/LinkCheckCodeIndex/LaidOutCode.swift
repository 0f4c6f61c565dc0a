import LinkCheckImage

/// An image's code as a call-site analyzer reaches it, whatever its format:
/// its layout (``CodeLayout``: functions, stubs, pointer slots), its
/// instruction set, its code sections cut into regions, and a pass over
/// each section's bytes (``SectionPass``). ``CallSiteAnalyzer`` (ELF) and
/// ``MachOCallSiteAnalyzer`` make it; what is found in it is the same for
/// both.
struct LaidOutCode<Layout: CodeLayout> {
    let layout: Layout
    let architecture: Disassembler.InstructionSet
    let regions: CodeRegions
    let pass: SectionPass

    /// Every call site in the code (all of it decoded); `nil` when Capstone
    /// cannot open the instruction set.
    func analysis() -> CodeAnalysis? {
        guard let disassembler = Disassembler(architecture) else { return nil }
        var callSites: [CallSite] = []
        var scanner = CallScanner(image: layout, architecture: architecture) { callSites.append($0) }
        CodeIndex.sweep(regions, disassembler: disassembler, scanner: &scanner, pass: pass)
        return CodeAnalysis(
            functions: layout.functions.symbols, callSites: callSites, codeSize: regions.sections.reduce(0) { $0 + $1.bytes.count })
    }

    /// The call sites that `interest` asks for, indexed
    /// (``CodeIndex/analyze(_:interest:mode:)``).
    func index(interest: CallSiteInterest, mode: CallSiteMode) -> CodeIndex? {
        CodeIndex.index(layout, architecture: architecture, regions: regions, interest: interest, mode: mode, pass: pass)
    }
}
