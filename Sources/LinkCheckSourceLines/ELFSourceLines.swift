#if canImport(CLibDW)  // libdw comes with libelf: not in a build without it (Package.swift)
import CLibDW
import LinkCheckELF
import SystemInterface

/// The source of addresses of an ELF image, from its DWARF (`.debug_info`,
/// `.debug_line`, `.debug_rnglists`/`.debug_ranges`, …; DWARF 2 to 5, the
/// sections compressed or not, `SHF_COMPRESSED`) through elfutils' libdw.
///
/// The compilation units are walked once (`dwarf_get_units`); a unit whose
/// address ranges (`dwarf_ranges`: `DW_AT_low_pc`/`DW_AT_high_pc` or
/// `DW_AT_ranges`) hold one of the addresses gives its line table row
/// (`dwarf_getsrc_die`) and the functions around it: its tree is walked
/// once for the function entries that hold the addresses, and from each
/// such entry in to the innermost scope of each address (what
/// `dwarf_getscopes` gives, which walks the whole unit for every address).
/// Only those units' line tables are decoded, and nothing is kept once the
/// file is closed. A skeleton unit (DWARF 5 `-gsplit-dwarf`, whose entries
/// are in a `.dwo` file) gives its line table's row alone, as
/// `llvm-symbolizer` does without the `.dwo`: the line, not the function
/// or what it was inlined into.
enum ELFSourceLines {
    /// The source of each of `addresses` (virtual addresses) in the ELF file
    /// at `path` that its DWARF covers; none when it has no `.debug_info`.
    ///
    /// - Throws: ``SourceLinesError/unreadable(path:reason:)`` when the file
    ///   cannot be opened or changed while read,
    ///   ``SourceLinesError/malformedDebugInfo(path:reason:)`` when libdw
    ///   rejects its DWARF.
    static func sources(of addresses: Set<UInt64>, path: String) throws(SourceLinesError) -> SourceLookup {
        let outcome: Result<SourceLookup, SourceLinesError>
        do {
            outcome = try ELFFile.read(path) { file in sources(of: addresses, in: file) }
        } catch {
            throw .unreadable(path: path, reason: "\(error)")
        }
        return try outcome.get()
    }

    /// ``sources(of:path:)`` in an open file.
    private static func sources(of addresses: Set<UInt64>, in file: ELFFile) -> Result<SourceLookup, SourceLinesError> {
        guard let dwarf = dwarf_begin_elf(file.elf, DWARF_C_READ, nil) else {
            // libdw says "no DWARF information" both for an image built
            // without -g and for one whose .debug_info it cannot take.
            let hasDebugInfo = (try? file.sections())?.contains { $0.name == ".debug_info" } ?? false
            return hasDebugInfo
                ? .failure(.malformedDebugInfo(path: file.path, reason: lastError("dwarf_begin_elf"))) : .success(SourceLookup())
        }
        defer { dwarf_end(dwarf) }
        var remaining = addresses.sorted()
        var lookup = SourceLookup()
        var unit: OpaquePointer?
        while !remaining.isEmpty {
            var next: OpaquePointer?
            var version: Dwarf_Half = 0
            var unitType: UInt8 = 0
            var unitEntry = Dwarf_Die()
            var subEntry = Dwarf_Die()
            let status = dwarf_get_units(dwarf, unit, &next, &version, &unitType, &unitEntry, &subEntry)
            if status == 1 { break }
            guard status == 0 else { return .failure(.malformedDebugInfo(path: file.path, reason: lastError("dwarf_get_units"))) }
            unit = next
            // A skeleton unit (`-gsplit-dwarf`) keeps the line table in the
            // image; its entries are in a `.dwo` file: lines without the
            // functions around them.
            guard unitType == DW_UT_compile || unitType == DW_UT_partial || unitType == DW_UT_skeleton else { continue }
            let covered = Set(coveredAddresses(remaining, by: &unitEntry))
            guard !covered.isEmpty else { continue }
            remaining.removeAll(where: covered.contains)
            // libdw answers "no row" both for an address its line table
            // lacks and for a line table it cannot decode: decode it first.
            var lines: OpaquePointer?
            var lineCount = 0
            guard dwarf_getsrclines(&unitEntry, &lines, &lineCount) == 0 else {
                lookup.notes.append(
                    "\(file.path): the line table (.debug_line) of the compilation unit at .debug_info offset 0x\(String(dwarf_dieoffset(&unitEntry), radix: 16)) cannot be decoded (\(lastError("dwarf_getsrclines"))): \(covered.count) call site\(covered.count == 1 ? " in it has" : "s in it have") no source"
                )
                continue
            }
            let functions = unitType == DW_UT_skeleton ? [:] : innermostFunctions(holding: covered.sorted(), in: &unitEntry)
            for address in covered {
                lookup.sources[address] = source(
                    of: address, in: &unitEntry, scopes: functions[address].map { scopes(of: address, from: $0) } ?? [])
            }
        }
        return .success(lookup)
    }

    /// Those of `addresses` (sorted) that the address ranges of the unit
    /// whose entry is `unitEntry` hold (`dwarf_ranges`).
    private static func coveredAddresses(_ addresses: [UInt64], by unitEntry: inout Dwarf_Die) -> [UInt64] {
        var covered: [UInt64] = []
        var offset = 0
        var (base, start, end): (Dwarf_Addr, Dwarf_Addr, Dwarf_Addr) = (0, 0, 0)
        while true {
            offset = dwarf_ranges(&unitEntry, offset, &base, &start, &end)
            guard offset > 0 else { break }
            var index = firstIndex(in: addresses, notBelow: start)
            while index < addresses.count && addresses[index] < end {
                covered.append(addresses[index])
                index += 1
            }
        }
        return covered
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

    /// The function entry (`DW_TAG_subprogram` with code) that holds each
    /// of `addresses` (sorted), found in one walk of the unit's tree: the
    /// last in the tree's order that holds it, as `llvm-symbolizer` picks
    /// it, so that a closure, whose entry Swift nests in the function that
    /// defines it although its code lies outside that function's ranges, is
    /// its own function. The walk goes forward only (each entry after the
    /// one before), so damaged sibling links cannot make it loop, and it
    /// does not go into entries whose children are never functions
    /// (``leafTags``): libdw steps over those subtrees itself.
    private static func innermostFunctions(holding addresses: [UInt64], in unitEntry: inout Dwarf_Die) -> [UInt64: Dwarf_Die] {
        var found: [UInt64: Dwarf_Die] = [:]
        var pending: [Dwarf_Die] = [unitEntry]
        while var parent = pending.popLast() {
            var child = Dwarf_Die()
            guard dwarf_child(&parent, &child) == 0 else { continue }
            while true {
                let tag = dwarf_tag(&child)
                if tag == DW_TAG_subprogram {
                    for address in coveredAddresses(addresses, by: &child) { found[address] = child }
                }
                if !leafTags.contains(tag), dwarf_haschildren(&child) > 0 { pending.append(child) }
                var sibling = Dwarf_Die()
                guard dwarf_siblingof(&child, &sibling) == 0, dwarf_dieoffset(&sibling) > dwarf_dieoffset(&child) else { break }
                child = sibling
            }
        }
        return found
    }

    /// Tags whose entries' children are never function entries (DWARF 5,
    /// 3.3.8 and 3.4: an inlined call's parameters, variables, blocks and
    /// calls; a call site's parameters; a type's enumerators and
    /// subranges), which ``innermostFunctions(holding:in:)`` need not go
    /// into. Clang and swiftc write call sites (`DW_TAG_call_site`,
    /// `DW_TAG_GNU_call_site`) for every call of optimised code, so most of
    /// a unit's entries are under these.
    private static let leafTags: Set<Int32> = [
        Int32(DW_TAG_inlined_subroutine), Int32(DW_TAG_call_site), Int32(DW_TAG_GNU_call_site),
        Int32(DW_TAG_formal_parameter), Int32(DW_TAG_variable), Int32(DW_TAG_enumeration_type),
        Int32(DW_TAG_subroutine_type), Int32(DW_TAG_array_type),
    ]

    /// The entries from `function` (the entry of the function that holds
    /// `address`) in to the innermost entry that holds it
    /// (`DW_TAG_inlined_subroutine`, `DW_TAG_lexical_block`, … for which
    /// `dwarf_haspc` is true), outermost first: the scopes `dwarf_getscopes`
    /// would give, without walking the whole unit for each address.
    private static func scopes(of address: UInt64, from function: Dwarf_Die) -> [Dwarf_Die] {
        var chain = [function]
        var parent = function
        while let holder = children(of: &parent).first(where: { entry in
            var entry = entry
            return dwarf_tag(&entry) != DW_TAG_subprogram && dwarf_haspc(&entry, address) == 1
        }) {
            chain.append(holder)
            parent = holder
        }
        return chain
    }

    /// The children of `entry` (`dwarf_child`, then `dwarf_siblingof`), in
    /// order, stopping where a sibling link would go backwards.
    private static func children(of entry: inout Dwarf_Die) -> [Dwarf_Die] {
        var child = Dwarf_Die()
        guard dwarf_child(&entry, &child) == 0 else { return [] }
        var children = [child]
        while true {
            var sibling = Dwarf_Die()
            guard dwarf_siblingof(&child, &sibling) == 0, dwarf_dieoffset(&sibling) > dwarf_dieoffset(&child) else { break }
            children.append(sibling)
            child = sibling
        }
        return children
    }

    /// The source of `address` in the unit whose entry is `unitEntry`: its
    /// line table row, and the function entries among `scopes` (the entries
    /// that hold it, outermost first; ``scopes(of:from:)``): the innermost
    /// names the function, and each `DW_TAG_inlined_subroutine` the function
    /// around it that it was inlined into. `nil` when the line table has no
    /// row for it, or only line 0 (code no source line stands for).
    private static func source(of address: UInt64, in unitEntry: inout Dwarf_Die, scopes: [Dwarf_Die]) -> AddressSource? {
        guard let row = dwarf_getsrc_die(&unitEntry, address), let file = dwarf_linesrc(row, nil, nil) else { return nil }
        var (line, column): (Int32, Int32) = (0, 0)
        guard dwarf_lineno(row, &line) == 0, line > 0 else { return nil }
        if dwarf_linecol(row, &column) != 0 { column = 0 }
        let location = SourcePosition(
            file: path(String(cString: file), in: &unitEntry), line: Int(line), column: column > 0 ? Int(column) : nil)
        var functions = scopes.reversed().filter { entry in
            var entry = entry
            let tag = dwarf_tag(&entry)
            return tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine
        }
        guard !functions.isEmpty else { return AddressSource(location: location, function: nil) }
        var inlinedInto: [AddressSource.InlinedCall] = []
        for index in functions.indices.dropLast() where dwarf_tag(&functions[index]) == DW_TAG_inlined_subroutine {
            inlinedInto.append(
                AddressSource.InlinedCall(
                    function: name(of: &functions[index + 1]), location: callLocation(of: &functions[index], in: &unitEntry)))
        }
        return AddressSource(location: location, function: name(of: &functions[0]), inlinedInto: inlinedInto)
    }

    /// A function entry's name: `DW_AT_linkage_name` (the symbol), else
    /// `DW_AT_name`, following `DW_AT_abstract_origin` and
    /// `DW_AT_specification` (`dwarf_attr_integrate`, `dwarf_diename`).
    private static func name(of function: UnsafeMutablePointer<Dwarf_Die>) -> String? {
        for attribute in [DW_AT_linkage_name, DW_AT_MIPS_linkage_name] {
            var value = Dwarf_Attribute()
            if dwarf_attr_integrate(function, UInt32(attribute), &value) != nil, let text = dwarf_formstring(&value) {
                return String(cString: text)
            }
        }
        return dwarf_diename(function).map { String(cString: $0) }
    }

    /// Where an inlined function's entry (`DW_TAG_inlined_subroutine`) says
    /// it was called: `DW_AT_call_file` (an index into the unit's file
    /// table, `dwarf_getsrcfiles`), `DW_AT_call_line`, `DW_AT_call_column`.
    private static func callLocation(
        of inlined: UnsafeMutablePointer<Dwarf_Die>, in unitEntry: inout Dwarf_Die
    ) -> SourcePosition? {
        guard let fileIndex = unsignedValue(of: DW_AT_call_file, in: inlined),
            let line = unsignedValue(of: DW_AT_call_line, in: inlined), line > 0
        else { return nil }
        var files: OpaquePointer?
        var fileCount = 0
        guard dwarf_getsrcfiles(&unitEntry, &files, &fileCount) == 0, fileIndex < fileCount,
            let file = dwarf_filesrc(files, Int(fileIndex), nil, nil)
        else { return nil }
        let column = unsignedValue(of: DW_AT_call_column, in: inlined) ?? 0
        return SourcePosition(
            file: path(String(cString: file), in: &unitEntry), line: Int(line), column: column > 0 ? Int(column) : nil)
    }

    /// `file` as a line table names it, joined to the unit's compilation
    /// directory (`DW_AT_comp_dir`) when it is relative, as
    /// `llvm-symbolizer` joins it: libdw joins a file's name to its
    /// directory entry only, which clang leaves relative for a file given
    /// by a path under the directory it compiles in.
    private static func path(_ file: String, in unitEntry: inout Dwarf_Die) -> String {
        guard !file.hasPrefix("/") else { return file }
        var value = Dwarf_Attribute()
        guard dwarf_attr(&unitEntry, UInt32(DW_AT_comp_dir), &value) != nil, let directory = dwarf_formstring(&value) else {
            return file
        }
        let compilationDirectory = String(cString: directory)
        return compilationDirectory.hasSuffix("/") ? compilationDirectory + file : compilationDirectory + "/" + file
    }

    /// The unsigned constant `attribute` of `entry` has (`dwarf_attr`,
    /// `dwarf_formudata`), or `nil` when it has none.
    private static func unsignedValue(of attribute: Int, in entry: UnsafeMutablePointer<Dwarf_Die>) -> UInt64? {
        var value = Dwarf_Attribute()
        var number: Dwarf_Word = 0
        guard dwarf_attr(entry, UInt32(attribute), &value) != nil, dwarf_formudata(&value, &number) == 0 else { return nil }
        return number
    }

    /// libdw's message for its last error (`dwarf_errmsg(-1)`), after the
    /// call that failed.
    private static func lastError(_ call: String) -> String {
        "\(call): " + (dwarf_errmsg(-1).map { String(cString: $0) } ?? "unknown error")
    }
}
#endif
