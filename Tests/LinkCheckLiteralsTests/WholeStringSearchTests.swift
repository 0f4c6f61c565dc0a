import CByteScan
import LinkCheckLiterals
import SystemInterface
import Testing

/// ``LiteralPatterns/wholeStrings(in:)`` against the rule it implements: a
/// string is found where it starts after a NUL (or at the buffer's start)
/// and a NUL (or the buffer's end) follows it, at every offset of a buffer
/// longer than two blocks of each scan width, at each width the machine has.
@Suite struct WholeStringSearchTests {
    static let patterns = LiteralPatterns(["UIApplication", "openURL:", "a", "sharedApplication"])

    /// The offsets found in `text` (its `|` bytes made NULs).
    static func offsets(_ text: String) -> [Int] {
        let bytes = Array(text.utf8).map { $0 == UInt8(ascii: "|") ? 0 : $0 }
        return bytes.withUnsafeBufferPointer { patterns.wholeStrings(in: $0) }
    }

    @Test func aStringIsFoundOnlyWhole() {
        #expect(Self.offsets("UIApplication|") == [0])
        #expect(Self.offsets("|xUIApplication|UIApplicationx|UIApplication") == [31])
        #expect(Self.offsets("sharedApplication|a||a|openURL:|openURL:x|") == [0, 18, 21, 23])
        #expect(Self.offsets("Application|") == [])
        #expect(Self.offsets("") == [])
        #expect(Self.offsets("a") == [0])
        #expect(LiteralPatterns([]).wholeStrings(in: UnsafeBufferPointer(start: nil, count: 0)) == [])
    }

    /// An empty buffer holds no string, and nothing before it is read: here
    /// its start is the first byte of a page after one that cannot be read.
    @Test func anEmptyBufferIsNotReadBefore() throws {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let pages = try #require(mmap(nil, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0))
        try #require(pages != MAP_FAILED)
        defer { munmap(pages, 2 * page) }
        try #require(mprotect(pages, page, PROT_NONE) == 0)
        let start = (pages + page).assumingMemoryBound(to: UInt8.self)
        #expect(Self.patterns.wholeStrings(in: UnsafeBufferPointer(start: start, count: 0)) == [])
    }

    @Test func aStringIsFoundWhereverItStarts() {
        let widest = Int(linkcheck_block_width())
        defer { linkcheck_limit_block_width(0) }
        for width in [32, 16, 1] where width <= widest {
            linkcheck_limit_block_width(Int32(width))
            for start in 0..<140 {
                var bytes = [UInt8](repeating: UInt8(ascii: "x"), count: 160)
                let text = Array("openURL:".utf8)
                bytes.replaceSubrange(start..<start + text.count, with: text)
                bytes[start + text.count] = 0
                #expect(bytes.withUnsafeBufferPointer { Self.patterns.wholeStrings(in: $0) } == (start == 0 ? [0] : []))
                if start > 0 { bytes[start - 1] = 0 }
                #expect(bytes.withUnsafeBufferPointer { Self.patterns.wholeStrings(in: $0) } == [start], "width \(width), start \(start)")
            }
        }
    }
}
