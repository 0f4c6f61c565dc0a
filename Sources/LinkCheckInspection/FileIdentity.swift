import SystemInterface

/// A file's device and inode (`stat(2)`): one file reached by several paths
/// (symbolic links, `/lib` linked to `/usr/lib`) has one identity.
public struct FileIdentity: Hashable, Sendable {
    public let device: UInt64
    public let inode: UInt64

    /// The identity `info` describes.
    init(_ info: stat) {
        device = info.deviceNumber
        inode = UInt64(info.st_ino)
    }

    /// The identity of the regular file at `path`, following symbolic
    /// links; `nil` when it cannot be examined (missing, no permission) or
    /// is not a regular file (a FIFO or device is never a library, and is
    /// not opened).
    public init?(regularFileAt path: String) {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        self.init(info)
    }
}
