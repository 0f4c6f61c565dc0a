import CByteScan

/// What a byte scan looks for at one address: whether a transfer there
/// seeds the search (it reaches an import, selector or function of
/// interest) and which of the image's functions it reaches, if any.
struct TargetMark: Equatable {
    /// `LINKCHECK_MARK_SEED` (bit 31): a seed; bits 0–30: the function's
    /// index + 1 (0: none).
    private(set) var raw: UInt32

    static let none = TargetMark(raw: 0)

    init(seed: Bool, function: Int?) {
        raw = (seed ? LINKCHECK_MARK_SEED : 0) | (function.map { UInt32(truncatingIfNeeded: $0 + 1) & 0x7fff_ffff } ?? 0)
    }

    init(raw: UInt32) { self.raw = raw }

    var isSeed: Bool { raw & LINKCHECK_MARK_SEED != 0 }

    var function: Int? {
        let value = raw & 0x7fff_ffff
        return value == 0 ? nil : Int(value) - 1
    }

    /// Both marks': a seed when either is, the first one's function.
    func merged(with other: TargetMark) -> TargetMark {
        TargetMark(seed: isSeed || other.isSeed, function: function ?? other.function)
    }
}

/// Addresses and their marks in an open-addressing hash table (linear
/// probing, a multiplicative hash) that the byte scans look addresses up
/// in (`linkcheck_address_mark`, CByteScan): faster than a `Dictionary`,
/// and a range test, then a bitmap of the blocks of address space that hold
/// a key, rule most addresses out before any lookup.
final class AddressTable {
    private let keys: UnsafeMutablePointer<UInt64>
    private let marks: UnsafeMutablePointer<UInt32>
    private let blocks: UnsafeMutablePointer<UInt64>
    /// The table as the C scans read it (valid while this object lives).
    let table: linkcheck_address_table

    /// 16 bytes a bit of the bitmap: x86_64 compilers start functions on
    /// 16-byte boundaries, so a block rarely holds more than one; the bitmap
    /// is then 1/128 of the keys' span in bytes.
    private static let smallestBlockShift: UInt64 = 4
    /// At most 2^23 bits (1 MiB) of bitmap, the blocks growing for a wider
    /// span (a file's addresses can spread over all 64 bits).
    private static let largestBlockCount: UInt64 = 1 << 23

    /// An address never used as a key (no instruction transfers there).
    private static let empty = UInt64.max

    /// A table of `entries`; a mark given again for an address is merged
    /// into the first (``TargetMark/merged(with:)``), and ``TargetMark/none``
    /// marks are left out.
    init(_ entries: [(address: UInt64, mark: TargetMark)]) {
        var low = UInt64.max
        var high: UInt64 = 0
        var filled = 0
        for (key, mark) in entries where key != Self.empty && mark != .none {
            low = min(low, key)
            high = max(high, key)
            filled += 1
        }
        var bits: UInt64 = 4
        while 1 << bits < filled * 2 { bits += 1 }
        let capacity = 1 << Int(bits)
        let mask = capacity - 1
        keys = .allocate(capacity: capacity)
        keys.initialize(repeating: Self.empty, count: capacity)
        marks = .allocate(capacity: capacity)
        marks.initialize(repeating: 0, count: capacity)
        if filled == 0 { low = 0 }
        let span = filled == 0 ? 0 : high - low + 1
        var blockShift = Self.smallestBlockShift
        while span >> blockShift > Self.largestBlockCount { blockShift += 1 }
        let blockCount = Int((span >> blockShift) / 64 + 1)
        blocks = .allocate(capacity: blockCount)
        blocks.initialize(repeating: 0, count: blockCount)
        for (key, mark) in entries where key != Self.empty && mark != .none {
            let block = (key - low) >> blockShift
            blocks[Int(block / 64)] |= 1 << (block % 64)
            var slot = Int(truncatingIfNeeded: (key &* 0x9e37_79b9_7f4a_7c15) >> (64 - bits))
            while keys[slot] != Self.empty && keys[slot] != key { slot = (slot + 1) & mask }
            if keys[slot] == key {
                marks[slot] = TargetMark(raw: marks[slot]).merged(with: mark).raw
            } else {
                keys[slot] = key
                marks[slot] = mark.raw
            }
        }
        table = linkcheck_address_table(
            keys: keys, marks: marks, mask: UInt64(mask), shift: UInt32(64 - bits), low: low, span: span, blocks: blocks,
            block_shift: UInt32(blockShift))
    }

    deinit {
        keys.deallocate()
        marks.deallocate()
        blocks.deallocate()
    }
}
