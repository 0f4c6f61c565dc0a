import LinkCheckImage

/// A symbol the image defines for others: a terminal of the exports trie,
/// or (where the image has no trie) a defined external of the symbol table.
public struct MachOExport: Sendable, Hashable {
    /// The symbol name (`_main`, `_$s7SnapKit…`).
    public var name: String
    /// `EXPORT_SYMBOL_FLAGS_KIND_*`.
    public var kind: ExportKind
    /// `EXPORT_SYMBOL_FLAGS_WEAK_DEFINITION` (`N_WEAK_DEF` in the symbol
    /// table).
    public var isWeakDefinition: Bool
    /// The virtual address of the definition (the trie's offset from the
    /// image base, plus the base; an absolute symbol's value as it is; for a
    /// stub-and-resolver export, the stub). `nil` for a re-export.
    public var address: UInt64?
    /// `EXPORT_SYMBOL_FLAGS_STUB_AND_RESOLVER`: the resolver function's
    /// virtual address.
    public var resolverAddress: UInt64?
    /// `EXPORT_SYMBOL_FLAGS_REEXPORT`: the library it comes from and its
    /// name there.
    public var reexport: Reexport?
    /// The raw `flags` of the trie terminal (0 for symbol-table exports).
    public var flags: UInt64
    /// What it was read from.
    public var source: ExportSource

    /// Where a re-exported symbol is defined.
    public struct Reexport: Sendable, Hashable {
        /// The library: the dependency with this ordinal.
        public var library: LibraryOrdinal
        /// The name in that library (the export's own name when the trie
        /// gives none).
        public var importedName: String
    }
}

/// `flags & EXPORT_SYMBOL_FLAGS_KIND_MASK`.
public enum ExportKind: String, Sendable, Hashable {
    /// `EXPORT_SYMBOL_FLAGS_KIND_REGULAR`.
    case regular
    /// `EXPORT_SYMBOL_FLAGS_KIND_THREAD_LOCAL`.
    case threadLocal = "thread-local"
    /// `EXPORT_SYMBOL_FLAGS_KIND_ABSOLUTE`.
    case absolute
}

/// What an export was read from.
public enum ExportSource: String, Sendable, Hashable {
    /// `LC_DYLD_EXPORTS_TRIE` or the export part of `LC_DYLD_INFO(_ONLY)`.
    case exportsTrie = "exports trie"
    /// A defined external (`N_SECT` or `N_ABS` with `N_EXT`, not
    /// `N_PEXT`) of the symbol table.
    case symbolTable = "symbol table"
}

/// The exports trie: a prefix tree of ULEB128-coded nodes, each with
/// optional terminal information and child edges labelled with the next
/// part of the name.
enum ExportsTrie {
    /// The longest name followed, in bytes: deeper nodes are skipped.
    static let longestName = 16384

    /// Reads every terminal of the trie in `trie`, depth first, children in
    /// order. A node visited twice (a loop, or an edge into another node's
    /// subtree) is skipped with a warning, as is any malformed node; the
    /// walk uses its own stack (no recursion) and stops with a warning when
    /// the names it built reach 16 times the trie's size.
    static func read(_ trie: ByteReader, base: UInt64, structure: String, warnings: inout ReadWarnings) -> [MachOExport] {
        var exports: [MachOExport] = []
        guard trie.count > 0 else { return exports }
        // By node offset, one bit: whether the walk reached it.
        var visited = [UInt64](repeating: 0, count: (trie.count + 63) / 64)
        // The nodes to visit, each with its name: `names[start..<end]`, the
        // names kept in one buffer the walk appends to, and `kept`, the end
        // of the names of that node and those below it on the stack: the
        // buffer holds no more than the names of the nodes still to visit.
        var stack: [(node: Int, start: Int, end: Int, kept: Int)] = [(0, 0, 0, 0)]
        var names: [UInt8] = []
        var budget = trie.count.multipliedReportingOverflow(by: 16).partialValue &+ (1 << 20)
        var reportedRevisit = false
        func fail(_ node: Int, _ problem: String) {
            warnings.add(structure, at: trie.fileOffset + node, problem)
        }
        while let (node, poppedStart, poppedEnd, _) = stack.popLast() {
            // The names of the nodes still to visit, then this node's, moved
            // down to follow them when it lies above them (byte by byte: a
            // slice of `names` held while writing to it would copy it).
            let pending = stack.last?.kept ?? 0
            var (start, end) = (poppedStart, poppedEnd)
            if start > pending {
                for index in 0..<end - start { names[pending + index] = names[start + index] }
                (start, end) = (pending, pending + end - start)
            }
            names.removeSubrange(max(pending, end)...)
            guard visited[node / 64] & (1 << UInt64(node % 64)) == 0 else {
                if !reportedRevisit {
                    fail(node, "a node reached twice (the trie loops or shares a subtree); visited once")
                    reportedRevisit = true
                }
                continue
            }
            visited[node / 64] |= 1 << UInt64(node % 64)
            var offset = node
            guard let terminalSize = trie.uleb128(at: &offset) else {
                fail(node, "a node's terminal size runs past the trie; node skipped")
                continue
            }
            let terminalStart = offset
            guard terminalSize <= UInt64(trie.count - terminalStart) else {
                fail(node, "a node's terminal information (\(terminalSize) bytes) runs past the trie; node skipped")
                continue
            }
            let childrenStart = terminalStart + Int(terminalSize)
            if terminalSize > 0 {
                if let export = terminal(trie, at: terminalStart, end: childrenStart, name: names[start..<end], base: base) {
                    exports.append(export)
                } else {
                    fail(node, "malformed terminal information for \(String(decoding: names[start..<end], as: UTF8.self)); export skipped")
                }
            }
            guard let childCount = trie.u8(at: childrenStart) else {
                fail(node, "a node's child count runs past the trie; its children skipped")
                continue
            }
            var cursor = childrenStart + 1
            let firstChild = stack.count
            for _ in 0..<childCount {
                guard let nul = trie.nul(from: cursor) else {
                    fail(node, "an edge label without a NUL before the end of the trie; the node's other children skipped")
                    break
                }
                let label = UnsafeRawBufferPointer(rebasing: trie.bytes[cursor..<nul])
                cursor = nul + 1
                guard let child = trie.uleb128(at: &cursor) else {
                    fail(node, "an edge's node offset runs past the trie; the node's other children skipped")
                    break
                }
                guard child < UInt64(trie.count) else {
                    fail(node, "an edge to offset \(hex(child)), past the trie (\(trie.count) bytes); edge skipped")
                    continue
                }
                guard end - start + label.count <= longestName else {
                    fail(node, "a name longer than \(longestName) bytes; edge skipped")
                    continue
                }
                budget -= end - start + label.count
                guard budget > 0 else {
                    fail(node, "the names reached 16 times the trie's size; the rest of the trie not read")
                    return exports
                }
                let childStart = names.count
                // The parent's name byte by byte: a slice of `names` held
                // while appending to it would copy the whole buffer.
                for index in start..<end { names.append(names[index]) }
                names.append(contentsOf: label)
                stack.append((Int(child), childStart, names.count, 0))
            }
            stack[firstChild...].reverse()
            for index in firstChild..<stack.count {
                stack[index].kept = max(stack[index].end, index > 0 ? stack[index - 1].kept : 0)
            }
        }
        return exports
    }

    /// Decodes terminal information (`flags`, then `address` [`resolver`],
    /// or for a re-export `ordinal` and `name`) within `start..<end`.
    private static func terminal(_ trie: ByteReader, at start: Int, end: Int, name: ArraySlice<UInt8>, base: UInt64) -> MachOExport? {
        var offset = start
        guard let flags = trie.uleb128(at: &offset, end: end) else { return nil }
        let kind: ExportKind
        switch flags & 0x3 {
        case 0: kind = .regular
        case 1: kind = .threadLocal
        case 2: kind = .absolute
        default: return nil
        }
        var export = MachOExport(
            name: String(decoding: name, as: UTF8.self), kind: kind, isWeakDefinition: flags & 0x4 != 0, address: nil,
            resolverAddress: nil, reexport: nil, flags: flags, source: .exportsTrie)
        if flags & 0x8 != 0 {  // EXPORT_SYMBOL_FLAGS_REEXPORT
            guard let ordinal = trie.uleb128(at: &offset, end: end), let nul = trie.nul(from: offset, end: end) else { return nil }
            let imported = trie.cString(at: offset, end: nul + 1) ?? ""
            let library = ordinal > UInt64(Int32.max) ? LibraryOrdinal.invalid(Int(Int32.max)) : LibraryOrdinal(signed: Int(ordinal))
            export.reexport = MachOExport.Reexport(library: library, importedName: imported.isEmpty ? export.name : imported)
            return export
        }
        guard let value = trie.uleb128(at: &offset, end: end) else { return nil }
        export.address = kind == .absolute ? value : base &+ value
        if flags & 0x10 != 0 {  // EXPORT_SYMBOL_FLAGS_STUB_AND_RESOLVER
            guard let resolver = trie.uleb128(at: &offset, end: end) else { return nil }
            export.resolverAddress = base &+ resolver
        }
        return export
    }
}
