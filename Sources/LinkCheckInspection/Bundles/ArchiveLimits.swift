/// How much an archive may unpack to, relative to its own size, so that a
/// zip bomb (a small archive of gigabytes of zeros, or of a hundred thousand
/// empty entries) is an error and not a full disk.
///
/// Real `.ipa` files compress their binaries two to four times and hold
/// entries of a few kilobytes on average; deflate itself cannot do better
/// than about 1032 : 1.
public struct ArchiveLimits: Sendable, Equatable {
    /// The entries' uncompressed sizes may add up to this many times the
    /// archive's size…
    public var expansion: UInt64
    /// …or to this many bytes, whichever is more.
    public var minimumBytes: UInt64
    /// One entry per this many bytes of archive…
    public var bytesPerEntry: UInt64
    /// …or this many entries, whichever is more.
    public var minimumEntries: Int

    /// 100 × the archive's size or 64 MiB; an entry per 256 bytes or 4096
    /// entries.
    public static let standard = ArchiveLimits(expansion: 100, minimumBytes: 64 << 20, bytesPerEntry: 256, minimumEntries: 4096)

    public init(expansion: UInt64, minimumBytes: UInt64, bytesPerEntry: UInt64, minimumEntries: Int) {
        self.expansion = expansion
        self.minimumBytes = minimumBytes
        self.bytesPerEntry = bytesPerEntry
        self.minimumEntries = minimumEntries
    }

    /// The most bytes an archive of `size` bytes may unpack to.
    public func bytes(forArchiveOfSize size: UInt64) -> UInt64 {
        let (product, overflow) = size.multipliedReportingOverflow(by: expansion)
        return max(minimumBytes, overflow ? .max : product)
    }

    /// The most entries an archive of `size` bytes may hold.
    public func entries(forArchiveOfSize size: UInt64) -> Int {
        let perSize = size / max(1, bytesPerEntry)
        return max(minimumEntries, perSize > UInt64(Int.max) ? .max : Int(perSize))
    }
}
