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
/// NUL within one buffer is not a literal. The bytes are scanned once,
/// without copying them; only the patterns found become strings.
public struct StringLiteralMatcher {
    private let patterns: [String]
    private let wanted: [[UInt8]]
    /// Patterns by their last byte: a run is compared only with those that
    /// end with the byte it ends with.
    private let byLastByte: [[Int]]
    private let endsWanted: [Bool]
    private let shortest: Int
    private var matched: [Bool]

    public init(patterns: [String]) {
        self.patterns = patterns
        wanted = patterns.map { Array($0.utf8) }
        var byLastByte = Array(repeating: [Int](), count: 256)
        for (number, pattern) in wanted.enumerated() where !pattern.isEmpty {
            byLastByte[Int(pattern[pattern.count - 1])].append(number)
        }
        self.byLastByte = byLastByte
        endsWanted = (0..<256).map { !byLastByte[$0].isEmpty }
        // At least 1: an empty pattern matches nothing, and a run is only
        // looked at (its last byte read) when it has a byte.
        shortest = max(1, wanted.map(\.count).min() ?? 1)
        matched = Array(repeating: false, count: patterns.count)
    }

    /// Looks for the patterns in the NUL-terminated runs of `buffer`.
    public mutating func scan(_ buffer: UnsafeBufferPointer<UInt8>) {
        guard let bytes = buffer.baseAddress, !patterns.isEmpty else { return }
        let size = buffer.count
        var start = 0
        // Read-only data is mostly short runs between NULs: a plain loop
        // over the bytes beats a memchr call per run.
        for end in 0..<size where bytes[end] == 0 {
            defer { start = end + 1 }
            if end - start >= shortest && endsWanted[Int(bytes[end - 1])] {
                for number in byLastByte[Int(bytes[end - 1])] where !matched[number] {
                    let pattern = wanted[number]
                    let tail = end - pattern.count
                    guard tail >= start, memcmp(bytes + tail, pattern, pattern.count) == 0 else { continue }
                    if tail == start || !Self.continuesName(bytes[tail - 1]) { matched[number] = true }
                }
            }
        }
    }

    /// The patterns found so far, in the order given.
    public var found: [String] {
        patterns.indices.filter { matched[$0] }.map { patterns[$0] }
    }

    /// Letters, digits, `_`, `:` and bytes of multi-byte UTF-8 characters.
    private static func continuesName(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x3a) || (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a)
            || byte == 0x5f || byte >= 0x80
    }
}
