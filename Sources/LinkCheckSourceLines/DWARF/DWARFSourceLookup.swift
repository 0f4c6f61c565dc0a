/// The source of addresses from DWARF sections, read by this module's own
/// bounded reader (DWARF 2 to 5, 32- and 64-bit): for Mach-O debug
/// information (a dSYM, the object files of a debug map, an image's own
/// `__DWARF` segment), which the ELF reader's library does not read.
///
/// The unit headers of `.debug_info` are walked; of each compilation or
/// partial unit only the unit entry is read, and its address ranges
/// (`DW_AT_low_pc`/`DW_AT_high_pc`, `DW_AT_ranges`) decide whether it
/// covers an asked address. Only a unit that does has its line table run
/// (every row of it held while the unit is looked at) and its entry tree
/// walked for the functions around the addresses; type, skeleton and split
/// units, and units that cover none, are skipped by their length. What is
/// held at once: the unit headers, one unit's abbreviation table, line
/// table rows and open entries, and the units that function names refer to
/// (`DW_AT_abstract_origin`, `DW_AT_specification` across units).
///
/// Damage is an error, not a partial answer: the first structure that
/// cannot be read (a unit header, an abbreviation table, a covering unit's
/// entries, range lists or line table) throws. Every loop ends at a section
/// or unit end, and references are followed a bounded number of times.
package enum DWARFSourceLookup {
    /// The source of each of `addresses` (addresses in the sections' own
    /// address space) the DWARF covers: the line table row (file, line,
    /// column; a row of line 0 is no source), the innermost function entry's
    /// name, and the functions it was inlined into, as ``AddressSource``
    /// holds them. An address no unit covers, or whose unit's line table
    /// has no row (or no line) for it, is left out; so is every address
    /// when the sections have no `.debug_info`.
    ///
    /// - Throws: ``DWARFError`` for the first damaged structure the lookup
    ///   reads.
    package static func sources(of addresses: Set<UInt64>, in sections: DWARFSections) throws(DWARFError) -> [UInt64: AddressSource] {
        guard !addresses.isEmpty, sections.bytes[.info] != nil else { return [:] }
        var units = DWARFUnits(headers: try DWARFUnitHeader.all(in: sections), sections: sections)
        var remaining = addresses.sorted()
        var sources: [UInt64: AddressSource] = [:]
        for index in units.headers.indices where !remaining.isEmpty && units.headers[index].describesCode {
            guard let unit = try units.unit(index) else { continue }
            let ranges = try unit.ranges(of: unit.root)
            let covered = remaining.filter { address in ranges.contains { $0.contains(address) } }
            guard !covered.isEmpty else { continue }
            remaining.removeAll { address in ranges.contains { $0.contains(address) } }
            guard let lineOffset = unit.root.statementList else { continue }
            let lineTable = try DWARFLineTable(at: lineOffset, unit: unit)
            let compilationDirectory = try unit.root.compilationDirectory.map { location throws(DWARFError) in try unit.string(location) }
            let functions = try DWARFScopes.functions(around: covered, in: unit)
            for address in covered {
                guard let row = lineTable.row(for: address), row.line > 0,
                    let file = lineTable.path(ofFile: row.file, compilationDirectory: compilationDirectory)
                else { continue }
                let location = SourcePosition(
                    file: file, line: Int(clamping: row.line), column: row.column > 0 ? Int(clamping: row.column) : nil)
                let chain = functions[address] ?? []
                var source = AddressSource(
                    location: location,
                    function: try chain.first.flatMap { entry throws(DWARFError) in try units.name(of: entry, in: unit) })
                for (inlined, caller) in zip(chain, chain.dropFirst()) where inlined.tag == DWARFEntry.inlinedSubroutine {
                    source.inlinedInto.append(
                        AddressSource.InlinedCall(
                            function: try units.name(of: caller, in: unit),
                            location: callLocation(of: inlined, in: lineTable, compilationDirectory: compilationDirectory)))
                }
                sources[address] = source
            }
        }
        return sources
    }

    /// Where an inlined function's entry says it was called
    /// (`DW_AT_call_file` in the unit's line table, `DW_AT_call_line`,
    /// `DW_AT_call_column`); `nil` without a file or a line.
    private static func callLocation(of inlined: DWARFEntry, in lineTable: DWARFLineTable, compilationDirectory: String?) -> SourcePosition?
    {
        guard let fileIndex = inlined.callFile, let line = inlined.callLine, line > 0,
            let file = lineTable.path(ofFile: fileIndex, compilationDirectory: compilationDirectory)
        else { return nil }
        let column = inlined.callColumn ?? 0
        return SourcePosition(file: file, line: Int(clamping: line), column: column > 0 ? Int(clamping: column) : nil)
    }
}
