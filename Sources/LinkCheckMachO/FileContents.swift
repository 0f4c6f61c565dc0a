import SystemInterface

/// Reading a whole file into memory with `pread(2)`: no mapping, so a file
/// truncated while it is read cannot raise SIGBUS.
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
        var info = stat()
        if stat(path, &info) == 0 && info.st_mode & S_IFMT != S_IFREG { throw .notRegularFile(path: path) }
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
        guard fd >= 0 else { throw .unreadable(path: path, errno: errno) }
        defer { close(fd) }
        var before = stat()
        guard fstat(fd, &before) == 0 else { throw .unreadable(path: path, errno: errno) }
        guard before.st_mode & S_IFMT == S_IFREG else { throw .notRegularFile(path: path) }
        guard let size = Int(exactly: before.st_size), size >= 0 else { throw .unreadable(path: path, errno: EFBIG) }
        var failure: Int32 = 0
        var shortRead = false
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            guard let base = buffer.baseAddress else { return }
            var done = 0
            while done < size {
                let got = pread(fd, base + done, size - done, off_t(done))
                if got < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    break
                }
                if got == 0 {
                    shortRead = true
                    break
                }
                done += got
            }
            // Bytes not read are zeroed, never left uninitialized; the read
            // is discarded below anyway.
            if done < size { (base + done).initialize(repeating: 0, count: size - done) }
            initialized = size
        }
        if failure != 0 { throw .unreadable(path: path, errno: failure) }
        var after = stat()
        guard fstat(fd, &after) == 0 else { throw .unreadable(path: path, errno: errno) }
        if shortRead || after.st_size != before.st_size || after.modificationTime != before.modificationTime {
            throw .changedWhileRead(path: path)
        }
        return bytes
    }
}
