import CByteScan
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Finds which of a list of patterns occur as string literals in runs of
/// bytes (an ELF file's `.rodata`, a Mach-O image's `__cstring`): what both
/// readers' `readOnlyStrings` share.
///
/// A pattern occurs when a NUL-terminated run of bytes equals it, or ends
/// with it right after a byte that cannot continue a name (not a letter,
/// digit, `_` or `:`): linkers merge a literal into the tail of a longer
/// one, and data may run into a literal without a NUL. A run not ended by a
/// NUL within one buffer is not a literal. The bytes are scanned once for
/// every pattern, without copying them (`linkcheck_literal_ends`, 16 or 32
/// bytes at a time): only the ends of runs whose last two bytes end some
/// pattern are compared, and only the patterns found become strings.
public struct StringLiteralMatcher {
    private let patterns: [String]
    private let state: State
    /// How many bytes before a run's end the scan reads: the longest
    /// pattern and the byte before it.
    public var lookBehind: Int { state.tables.lookBehind }

    /// The patterns' tables, which do not change while a run scans image
    /// after image with the same patterns.
    private final class Tables: Sendable {
        let wanted: [[UInt8]]
        /// Patterns by their last byte: a run is compared only with those
        /// that end with the byte it ends with.
        let byLastByte: [[Int]]
        /// By the two bytes before a NUL (`[end - 2] << 8 | [end - 1]`):
        /// whether a pattern may end there, as 65,536 bits.
        let filter: [UInt8]
        /// The patterns' distinct last bytes, ascending.
        let lastBytes: [UInt8]
        let lookBehind: Int

        init(_ wanted: [[UInt8]]) {
            self.wanted = wanted
            var byLastByte = Array(repeating: [Int](), count: 256)
            var filter = [UInt8](repeating: 0, count: 8192)
            // A pattern with a NUL in it is never inside a run.
            for (number, pattern) in wanted.enumerated() where !pattern.isEmpty && !pattern.contains(0) {
                let last = Int(pattern[pattern.count - 1])
                byLastByte[last].append(number)
                let before = pattern.count >= 2 ? [Int(pattern[pattern.count - 2])] : Array(0..<256)
                for byte in before {
                    let key = byte << 8 | last
                    filter[key >> 3] |= 1 << UInt8(key & 7)
                }
            }
            self.byLastByte = byLastByte
            self.filter = filter
            lastBytes = (0...255).filter { !byLastByte[$0].isEmpty }.map(UInt8.init)
            lookBehind = (wanted.map(\.count).max() ?? 0) + 1
        }
    }

    /// Tables by their patterns' UTF-8 bytes: made once for the images of a
    /// run, which look for the same patterns (one list for ELF images, one
    /// for Mach-O's, with their Objective-C names); cleared past a few lists.
    private static let tablesByPatterns = Mutex<[[[UInt8]]: Tables]>([:])

    /// What the C scan's callback reaches: the tables and what is found.
    private final class State {
        let tables: Tables
        var matched: [Bool]
        var bytes: UnsafePointer<UInt8>?

        init(_ tables: Tables) {
            self.tables = tables
            matched = Array(repeating: false, count: tables.wanted.count)
        }

        /// A NUL at `end` (after a byte that is not).
        func runEnd(_ end: Int) {
            guard let bytes else { return }
            for number in tables.byLastByte[Int(bytes[end - 1])] where !matched[number] {
                let pattern = tables.wanted[number]
                let tail = end - pattern.count
                guard tail >= 0, memcmp(bytes + tail, pattern, pattern.count) == 0 else { continue }
                // The run starts at the pattern (a NUL or the buffer's start
                // before it), or a byte that cannot continue a name does.
                if tail == 0 || !StringLiteralMatcher.continuesName(bytes[tail - 1]) { matched[number] = true }
            }
        }
    }

    public init(patterns: [String]) {
        self.patterns = patterns
        let wanted = patterns.map { Array($0.utf8) }
        let tables = Self.tablesByPatterns.withLock { known in
            if let tables = known[wanted] { return tables }
            if known.count >= 8 { known.removeAll() }
            let tables = Tables(wanted)
            known[wanted] = tables
            return tables
        }
        state = State(tables)
    }

    /// Looks for the patterns in the NUL-terminated runs of `buffer` that
    /// end at `from` or after: a buffer may begin with the last
    /// ``lookBehind`` bytes of the one scanned before it (the same run of
    /// bytes read in pieces), which are read only as the start of a run
    /// ending later.
    public mutating func scan(_ buffer: UnsafeBufferPointer<UInt8>, from: Int = 0) {
        guard let bytes = buffer.baseAddress, !patterns.isEmpty, !state.matched.allSatisfy({ $0 }) else { return }
        state.bytes = bytes
        defer { state.bytes = nil }
        let context = Unmanaged.passUnretained(state).toOpaque()
        state.tables.filter.withUnsafeBufferPointer { filter in
            state.tables.lastBytes.withUnsafeBufferPointer { last in
                linkcheck_literal_ends(bytes, max(from, 0), buffer.count, filter.baseAddress, last.baseAddress, last.count, context) {
                    context, end in Unmanaged<State>.fromOpaque(context!).takeUnretainedValue().runEnd(end)
                }
            }
        }
    }

    /// The patterns found so far, in the order given.
    public var found: [String] {
        patterns.indices.filter { state.matched[$0] }.map { patterns[$0] }
    }

    /// Letters, digits, `_`, `:` and bytes of multi-byte UTF-8 characters.
    private static func continuesName(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x3a) || (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a)
            || byte == 0x5f || byte >= 0x80
    }
}
