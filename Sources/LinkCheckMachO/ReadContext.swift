import LinkCheckImage

/// What the passes over section contents (stubs, symbol pointers,
/// Objective-C references, string literals) share: the image's bytes,
/// sections, symbols and fixups, and how to tell what a pointer slot holds.
struct ReadContext {
    let image: ByteReader
    let header: MachHeader
    /// Every section, in `n_sect` order.
    let sections: [Section]
    /// The sections whose bytes lie within the image, with their 1-based
    /// numbers, less those whose bytes overlap another's (of two, the one
    /// starting first, or with the lower number, stays): what a pass over
    /// section contents reads, so that section headers that describe the
    /// same bytes again cannot make it read them again. Its work stays within
    /// the image's size.
    let contentSections: [(number: Int, section: Section)]
    let addressSpace: AddressSpace
    let symbols: [NlistSymbol]
    let indirectSymbols: [UInt32]
    let imports: [MachOImport]
    let fixupFormat: MachOFacts.Fixups
    /// Slot address → index of the import bound there (a bind wins over a
    /// weak bind of the same slot).
    let boundImport: [UInt64: Int]
    /// Slot address → the address a rebase there points to.
    let rebaseTarget: [UInt64: UInt64]
    /// Defined symbols by value (``definedSymbol(at:)``).
    private let symbolsByAddress: [UInt64: NlistSymbol]
    /// `MH_OBJECT` relocations, all and by section number and `r_address`.
    private(set) var relocations: [Relocation] = []
    private var relocationIndex: [Int: [UInt32: Relocation]] = [:]

    init(
        image: ByteReader, header: MachHeader, sections: [Section], addressSpace: AddressSpace, symbols: [NlistSymbol],
        indirectSymbols: [UInt32], imports: [MachOImport], bindings: [Binding], rebases: [Rebase],
        fixupFormat: MachOFacts.Fixups, warnings: inout ReadWarnings
    ) {
        self.image = image
        self.header = header
        self.sections = sections
        self.addressSpace = addressSpace
        self.symbols = symbols
        self.indirectSymbols = indirectSymbols
        self.imports = imports
        self.fixupFormat = fixupFormat
        var bound: [UInt64: Int] = [:]
        for binding in bindings {
            if let known = bound[binding.address], imports[known].source != .weakBind { continue }
            bound[binding.address] = binding.importIndex
        }
        boundImport = bound
        var targets: [UInt64: UInt64] = [:]
        for rebase in rebases { if let target = rebase.target { targets[rebase.address] = target } }
        rebaseTarget = targets
        var byAddress: [UInt64: NlistSymbol] = [:]
        for symbol in symbols where symbol.kind == .section {
            if let known = byAddress[symbol.value], known.isExternal || !symbol.isExternal { continue }
            byAddress[symbol.value] = symbol
        }
        symbolsByAddress = byAddress

        var inImage: [(number: Int, section: Section)] = []
        for (index, section) in sections.enumerated() where section.hasFileContents {
            guard image.contains(offset: UInt64(section.fileOffset), size: section.size) else {
                warnings.add(
                    "section \(section.qualifiedName)", at: image.fileOffset &+ Int(section.fileOffset),
                    "its \(section.size) bytes run past the end of the image (\(image.count) bytes); its contents not read")
                continue
            }
            inImage.append((index + 1, section))
        }
        var distinct: [(number: Int, section: Section)] = []
        var end: UInt64 = 0
        for entry in inImage.sorted(by: { ($0.section.fileOffset, $0.number) < ($1.section.fileOffset, $1.number) }) {
            guard UInt64(entry.section.fileOffset) >= end else { continue }
            distinct.append(entry)
            end = UInt64(entry.section.fileOffset) + entry.section.size
        }
        contentSections = distinct.sorted { $0.number < $1.number }
    }

    /// The content sections named `name` (in any segment).
    func contentSections(named name: String) -> [(number: Int, section: Section)] {
        contentSections.filter { $0.section.name == name }
    }

    /// The bytes of a section (one of ``contentSections``).
    func bytes(of section: Section) -> ByteReader {
        image.window(offset: UInt64(section.fileOffset), size: section.size) ?? .empty
    }

    /// Reads the relocation entries of every section (`MH_OBJECT`); a
    /// relocation table that shares bytes with another is read once.
    mutating func readRelocations(warnings: inout ReadWarnings) {
        var seen = Set<UInt32>()
        for (index, section) in sections.enumerated() where section.relocationCount > 0 {
            guard seen.insert(section.relocationsOffset).inserted else { continue }
            let entries = Relocation.readAll(of: section, number: index + 1, in: image, warnings: &warnings)
            relocations.append(contentsOf: entries)
            for entry in entries { relocationIndex[index + 1, default: [:]][entry.offset] = entry }
        }
    }

    /// What the pointer slot at `offset` bytes into section `number` holds.
    func slot(section number: Int, offset: UInt64) -> SlotContent {
        guard let section = number >= 1 && number <= sections.count ? sections[number - 1] : nil else { return .none }
        let address = section.address &+ offset
        if header.fileType == .object {
            let raw = addressSpace.pointer(at: address) ?? 0
            guard let relocation = relocationIndex[number]?[UInt32(truncatingIfNeeded: offset)] else {
                return raw == 0 ? .none : .address(raw)
            }
            if case .symbol(let index) = relocation.target, index < symbols.count {
                let symbol = symbols[index]
                if symbol.kind == .section { return .address(symbol.value &+ raw) }
                return .symbol(index)
            }
            return .address(raw)
        }
        if let bound = boundImport[address] { return .bound(importIndex: bound) }
        if let target = rebaseTarget[address] { return .address(target) }
        guard fixupFormat != .chained, let raw = addressSpace.pointer(at: address), raw != 0 else { return .none }
        return .address(raw)
    }

    /// What the pointer slot at virtual address `address` holds, through
    /// the section that contains it (``slot(section:offset:)``); `.none`
    /// outside every section.
    func slot(at address: UInt64) -> SlotContent {
        guard let index = sections.firstIndex(where: { address >= $0.address && address - $0.address < $0.size }) else { return .none }
        return slot(section: index + 1, offset: address - sections[index].address)
    }

    /// The defined symbol (`N_SECT`) whose value is `address`: the first
    /// external one, else the first.
    func definedSymbol(at address: UInt64) -> NlistSymbol? {
        symbolsByAddress[address]
    }
}

/// What a pointer slot holds.
enum SlotContent: Equatable {
    /// Bound to import `importIndex`.
    case bound(importIndex: Int)
    /// A relocation against symbol-table entry `index` that is not defined
    /// in the file (`MH_OBJECT`).
    case symbol(Int)
    /// The virtual address it points to.
    case address(UInt64)
    /// Nothing known (0, or unreadable).
    case none
}
