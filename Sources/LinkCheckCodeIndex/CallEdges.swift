/// The edges of an image's call graph as ``CodeIndex/Builder`` collects
/// them: each (caller, callee) pair of function indices (`0..<2³¹`) once.
///
/// An open-addressing hash table of `caller << 32 | callee` keys (linear
/// probing, Fibonacci hashing, at most half full): an app's code gives
/// hundreds of thousands of edges, for which a `Set<Int64>` (SipHash on
/// every insertion and lookup) cost about 450 instructions an insertion.
struct CallEdges {
    /// The keys, `-1` for an empty slot; a power of two of them.
    private var slots = [Int64](repeating: -1, count: 1024)
    /// `64 - log2(slots.count)`: a key's hash is the top bits of its
    /// product with 2⁶⁴/φ.
    private var shift: UInt64 = 54
    /// How many edges the table holds.
    private(set) var count = 0

    /// Whether the table holds the call of `callee` by `caller`.
    func contains(from caller: Int, to callee: Int) -> Bool {
        let key = Self.key(caller, callee)
        let mask = slots.count - 1
        var index = slot(of: key)
        while true {
            let held = slots[index]
            if held == key { return true }
            if held < 0 { return false }
            index = (index + 1) & mask
        }
    }

    /// Adds the call of `callee` by `caller` unless the table holds it.
    mutating func insert(from caller: Int, to callee: Int) {
        if (count + 1) * 2 > slots.count { grow() }
        let key = Self.key(caller, callee)
        let mask = slots.count - 1
        var index = slot(of: key)
        while true {
            let held = slots[index]
            if held == key { return }
            if held < 0 {
                slots[index] = key
                count += 1
                return
            }
            index = (index + 1) & mask
        }
    }

    /// Every edge as `caller << 32 | callee`, ascending (by caller, then
    /// callee): a counting sort by caller, then each caller's callees
    /// sorted (callers numbered far past the edges' count: one sort).
    func sorted() -> [Int64] {
        let keys = slots.filter { $0 >= 0 }
        guard let largest = keys.max() else { return [] }
        let callers = Int(largest >> 32) + 1
        guard callers <= 4 * keys.count + 1024 else { return keys.sorted() }
        var starts = [Int](repeating: 0, count: callers + 1)
        for key in keys { starts[Int(key >> 32) + 1] += 1 }
        for caller in 0..<callers { starts[caller + 1] += starts[caller] }
        var next = starts
        var sorted = [Int64](repeating: 0, count: keys.count)
        for key in keys {
            let caller = Int(key >> 32)
            sorted[next[caller]] = key
            next[caller] += 1
        }
        sorted.withUnsafeMutableBufferPointer { sorted in
            for caller in 0..<callers where starts[caller + 1] - starts[caller] > 1 {
                var callees = UnsafeMutableBufferPointer(rebasing: sorted[starts[caller]..<starts[caller + 1]])
                guard callees.count <= 16 else {
                    callees.sort()
                    continue
                }
                // Few callees: an insertion sort.
                for index in 1..<callees.count {
                    let key = callees[index]
                    var place = index
                    while place > 0, callees[place - 1] > key {
                        callees[place] = callees[place - 1]
                        place -= 1
                    }
                    callees[place] = key
                }
            }
        }
        return sorted
    }

    private static func key(_ caller: Int, _ callee: Int) -> Int64 {
        Int64(caller) << 32 | Int64(callee)
    }

    private func slot(of key: Int64) -> Int {
        Int(truncatingIfNeeded: (UInt64(bitPattern: key) &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    /// Doubles the table, placing every key again.
    private mutating func grow() {
        let old = slots
        slots = [Int64](repeating: -1, count: old.count * 2)
        shift -= 1
        let mask = slots.count - 1
        for key in old where key >= 0 {
            var index = slot(of: key)
            while slots[index] >= 0 { index = (index + 1) & mask }
            slots[index] = key
        }
    }
}
