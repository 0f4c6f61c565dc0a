import LinkCheckImage

/// Finds what a ``CallSiteInterest`` asks for while decoding only the
/// regions that can hold it (``CallSiteMode/targeted``):
///
/// 1. one byte scan of all code (``TransferScan``) for the places that may
///    reach the targets: the stubs and slots of the imports of interest,
///    the selector references and `objc_msgSend$sel` stubs of the
///    selectors of interest, the string literals of interest, the
///    functions of interest, and every function of the image (for call
///    paths);
/// 2. the regions with a place that reaches an import, selector, literal
///    or function of interest are decoded: their call sites and references
///    are the kept ones;
/// 3. for each caller of a kept call site that ``CallSiteInterest/reachedFrom``
///    asks about, its callees are decoded, to the interest's depth;
/// 4. for each caller of a kept call site or reference, the breadth-first
///    search of ``CodeIndex/pathFromExported(to:)`` runs here, asking for the callers
///    of each function it reaches: the regions with a place that reaches
///    the function are decoded, and a region's function is a caller when
///    decoding it finds the call; on aarch64 a direct branch to the
///    function is that call, with no decoding (``linkcheck_places``).
///
/// Every region is decoded whole and at most once, with the scanner the
/// full sweep uses, so each region's call sites are the sweep's; the index
/// then answers each question the check asks as the full index does.
struct TargetedCallSearch<Layout: CodeLayout> {
    let layout: Layout
    let architecture: Disassembler.InstructionSet
    let regions: CodeRegions
    let interest: CallSiteInterest
    let disassembler: Disassembler
    let builder: CodeIndex.Builder

    /// By section: the starts of the regions decoded.
    private var decoded: [Set<UInt64>]
    /// Regions decoded since the code's pages were last given back.
    private var decodedSinceRelease = 0
    /// Function → the functions it calls, from its regions decoded.
    private var calleesOf: [Int: Set<Int>] = [:]
    /// By function: its callers (ascending), once every region that may
    /// call it is decoded.
    private var callersOf: [[Int32]?]
    private var scanner: CallScanner<Layout>
    private let sites = SiteBuffer()

    init(
        layout: Layout, architecture: Disassembler.InstructionSet, regions: CodeRegions, interest: CallSiteInterest,
        disassembler: Disassembler, builder: CodeIndex.Builder
    ) {
        self.layout = layout
        self.architecture = architecture
        self.regions = regions
        self.interest = interest
        self.disassembler = disassembler
        self.builder = builder
        decoded = regions.sections.map { _ in [] }
        callersOf = Array(repeating: nil, count: layout.functions.count)
        let sites = self.sites
        scanner = CallScanner(
            image: layout, architecture: architecture,
            record: { site in
                builder.add(site)
                sites.items.append(site)
            }, reference: builder.add)
    }

    /// The sites of the region being decoded.
    private final class SiteBuffer {
        var items: [CallSite] = []
    }

    mutating func run(pass: SectionPass) {
        let scan = makeScan()
        for index in regions.sections.indices {
            pass(index) { bytes, release in scan.scan(section: index, bytes: bytes, release: release, regions: regions) }
        }
        scan.finish()
        for seed in scan.seeds { decode(scan.region(seed)) }
        let kept = builder.keptSites
        reachCallees(from: kept)
        let (reaching, branching) = scan.regionsByFunction()
        let slotsByFunction = architecture == .aarch64 ? functionSlots() : [:]
        let callers = Set(kept.compactMap(\.caller) + builder.keptReferences.compactMap(\.caller)).sorted()
        var search = CallerSearch(functionCount: layout.functions.count)
        // A function's callers as found, and the regions (by number) that
        // may call it, kept from one function to the next.
        var found: [Int32] = []
        var candidates: [Int32] = []
        for caller in callers {
            _ = search.shortestPath(to: caller, isEntryPoint: layout.functions.isEntryPoint) { function in
                if let known = callersOf[function] { return known[...] }
                found.removeAll(keepingCapacity: true)
                candidates.removeAll(keepingCapacity: true)
                let branchesAreCalls = branchesAreCalls(to: function)
                for number in branching[function] {
                    guard let caller = scan.function(ofRegion: number), caller != function else { continue }
                    if branchesAreCalls,
                        CallScanner<Layout>.recordsTransfer(in: caller, toStartOf: function, tail: true, functions: layout.functions)
                    {
                        builder.addEdge(from: caller, to: function)
                        found.append(Int32(caller))
                    } else {
                        candidates.append(number)
                    }
                }
                candidates += reaching[function]
                for slot in slotsByFunction[function] ?? [] { candidates += scan.regions(reachingSlot: slot) }
                for number in candidates {
                    guard let caller = scan.function(ofRegion: number), caller != function else { continue }
                    if !builder.hasEdge(from: caller, to: function) { decode(scan.region(number)) }
                    if builder.hasEdge(from: caller, to: function) { found.append(Int32(caller)) }
                }
                found.sort()
                var sorted: [Int32] = []
                sorted.reserveCapacity(found.count)
                for caller in found where sorted.last != caller { sorted.append(caller) }
                callersOf[function] = sorted
                return sorted[...]
            }
        }
    }

    /// The scan's targets: each function's start (a seed when the
    /// function is of interest), each stub and slot by what it reaches
    /// (a seed for an import of interest or one whose calls are reached,
    /// an `objc_msgSend$sel` stub of a selector of interest), the
    /// selector references of the selectors of interest, and the addresses
    /// of the literals of interest (found as slots are: an `adrp` near
    /// them, a RIP-relative operand at them).
    private func makeScan() -> TransferScan {
        let stubs = layout.allStubs
        var direct: [(address: UInt64, mark: TargetMark)] = []
        direct.reserveCapacity(layout.functions.count + stubs.count)
        for (index, function) in layout.functions.entries.enumerated() {
            direct.append((function.address, TargetMark(seed: builder.kept[index], function: index)))
        }
        for (address, stub) in stubs {
            var mark = mark(stub.callee)
            if let selector = stub.selector, interest.selectors(selector) {
                mark = mark.merged(with: TargetMark(seed: true, function: nil))
            }
            direct.append((address, mark))
        }
        var slots: [UInt64: TargetMark] = [:]
        for (address, callee) in layout.allPointerSlots { slots[address] = mark(callee) }
        for (address, selector) in layout.allSelectorReferences where interest.selectors(selector) {
            slots[address] = (slots[address] ?? .none).merged(with: TargetMark(seed: true, function: nil))
        }
        for address in layout.addresses(ofLiterals: interest.literals) {
            slots[address] = (slots[address] ?? .none).merged(with: TargetMark(seed: true, function: nil))
        }
        return TransferScan(architecture: architecture, direct: direct, slots: slots, functionCount: layout.functions.count)
    }

    private func mark(_ callee: CallSite.Callee) -> TargetMark {
        switch callee {
        case .imported(let name): TargetMark(seed: builder.isKept(name) || interest.reached(name), function: nil)
        case .function(let index): TargetMark(seed: builder.kept[index], function: index)
        }
    }

    /// Whether the aarch64 direct branches to `callee`'s start, or to a
    /// stub that reaches `callee` (``linkcheck_places``'s `branching`),
    /// are calls the scanner records when it decodes them, whatever the
    /// branch, from a caller that `callee` does not start inside
    /// (``CallScanner/recordsTransfer(in:toStartOf:tail:functions:)``): a
    /// stub's call always is, and so is a branch to a function's start unless
    /// the address is also a stub's. Calls of a function whose calls are
    /// kept are decoded.
    private func branchesAreCalls(to callee: Int) -> Bool {
        !builder.kept[callee] && layout.stub(at: layout.functions[callee].address) == nil
    }

    /// aarch64: each function's pointer slots.
    private func functionSlots() -> [Int: [UInt64]] {
        var slots: [Int: [UInt64]] = [:]
        for (address, callee) in layout.allPointerSlots {
            if case .function(let index) = callee { slots[index, default: []].append(address) }
        }
        return slots
    }

    /// Decodes the callees of the callers of the kept calls that the
    /// interest asks ``CodeIndex/importsReached(from:depth:)`` about, to
    /// one level short of its depth: the last level's calls to reached
    /// imports are in regions the scan seeded.
    private mutating func reachCallees(from kept: [CallSite]) {
        var level = Set(
            kept.compactMap { site -> Int? in
                guard case .imported(let name) = site.callee, interest.reachedFrom(name) else { return nil }
                return site.caller
            })
        var seen = level
        for _ in 0..<interest.reachDepth {
            var next = Set<Int>()
            for function in level.sorted() {
                decodeFunction(function)
                for callee in calleesOf[function] ?? [] where seen.insert(callee).inserted { next.insert(callee) }
            }
            level = next
        }
    }

    /// Decodes every region of `function`.
    private mutating func decodeFunction(_ function: Int) {
        let symbol = layout.functions[function]
        for index in regions.sections.indices {
            let section = regions.sections[index]
            let first = max(symbol.address, section.address)
            guard first < section.end, first - symbol.address < max(symbol.size, 1) else { continue }
            let region = regions.region(containing: first, in: index)
            if region.function == function { decode(region) }
        }
    }

    /// Decodes `region` unless it is decoded already, giving back the code's
    /// pages every ``CodeIndex/regionsBetweenReleases`` regions: regions lie
    /// all over a large library's code, and each is decoded once.
    private mutating func decode(_ region: CodeRegion) {
        guard decoded[region.section].insert(region.start).inserted else { return }
        decodedSinceRelease += 1
        if decodedSinceRelease >= CodeIndex.regionsBetweenReleases {
            decodedSinceRelease = 0
            regions.giveBackPages()
        }
        let section = regions.sections[region.section]
        sites.items.removeAll(keepingCapacity: true)
        scanner.begin(region)
        disassembler.decode(region, of: section) { instruction in
            scanner.visit(instruction, sectionOffset: section.fileOffset, sectionAddress: section.address)
        }
        guard let function = region.function else { return }
        for site in sites.items {
            if case .function(let callee) = site.callee, callee != function { calleesOf[function, default: []].insert(callee) }
        }
    }
}
