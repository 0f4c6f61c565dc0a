import CByteScan
import SystemInterface

extension LiteralPatterns {
    /// The offsets in `buffer` of the NUL-terminated strings that are one
    /// of the patterns whole: each starts at the buffer's start or right
    /// after a NUL (a pattern that is only the tail of a longer string is
    /// not one), in ascending order. A string the buffer ends before its NUL
    /// counts when it is a pattern whole. What code loads the address of is
    /// such a string (``StringLiteralMatcher`` answers the other question,
    /// whether a pattern occurs at all).
    ///
    /// One pass over the bytes for every pattern (`linkcheck_literal_ends`,
    /// 16 or 32 bytes at a time): only the ends of strings whose last two
    /// bytes end some pattern are compared.
    public func wholeStrings(in buffer: UnsafeBufferPointer<UInt8>) -> [Int] {
        guard let bytes = buffer.baseAddress, !isEmpty else { return [] }
        let search = WholeStrings(patterns: self, bytes: bytes)
        let context = Unmanaged.passUnretained(search).toOpaque()
        filter.withUnsafeBufferPointer { filter in
            lastBytes.withUnsafeBufferPointer { last in
                linkcheck_literal_ends(bytes, 1, buffer.count, filter.baseAddress, last.baseAddress, last.count, context) { context, end in
                    Unmanaged<WholeStrings>.fromOpaque(context!).takeUnretainedValue().stringEnd(end)
                }
            }
        }
        // The buffer may end inside a string (an empty buffer holds none).
        if let last = buffer.last, last != 0 { search.stringEnd(buffer.count) }
        return search.offsets
    }

    /// What the C scan's callback reaches.
    private final class WholeStrings {
        let patterns: LiteralPatterns
        let bytes: UnsafePointer<UInt8>
        var offsets: [Int] = []

        init(patterns: LiteralPatterns, bytes: UnsafePointer<UInt8>) {
            self.patterns = patterns
            self.bytes = bytes
        }

        /// A string ends at `end` (a NUL, or the buffer's end), after a
        /// byte that is not NUL.
        func stringEnd(_ end: Int) {
            for number in patterns.byLastByte[Int(bytes[end - 1])] {
                let pattern = patterns.wanted[number]
                let start = end - pattern.count
                guard start >= 0, start == 0 || bytes[start - 1] == 0, memcmp(bytes + start, pattern, pattern.count) == 0 else {
                    continue
                }
                offsets.append(start)
                return
            }
        }
    }
}
