import SystemInterface

/// One version of a file as `fstat(2)` tells it without reading it: the
/// device and inode, the size and the modification time.
struct FileVersion: Equatable {
    /// `st_dev`.
    var device: UInt64
    /// `st_ino`.
    var inode: UInt64
    /// `st_size`, in bytes.
    var size: Int
    /// `st_mtim` (Darwin: `st_mtimespec`), seconds since the epoch.
    var modifiedSeconds: Int
    /// `st_mtim`'s nanoseconds.
    var modifiedNanoseconds: Int
    /// The modification was at least ``settledAfter`` seconds before the
    /// file was opened: a later rewrite gets a later modification time,
    /// even from the kernel's coarse clock (whose steps are a few
    /// milliseconds), so it cannot leave this version's unchanged.
    var isSettled: Bool

    /// 0.1 s, in nanoseconds.
    static let settledAfter = 100_000_000

    /// The version of the file `status` describes (`fstat` of the
    /// descriptor), opened at `openedAt` (`CLOCK_REALTIME`, as file times
    /// are).
    init(_ status: stat, openedAt: timespec) {
        device = status.deviceNumber
        inode = UInt64(status.st_ino)
        size = Int(status.st_size)
        (modifiedSeconds, modifiedNanoseconds) = status.modificationTime
        let opened = Int(openedAt.tv_sec).multipliedReportingOverflow(by: 1_000_000_000).partialValue &+ Int(openedAt.tv_nsec)
        let modified = modifiedSeconds.multipliedReportingOverflow(by: 1_000_000_000).partialValue &+ modifiedNanoseconds
        isSettled = opened &- modified >= Self.settledAfter
    }
}
