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
    /// The modification was long enough before the file was opened that a
    /// later rewrite gets a later modification time: 0.1 s where the time
    /// has a fraction of a second (the kernel's coarse clock steps a few
    /// milliseconds), 2 s where it has none (a file system that keeps whole
    /// seconds, such as ext4 with small inodes or HFS+, or FAT's even
    /// seconds: a rewrite within the same second or two would keep it).
    var isSettled: Bool

    /// The version of the file `status` describes (`fstat` of the
    /// descriptor), opened at `openedAt` (`CLOCK_REALTIME`, as file times
    /// are).
    init(_ status: stat, openedAt: timespec) {
        self.init(
            device: status.deviceNumber, inode: UInt64(status.st_ino), size: Int(status.st_size), modified: status.modificationTime,
            openedAt: (Int(openedAt.tv_sec), Int(openedAt.tv_nsec)))
    }

    /// The version of a file with these `fstat` fields, opened at
    /// `openedAt` (seconds and nanoseconds since the epoch).
    init(
        device: UInt64, inode: UInt64, size: Int, modified: (seconds: Int, nanoseconds: Int),
        openedAt: (seconds: Int, nanoseconds: Int)
    ) {
        (self.device, self.inode, self.size) = (device, inode, size)
        (modifiedSeconds, modifiedNanoseconds) = modified
        func nanoseconds(_ time: (seconds: Int, nanoseconds: Int)) -> Int {
            time.seconds.multipliedReportingOverflow(by: 1_000_000_000).partialValue &+ time.nanoseconds
        }
        let settledAfter = modified.nanoseconds == 0 ? 2_000_000_000 : 100_000_000
        isSettled = nanoseconds(openedAt) &- nanoseconds(modified) >= settledAfter
    }
}
