import SystemInterface

/// A regular file opened for reading parts of it with `pread(2)`: for files
/// too large to read whole when only some of their bytes are wanted (a dSYM,
/// whose `__DWARF` sections of one slice are read, never the rest).
///
/// Every read is checked against the size `fstat(2)` gave when the file was
/// opened; the descriptor is closed when the value is released.
final class FileRanges {
    /// The path the file was opened at.
    let path: String
    /// The file's size in bytes when it was opened.
    let size: Int
    /// The file's modification time when it was opened.
    let modificationTime: (seconds: Int, nanoseconds: Int)
    /// The open descriptor, read-only.
    let descriptor: Int32
    /// The file's version when it was opened.
    let version: FileVersion

    /// Opens the regular file at `path`.
    ///
    /// - Throws: ``MachOError/notRegularFile(path:)`` for anything but a
    ///   regular file (checked with `stat` before opening, `O_NONBLOCK`,
    ///   and `fstat` after), ``MachOError/unreadable(path:errno:)`` when
    ///   `open` or `fstat` fails.
    init(path: String) throws(MachOError) {
        var openedAt = timespec()
        clock_gettime(CLOCK_REALTIME, &openedAt)
        var info = stat()
        if stat(path, &info) == 0 && info.st_mode & S_IFMT != S_IFREG { throw .notRegularFile(path: path) }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
        guard descriptor >= 0 else { throw .unreadable(path: path, errno: errno) }
        var opened = stat()
        guard fstat(descriptor, &opened) == 0 else {
            let code = errno
            close(descriptor)
            throw .unreadable(path: path, errno: code)
        }
        guard opened.st_mode & S_IFMT == S_IFREG, let size = Int(exactly: opened.st_size), size >= 0 else {
            close(descriptor)
            throw .notRegularFile(path: path)
        }
        (self.path, self.size, self.modificationTime, self.descriptor) = (path, size, opened.modificationTime, descriptor)
        version = FileVersion(opened, openedAt: openedAt)
    }

    deinit { close(descriptor) }

    /// Whether the file's size or modification time differ from when it was
    /// opened (`fstat(2)` of the descriptor; not the change time, which an
    /// unlink or rename moves without touching the contents).
    var modifiedSinceOpened: Bool {
        var now = stat()
        guard fstat(descriptor, &now) == 0 else { return false }
        return now.st_size != off_t(size) || now.modificationTime != modificationTime
    }

    /// The `count` bytes at file offset `offset`.
    ///
    /// - Throws: ``MachOError/truncated(path:structure:offset:needed:available:)``
    ///   (naming `structure`) when the range runs past the end of the file,
    ///   ``MachOError/unreadable(path:errno:)`` when `pread` fails,
    ///   ``MachOError/changedWhileRead(path:)`` when the file ends early.
    func bytes(at offset: UInt64, count: UInt64, structure: String) throws(MachOError) -> [UInt8] {
        let fileSize = UInt64(size)
        guard offset <= fileSize, count <= fileSize - offset else {
            throw .truncated(
                path: path, structure: structure, offset: Int(clamping: offset), needed: Int(clamping: count),
                available: offset <= fileSize ? Int(fileSize - offset) : 0)
        }
        let (start, length) = (Int(offset), Int(count))
        var failure: Int32 = 0
        var done = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: length) { buffer, initialized in
            guard let base = buffer.baseAddress else { return }
            while done < length {
                let got = pread(descriptor, base + done, length - done, off_t(start + done))
                if got < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    break
                }
                if got == 0 { break }
                done += got
            }
            if done < length { (base + done).initialize(repeating: 0, count: length - done) }
            initialized = length
        }
        if failure != 0 { throw .unreadable(path: path, errno: failure) }
        if done < length { throw .changedWhileRead(path: path) }
        return bytes
    }
}
