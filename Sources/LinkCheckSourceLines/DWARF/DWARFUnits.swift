/// The units of `.debug_info`, opened when first needed and kept: the
/// covering units the lookup reads, and the units that a function entry's
/// `DW_AT_abstract_origin` or `DW_AT_specification` refers into.
struct DWARFUnits {
    /// Every unit's header, in section order (so by offset).
    let headers: [DWARFUnitHeader]
    let sections: DWARFSections
    /// The units opened so far, by index in ``headers``; `nil` for a unit
    /// without an entry.
    private var opened: [Int: DWARFUnit?] = [:]

    /// At most this many entries are visited for one function's name: the
    /// entry and those its `DW_AT_abstract_origin` and
    /// `DW_AT_specification` lead to.
    static let nameSearchLimit = 16

    init(headers: [DWARFUnitHeader], sections: DWARFSections) {
        (self.headers, self.sections) = (headers, sections)
    }

    /// The unit with index `index` in ``headers``, opened.
    mutating func unit(_ index: Int) throws(DWARFError) -> DWARFUnit? {
        if let unit = opened[index] { return unit }
        let unit = try DWARFUnit.open(headers[index], in: sections)
        opened[index] = unit
        return unit
    }

    /// The entry at `offset` (in bytes from the beginning of
    /// `.debug_info`) and its unit; `nil` for a null entry.
    ///
    /// - Throws: ``DWARFError/Problem/outOfRange(target:offset:size:)`` when
    ///   no unit holds the offset.
    mutating func entry(at offset: UInt64) throws(DWARFError) -> (entry: DWARFEntry, unit: DWARFUnit)? {
        var (low, high) = (0, headers.count)
        while low < high {
            let middle = (low + high) / 2
            if headers[middle].endOffset <= offset { low = middle + 1 } else { high = middle }
        }
        guard low < headers.count, offset >= headers[low].entriesOffset else {
            throw DWARFError(
                section: .info, offset: offset,
                problem: .outOfRange(target: .info, offset: offset, size: UInt64(sections.bytes[.info]?.count ?? 0)))
        }
        guard let unit = try unit(low), let entry = try unit.entry(at: offset) else { return nil }
        return (entry, unit)
    }

    /// A function entry's name as `llvm-symbolizer` gives it: the first
    /// `DW_AT_linkage_name` (or `DW_AT_MIPS_linkage_name`) of the entry and
    /// the entries its `DW_AT_abstract_origin` and `DW_AT_specification`
    /// lead to, else the first `DW_AT_name` of them; `nil` when none has
    /// one.
    mutating func name(of entry: DWARFEntry, in unit: DWARFUnit) throws(DWARFError) -> String? {
        var (pending, visited) = ([(entry, unit)], Set<UInt64>())
        var related: [(entry: DWARFEntry, unit: DWARFUnit)] = []
        while related.count < Self.nameSearchLimit, let item = pending.popLast() {
            let next = item.0
            guard visited.insert(next.offset).inserted else { continue }
            related.append(item)
            for target in [next.abstractOrigin, next.specification].compactMap({ $0 }) {
                if let found = try self.entry(at: target) { pending.append(found) }
            }
        }
        for (named, namedUnit) in related {
            if let location = named.linkageName { return try namedUnit.string(location) }
        }
        for (named, namedUnit) in related {
            if let location = named.name { return try namedUnit.string(location) }
        }
        return nil
    }
}
