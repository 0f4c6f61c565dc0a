/// Substring search on UTF-8 bytes, for the matchers' pre-filters: a
/// mangled or demangled name is searched for a fragment before anything is
/// copied, bridged or demangled; and for the hot name tests of the analysis
/// (Foundation's `contains` on strings goes through `CFStringFind`).
public enum ByteSearch {
    /// Whether `haystack` contains `needle`; an empty needle is contained
    /// in anything.
    public static func contains(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let head = needle.first else { return true }
        guard needle.count <= haystack.count else { return false }
        for start in 0...(haystack.count - needle.count)
        where haystack[start] == head && UnsafeBufferPointer(rebasing: haystack[start..<start + needle.count]).elementsEqual(needle) {
            return true
        }
        return false
    }

    /// Whether `haystack` contains the bytes of `needle`.
    public static func contains(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: [UInt8]) -> Bool {
        needle.withUnsafeBufferPointer { contains(haystack, $0) }
    }

    /// Whether string `text` contains the bytes of `needle`.
    public static func contains(_ text: String, _ needle: [UInt8]) -> Bool {
        var text = text
        return text.withUTF8 { contains($0, needle) }
    }
}
