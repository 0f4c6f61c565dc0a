/// The literals a run looks for in read-only data, with the tables
/// ``StringLiteralMatcher`` scans by: made once for a run (or a test) and
/// shared, read-only, by every image's matcher on every thread.
///
/// An array literal makes one: `["openURL:", "sharedApplication"]`.
public final class LiteralPatterns: Sendable, ExpressibleByArrayLiteral {
    /// The patterns, in the order given (the order
    /// ``StringLiteralMatcher/found`` keeps).
    public let texts: [String]
    /// Their UTF-8 bytes.
    let wanted: [[UInt8]]
    /// Patterns by their last byte: a run is compared only with those that
    /// end with the byte it ends with.
    let byLastByte: [[Int]]
    /// By the two bytes before a NUL (`[end - 2] << 8 | [end - 1]`): whether
    /// a pattern may end there, as 65,536 bits.
    let filter: [UInt8]
    /// The patterns' distinct last bytes, ascending.
    let lastBytes: [UInt8]
    /// How many bytes before a run's end the scan reads: the longest pattern
    /// and the byte before it.
    public let lookBehind: Int

    /// The tables for `texts`, the literals to look for (UTF-8; one with a
    /// NUL in it is never found).
    public init(_ texts: [String]) {
        self.texts = texts
        wanted = texts.map { Array($0.utf8) }
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

    /// ``init(_:)`` for the literals listed.
    public convenience init(arrayLiteral texts: String...) {
        self.init(texts)
    }

    /// Whether there is nothing to look for.
    public var isEmpty: Bool { texts.isEmpty }
}
