import CByteScan
import SystemInterface

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
    private let state: State
    /// How many bytes before a run's end the scan reads: the longest
    /// pattern and the byte before it.
    public var lookBehind: Int { state.patterns.lookBehind }

    /// What the C scan's callback reaches: the patterns and what is found.
    private final class State {
        let patterns: LiteralPatterns
        var matched: [Bool]
        var bytes: UnsafePointer<UInt8>?

        init(_ patterns: LiteralPatterns) {
            self.patterns = patterns
            matched = Array(repeating: false, count: patterns.wanted.count)
        }

        /// A NUL at `end` (after a byte that is not).
        func runEnd(_ end: Int) {
            guard let bytes else { return }
            for number in patterns.byLastByte[Int(bytes[end - 1])] where !matched[number] {
                let pattern = patterns.wanted[number]
                let tail = end - pattern.count
                guard tail >= 0, memcmp(bytes + tail, pattern, pattern.count) == 0 else { continue }
                // The run starts at the pattern (a NUL or the buffer's start
                // before it), or a byte that cannot continue a name does.
                if tail == 0 || !StringLiteralMatcher.continuesName(bytes[tail - 1]) { matched[number] = true }
            }
        }
    }

    /// A matcher for `patterns`, none of them found yet.
    public init(patterns: LiteralPatterns) {
        state = State(patterns)
    }

    /// Looks for the patterns in the NUL-terminated runs of `buffer` that
    /// end at `from` or after: a buffer may begin with the last
    /// ``lookBehind`` bytes of the one scanned before it (the same run of
    /// bytes read in pieces), which are read only as the start of a run
    /// ending later.
    public mutating func scan(_ buffer: UnsafeBufferPointer<UInt8>, from: Int = 0) {
        guard let bytes = buffer.baseAddress, !state.patterns.isEmpty, !state.matched.allSatisfy({ $0 }) else { return }
        state.bytes = bytes
        defer { state.bytes = nil }
        let context = Unmanaged.passUnretained(state).toOpaque()
        state.patterns.filter.withUnsafeBufferPointer { filter in
            state.patterns.lastBytes.withUnsafeBufferPointer { last in
                linkcheck_literal_ends(bytes, max(from, 0), buffer.count, filter.baseAddress, last.baseAddress, last.count, context) {
                    context, end in Unmanaged<State>.fromOpaque(context!).takeUnretainedValue().runEnd(end)
                }
            }
        }
    }

    /// The patterns found so far, in the order given.
    public var found: [String] {
        state.patterns.texts.indices.filter { state.matched[$0] }.map { state.patterns.texts[$0] }
    }

    /// Letters, digits, `_`, `:` and bytes of multi-byte UTF-8 characters.
    private static func continuesName(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x3a) || (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a)
            || byte == 0x5f || byte >= 0x80
    }
}
