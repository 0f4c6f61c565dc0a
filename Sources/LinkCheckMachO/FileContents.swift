import SystemInterface

/// Reading a whole file into memory with `pread(2)` (``FileRanges``): no
/// mapping, so a file truncated while it is read cannot raise SIGBUS.
enum FileContents {
    /// The bytes of the regular file at `path`.
    ///
    /// - Throws: ``MachOError/notRegularFile(path:)`` for anything but a
    ///   regular file (a FIFO or device is never opened for reading: `stat`
    ///   first, `O_NONBLOCK`, then `fstat` of what was opened),
    ///   ``MachOError/unreadable(path:errno:)`` when `open`, `fstat` or
    ///   `pread` fails, ``MachOError/changedWhileRead(path:)`` when the file's
    ///   size or modification time moved between the `fstat` before and the
    ///   one after reading it, or it ended early.
    static func read(path: String) throws(MachOError) -> [UInt8] {
        let file = try FileRanges(path: path)
        let bytes = try file.bytes(at: 0, count: UInt64(file.size), structure: "file")
        if file.modifiedSinceOpened { throw .changedWhileRead(path: path) }
        return bytes
    }
}
