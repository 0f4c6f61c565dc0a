import LinkCheckImage
import LinkCheckLiterals

/// A byte range of the file scanned for string literals: the bytes of
/// `__TEXT,__cstring` or `__TEXT,__const`.
public struct StringLiteralRange: Sendable, Hashable {
    /// The section, as `segname,sectname`.
    public var section: String
    /// Offset of the range from the start of the file (not of the image), in
    /// bytes.
    public var fileOffset: Int
    /// Its size in bytes.
    public var size: Int
}

/// A constant `CFString` of `__cfstring` (`__DATA` or `__DATA_CONST`): the
/// object an `@"…"` literal compiles to, pointing at its characters in
/// `__TEXT,__cstring` (or `__ustring` for UTF-16).
public struct CFStringLiteral: Sendable, Hashable {
    /// The virtual address of the `CFString` object (what code loads).
    public var address: UInt64
    /// The virtual address of its characters.
    public var stringAddress: UInt64
    /// Its length in characters (UTF-8 bytes or UTF-16 units).
    public var length: UInt64
    /// The characters, for 8-bit strings whose bytes could be read; `nil`
    /// for UTF-16 ones.
    public var value: String?
}

extension MachOImage {
    /// Which of `patterns` occur as string literals (``StringLiteralMatcher``)
    /// in ``stringLiteralRanges``, read from `file`: the bytes of the whole
    /// file the image was read from. What ``readOnlyStrings`` holds for the
    /// patterns given when the file was read; ranges outside `file` are
    /// skipped.
    public func readOnlyStrings(matching patterns: LiteralPatterns, inFile file: [UInt8]) -> [String] {
        file.withUnsafeBytes { raw in
            StringLiterals.find(patterns, in: ByteReader(raw), ranges: stringLiteralRanges.map { ($0.section, $0.fileOffset, $0.size) })
        }
    }
}

/// The string literals of an image.
enum StringLiterals {
    /// The content sections scanned: `__TEXT,__cstring` and `__TEXT,__const`,
    /// as offsets from the start of the image.
    static func ranges(_ context: ReadContext) -> [(section: String, offset: Int, size: Int)] {
        context.contentSections.compactMap { _, section in
            guard section.segmentName == "__TEXT", section.name == "__cstring" || section.name == "__const" else { return nil }
            return (section.qualifiedName, Int(section.fileOffset), Int(section.size))
        }
    }

    /// Which of `patterns` occur as string literals in `ranges`
    /// (``StringLiteralMatcher``), in the order given.
    static func find(_ patterns: LiteralPatterns, in image: ByteReader, ranges: [(section: String, offset: Int, size: Int)]) -> [String] {
        guard !patterns.isEmpty else { return [] }
        var matcher = StringLiteralMatcher(patterns: patterns)
        for range in ranges {
            guard let bytes = image.window(offset: range.offset, size: range.size) else { continue }
            matcher.scan(bytes.bytes.assumingMemoryBound(to: UInt8.self))
        }
        return matcher.found
    }

    /// The entries of every `__cfstring` section (`__CFString`: `isa`,
    /// `flags`, `str`, `length`, pointer-sized each).
    static func cfStrings(_ context: ReadContext, warnings: inout ReadWarnings) -> [CFStringLiteral] {
        var literals: [CFStringLiteral] = []
        let pointerSize = UInt64(context.header.pointerSize)
        let entrySize = 4 * pointerSize
        for (number, section) in context.contentSections(named: "__cfstring") {
            let bytes = context.bytes(of: section)
            for index in 0..<(section.size / entrySize) {
                let offset = index * entrySize
                guard case .address(let characters) = context.slot(section: number, offset: offset + 2 * pointerSize),
                    let flags = bytes.u32(at: Int(offset + pointerSize)),
                    let length = bytes.pointer(at: Int(offset + 3 * pointerSize), is64Bit: context.header.is64Bit)
                else { continue }
                // __kCFStringTypeID flags: 0x7c8 for 8-bit characters, 0x7d0 for UTF-16.
                var value: String? = nil
                if flags & 0x10 == 0, length < UInt64(context.image.count),
                    let start = context.addressSpace.fileOffset(of: characters, size: Int(length)),
                    let window = context.image.window(offset: start, size: Int(length))
                {
                    value = String(decoding: window.bytes, as: UTF8.self)
                }
                literals.append(
                    CFStringLiteral(address: section.address &+ offset, stringAddress: characters, length: length, value: value))
            }
        }
        return literals
    }
}
