import CByteScan
import LinkCheckLiterals
import Testing

/// The literal scan (`linkcheck_literal_ends`: 32 bytes at a time with
/// AVX2, 16 with SSE2, then one at a time) against the rule it implements,
/// for a pattern ending at every place of a buffer longer than two blocks of
/// each width, at each width the machine has.
@Suite struct StringLiteralMatcherTests {
    /// `pattern` ending at `end` in 150 bytes of `0x01` (a byte that
    /// cannot continue a name), after `before` and followed by a NUL when
    /// `terminated`.
    static func scan(_ patterns: [String], placing pattern: String, endingAt end: Int, before: UInt8 = 1, terminated: Bool) -> [String] {
        var bytes = [UInt8](repeating: 1, count: 150)
        let text = Array(pattern.utf8)
        bytes.replaceSubrange((end - text.count)..<end, with: text)
        if end - text.count > 0 { bytes[end - text.count - 1] = before }
        if terminated { bytes[end] = 0 }
        var matcher = StringLiteralMatcher(patterns: LiteralPatterns(patterns))
        bytes.withUnsafeBufferPointer { matcher.scan($0) }
        return matcher.found
    }

    /// Patterns with four last bytes (the scan rules out the others a block
    /// at a time), with ten (more than it tests a block at a time), and
    /// with six, `:` the fifth in order (the block's second four compares).
    static let patternSets = [
        ["openURL:", "sharedApplication", "TRUEPREDICATE", "supportsAlternateIcons"],
        ["openURL:", "sharedApplication", "TRUEPREDICATE", "supportsAlternateIcons", "a1", "b2", "c3", "d4", "e5", "f6"],
        ["openURL:", "sharedApplication", "a1", "b2", "c3", "d4"],
    ]

    @Test(arguments: patternSets.indices)
    func aLiteralIsFoundWhereverItEnds(set: Int) {
        let patterns = Self.patternSets[set]
        let widest = Int(linkcheck_block_width())
        defer { linkcheck_limit_block_width(0) }
        for width in [32, 16, 1] where width <= widest {
            linkcheck_limit_block_width(Int32(width))
            #expect(Int(linkcheck_block_width()) == width)
            for end in "openURL:".utf8.count..<149 {
                #expect(
                    Self.scan(patterns, placing: "openURL:", endingAt: end, terminated: true) == ["openURL:"], "width \(width), end \(end)")
                #expect(Self.scan(patterns, placing: "openURL:", endingAt: end, terminated: false) == [], "width \(width), end \(end)")
                let continued = Self.scan(patterns, placing: "openURL:", endingAt: end, before: UInt8(ascii: "x"), terminated: true)
                #expect(continued == (end == "openURL:".utf8.count ? ["openURL:"] : []), "width \(width), end \(end)")
            }
        }
    }
}
