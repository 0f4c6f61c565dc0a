import CByteScan
import SystemInterface

/// A byte scan of code, without decoding, for every place an instruction
/// may transfer control to a target (``AddressTable``: function starts and
/// stubs; pointer slots and selector references), noting the region
/// (``CodeRegion``) each such place is in. It finds a superset of what
/// decoding finds: every call the scanner records lies in a region the scan
/// notes for its target, and decoding that region tells a call from bytes
/// that only look like one (an `E8` inside another instruction).
///
/// What it looks for (the only ways ``CallScanner`` reaches a target), with
/// the loops in C (`linkcheck_scan_x86`, `linkcheck_scan_arm64`):
///
/// - x86_64: `E8`/`E9` and `0F 80`–`8F` (`jcc`) with a rel32 (and the
///   rel16 that an operand-size prefix makes, whose target wraps at 64 KiB),
///   `EB` and `70`–`7F` (`jcc`) with a rel8, to a function start or stub; a RIP-relative operand (ModRM `mod` 00, `r/m`
///   101, then disp32) that addresses a slot: `call`/`jmp *slot(%rip)` and
///   the `mov reg, slot(%rip)` a register call or a message send's selector
///   comes from. An instruction is at most 15 bytes, so the place may lie in
///   the region after the one the instruction starts in: then both are noted.
/// - aarch64, one aligned word at a time from each region's start: `bl`/`b`,
///   `b.cond`, `cbz`/`cbnz` and `tbz`/`tbnz` to a function start or stub; `ldr` (literal) from a slot; `adrp` to a
///   page, or `adr` to an address, within ``reach`` of a slot (the scanner
///   adds an `add`'s 12-bit immediate and a load's offset to them).
final class TransferScan {
    let architecture: Disassembler.InstructionSet
    /// Function starts and stubs.
    private let direct: AddressTable
    /// Pointer slots, selector references, and string literals of interest
    /// (code makes a literal's address as it makes a slot's).
    private let slots: AddressTable
    /// aarch64: the slots that seed the search, sorted.
    private let seedSlots: [UInt64]
    /// aarch64: the slots that hold a function of the image, sorted.
    private let functionSlots: [UInt64]
    /// aarch64: both, sorted.
    private let windowSlots: [UInt64]

    /// The start of each region of the sections scanned, by region number.
    private var regionStarts: [UInt64] = []
    /// The end of each region, by region number.
    private var regionEnds: [UInt64] = []
    /// The function of each region, by region number (-1: none).
    private var regionFunctions: [Int32] = []
    /// The section of each region number: sections in order, each from its
    /// first region number.
    private var sectionFirstRegions: [(section: Int, first: Int)] = []
    /// Regions with a place that reaches a seed, by number (ascending, each
    /// once).
    private(set) var seeds: [Int32] = []
    /// What the C scans note as they go (``linkcheck_places``): the pairs
    /// of a function and a region with a place that reaches it, kept off
    /// the Swift heap's bookkeeping (a large library has millions of calls,
    /// each a place), and the region of the last place.
    private let places: UnsafeMutablePointer<linkcheck_places>
    /// How many functions the image has.
    private let functionCount: Int
    /// Whether ``regionsByFunction()`` has sorted the pairs and let them go.
    private var pairsGivenBack = false
    /// aarch64: the places that may reach a function slot, as the range of
    /// addresses they may reach.
    private var windows: [Window] = []

    struct Window {
        var region: Int32
        var low: UInt64
        var high: UInt64
    }

    /// How far past an `adrp`'s page (or an `adr`'s address) the scanner's
    /// arithmetic is taken to reach: an `add` of a 12-bit immediate and a
    /// 64-bit load's scaled 12-bit offset reach 36 KiB; 64 KiB allows more
    /// `add`s than compilers emit for one address.
    static let reach: UInt64 = 1 << 16

    /// How many bytes the scan goes through between two page releases.
    static let releaseInterval = 4 << 20

    // The section being scanned.
    private var sectionAddress: UInt64 = 0
    private var bytes: UnsafeBufferPointer<UInt8> = UnsafeBufferPointer(start: nil, count: 0)
    private var firstRegion: Int32 = 0

    /// A scan for `direct` (the first of an address's marks merged with
    /// the later ones) and `slots`.
    init(
        architecture: Disassembler.InstructionSet, direct: [(address: UInt64, mark: TargetMark)], slots: [UInt64: TargetMark],
        functionCount: Int
    ) {
        self.architecture = architecture
        self.direct = AddressTable(direct)
        self.slots = AddressTable(slots.map { ($0.key, $0.value) })
        seedSlots = slots.filter { $0.value.isSeed }.keys.sorted()
        functionSlots = slots.filter { $0.value.function != nil }.keys.sorted()
        windowSlots = Set(seedSlots + functionSlots).sorted()
        self.functionCount = functionCount
        places = .allocate(capacity: 1)
        places.initialize(to: linkcheck_places())
        places.pointee.function_count = functionCount
        for pairs in [\linkcheck_places.reaching, \.branching] {
            let lastPaired = UnsafeMutablePointer<Int32>.allocate(capacity: functionCount)
            lastPaired.initialize(repeating: -1, count: functionCount)
            places.pointee[keyPath: pairs].last_paired = lastPaired
        }
    }

    deinit {
        for pairs in [places.pointee.reaching, places.pointee.branching] {
            free(pairs.pairs)
            pairs.last_paired.deallocate()
        }
        places.deallocate()
    }

    /// Scans the bytes of section `section` of `regions`, calling `release`
    /// with the count of bytes behind every ``releaseInterval`` bytes.
    func scan(section: Int, bytes: UnsafeRawBufferPointer, release: (Int) -> Void, regions: CodeRegions) {
        sectionFirstRegions.append((section, regionStarts.count))
        firstRegion = Int32(regionStarts.count)
        // Appended to outside the object: no access to it is checked for
        // each region (a large library has millions).
        var (starts, ends, functions) = (regionStarts, regionEnds, regionFunctions)
        (regionStarts, regionEnds, regionFunctions) = ([], [], [])
        regions.forEachRegion(in: section) { region in
            starts.append(region.start)
            ends.append(region.end)
            functions.append(region.function.map(Int32.init) ?? -1)
        }
        (regionStarts, regionEnds, regionFunctions) = (starts, ends, functions)
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), regionStarts.count > firstRegion else { return }
        let bounds = regions.sections[section]
        self.bytes = UnsafeBufferPointer(start: base, count: min(bytes.count, Int(bounds.end - bounds.address)))
        sectionAddress = bounds.address
        var direct = self.direct.table
        var slots = self.slots.table
        regionStarts.withUnsafeBufferPointer { starts in
            let sectionStarts = UnsafeBufferPointer(rebasing: starts[Int(firstRegion)...])
            places.pointee.context = Unmanaged.passUnretained(self).toOpaque()
            places.pointee.found = Self.found
            places.pointee.region_starts = sectionStarts.baseAddress
            places.pointee.region_count = sectionStarts.count
            places.pointee.region = 0
            places.pointee.first_number = firstRegion
            switch architecture {
            case .x86_64:
                var from = 0
                while from < self.bytes.count {
                    let to = min(from + Self.releaseInterval, self.bytes.count)
                    linkcheck_scan_x86(
                        base, self.bytes.count, from, to, bounds.address, &direct, &slots, direct.low < 0x10000 ? 1 : 0, places)
                    release(to)
                    from = to
                }
            case .aarch64:
                var released = 0
                windowSlots.withUnsafeBufferPointer { windowSlots in
                    for (index, start) in sectionStarts.enumerated() {
                        let end = index + 1 < sectionStarts.count ? sectionStarts[index + 1] : bounds.end
                        places.pointee.region = index
                        let from = Int(start - bounds.address)
                        linkcheck_scan_arm64(
                            base, self.bytes.count, from, Int(end - bounds.address), bounds.address, &direct, &slots,
                            windowSlots.baseAddress, windowSlots.count, Self.reach, places)
                        if from - released >= Self.releaseInterval {
                            release(from)
                            released = from
                        }
                    }
                }
            }
            places.pointee.region_starts = nil
        }
        // Notes for a region and the one before it can come in either order.
        if let start = seeds.firstIndex(where: { $0 >= firstRegion }) {
            seeds.replaceSubrange(start..., with: Set(seeds[start...]).sorted())
        }
    }

    private static let found: linkcheck_place_found = { context, offset, kind, mark, low, high in
        Unmanaged<TransferScan>.fromOpaque(context!).takeUnretainedValue().place(offset, kind, TargetMark(raw: mark), low, high)
    }

    /// A place the C scan calls back for (a seed, or a window), at `offset`
    /// in the section, in the region it has moved to.
    private func place(_ offset: Int, _ kind: linkcheck_place_kind, _ mark: TargetMark, _ low: UInt64, _ high: UInt64) {
        let number = firstRegion + Int32(places.pointee.region)
        if kind == linkcheck_place_window {
            if Self.anyAddress(in: seedSlots, low, high), seeds.last != number { seeds.append(number) }
            if Self.anyAddress(in: functionSlots, low, high) { windows.append(Window(region: number, low: low, high: high)) }
            return
        }
        note(mark, number)
        let regionStart = Int(regionStarts[Int(number)] - sectionAddress)
        if architecture == .x86_64, number > firstRegion,
            linkcheck_x86_may_start_before(bytes.baseAddress, regionStart, offset, kind == linkcheck_place_direct ? 1 : 0) != 0
        {
            note(mark, number - 1)
        }
    }

    private func note(_ mark: TargetMark, _ region: Int32) {
        if mark.isSeed, seeds.last != region { seeds.append(region) }
        if let function = mark.function { linkcheck_note_pair(places, &places.pointee.reaching, UInt32(function), region) }
    }

    /// The region with number `number`: as the walk over the regions of
    /// its section gave it (``CodeRegions/forEachRegion(in:_:)``).
    func region(_ number: Int32) -> CodeRegion {
        let number = Int(number)
        let section = sectionFirstRegions.last { $0.first <= number }!.section
        return CodeRegion(
            section: section, start: regionStarts[number], end: regionEnds[number], function: function(ofRegion: Int32(number)))
    }

    /// The function of the region with number `number`, or `nil`.
    func function(ofRegion number: Int32) -> Int? {
        let function = regionFunctions[Int(number)]
        return function < 0 ? nil : Int(function)
    }

    /// By function, once the scan is over: the regions with a place that
    /// may reach it (decoding a region tells whether it is a call), and,
    /// on aarch64, those with a direct branch to it (a call or a tail call
    /// as it is: ``linkcheck_places``). The pairs are given back: call once.
    func regionsByFunction() -> (reaching: FunctionLists, branching: FunctionLists) {
        precondition(!pairsGivenBack, "the pairs are sorted once")
        pairsGivenBack = true
        return (regions(of: \.reaching), regions(of: \.branching))
    }

    /// The pairs of `list` by function; frees them.
    private func regions(of list: WritableKeyPath<linkcheck_places, linkcheck_pairs>) -> FunctionLists {
        let found = places.pointee[keyPath: list]
        defer {
            free(found.pairs)
            places.pointee[keyPath: list].pairs = nil
            places.pointee[keyPath: list].count = 0
            places.pointee[keyPath: list].capacity = 0
        }
        let pairs = UnsafeBufferPointer(start: found.pairs, count: found.count)
        return FunctionLists(
            count: functionCount,
            pairs: pairs.lazy.map { (owner: Int32(truncatingIfNeeded: $0 >> 32), member: Int32(truncatingIfNeeded: $0)) })
    }

    /// aarch64: the regions with a place that may reach the slot at
    /// `address`. Call ``finish()`` first.
    func regions(reachingSlot address: UInt64) -> [Int32] {
        let longest = Self.reach + 256
        let from = address >= longest ? address - longest : 0
        var (low, high) = (0, windows.count)
        while low < high {
            let middle = (low + high) / 2
            if windows[middle].low < from { low = middle + 1 } else { high = middle }
        }
        var found: [Int32] = []
        while low < windows.count, windows[low].low <= address {
            if windows[low].high > address { found.append(windows[low].region) }
            low += 1
        }
        return found
    }

    /// Sorts what the scan found for the queries; call once at the end.
    func finish() {
        windows.sort { $0.low < $1.low }
    }

    private static func anyAddress(in sorted: [UInt64], _ low: UInt64, _ high: UInt64) -> Bool {
        var (lower, upper) = (0, sorted.count)
        while lower < upper {
            let middle = (lower + upper) / 2
            if sorted[middle] < low { lower = middle + 1 } else { upper = middle }
        }
        return lower < sorted.count && sorted[lower] < high
    }
}
