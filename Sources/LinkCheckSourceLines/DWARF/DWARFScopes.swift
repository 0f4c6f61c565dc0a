/// The function entries around addresses in one unit: a walk of the unit's
/// entry tree that finds, for each address, the innermost
/// `DW_TAG_subprogram` or `DW_TAG_inlined_subroutine` whose address ranges
/// hold it, and the entries it is nested in.
enum DWARFScopes {
    /// For each of `addresses` (sorted) that a function entry of `unit`
    /// holds, that entry and the `DW_TAG_inlined_subroutine`s it is nested
    /// in, innermost first, out to the `DW_TAG_subprogram` that holds them,
    /// as `llvm-symbolizer` chains them: the holding entry is the last one
    /// in the tree's order whose ranges hold the address (an entry's
    /// children come after it, so an inlined call wins over its function),
    /// and the chain follows the tree, whether or not the outer entries'
    /// ranges hold the address (a Swift closure's entry sits inside the
    /// function that defines it).
    ///
    /// The tree is walked once, in order, without recursion: a stack holds
    /// the open entries with children (at most one per entry the unit's
    /// bytes hold). Each function entry's ranges are read.
    ///
    /// - Throws: ``DWARFError`` when an entry or a range list cannot be
    ///   read.
    static func functions(around addresses: [UInt64], in unit: DWARFUnit) throws(DWARFError) -> [UInt64: [DWARFEntry]] {
        guard unit.root.hasChildren, !addresses.isEmpty else { return [:] }
        var cursor = try unit.entries(from: unit.header.entriesOffset)
        _ = try DWARFEntry.read(at: &cursor, unit: unit.header, abbreviations: unit.abbreviations)  // the unit entry
        // The open entries, outermost first: function entries, and nil for
        // the others (the unit entry's place included).
        var open: [DWARFEntry?] = [nil]
        var found: [UInt64: [DWARFEntry]] = [:]
        while !open.isEmpty, !cursor.isAtEnd {
            guard let entry = try DWARFEntry.read(at: &cursor, unit: unit.header, abbreviations: unit.abbreviations) else {
                open.removeLast()
                continue
            }
            if entry.isFunction {
                var chain: [DWARFEntry]?
                for range in try unit.ranges(of: entry) {
                    var index = firstIndex(in: addresses, notBelow: range.lowerBound)
                    while index < addresses.count && addresses[index] < range.upperBound {
                        if chain == nil { chain = Self.chain(from: entry, in: open) }
                        found[addresses[index]] = chain
                        index += 1
                    }
                }
            }
            if entry.hasChildren { open.append(entry.isFunction ? entry : nil) }
        }
        return found
    }

    /// `entry`, then the inlined subroutines among the open entries around
    /// it, innermost first, up to and with the first subprogram.
    private static func chain(from entry: DWARFEntry, in open: [DWARFEntry?]) -> [DWARFEntry] {
        var chain = [entry]
        var index = open.count
        while chain.last?.tag != DWARFEntry.subprogram && index > 0 {
            index -= 1
            if let outer = open[index] { chain.append(outer) }
        }
        return chain
    }

    /// The index of the first of `sorted` that is at least `value`
    /// (`sorted.count` when none is).
    private static func firstIndex(in sorted: [UInt64], notBelow value: UInt64) -> Int {
        var (low, high) = (0, sorted.count)
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
