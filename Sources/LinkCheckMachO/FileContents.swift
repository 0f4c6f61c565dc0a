import SystemInterface

/// The bytes of a whole file, for one read of it.
enum FileContents {
    /// The size from which ``withBytes(path:_:)`` maps a file instead of
    /// reading it whole (as ELF inspection does): 16 MB.
    static let largestReadFile = 16 << 20

    /// Calls `body` with the bytes of the regular file at `path` and their
    /// version, and returns what it returns; the bytes must not be used
    /// after `body` returns. A file under ``largestReadFile`` bytes is read
    /// whole with `pread(2)` (``FileRanges``): no mapping, so a file
    /// truncated while it is read cannot raise SIGBUS. A larger one is
    /// mapped (``FileMapping``, with the kernel's read-ahead): only the
    /// pages `body` touches are read, from the page cache, and a page that
    /// vanishes meanwhile (the file truncated) reads as zeros; a Mach-O
    /// reader touches the load commands, `__LINKEDIT` and a few sections,
    /// not the megabytes of code an app holds, which reading whole copied.
    ///
    /// - Throws: ``MachOError/notRegularFile(path:)`` for anything but a
    ///   regular file (a FIFO or device is never opened for reading: `stat`
    ///   first, `O_NONBLOCK`, then `fstat` of what was opened),
    ///   ``MachOError/unreadable(path:errno:)`` when `open`, `fstat`,
    ///   `pread` or `mmap` fails, ``MachOError/changedWhileRead(path:)``
    ///   when the file's size or modification time moved between the
    ///   `fstat` before and the one after reading it, it ended early, or
    ///   (mapped) a page vanished while `body` read it, whatever `body`
    ///   returned.
    static func withBytes<Value>(
        path: String, _ body: (UnsafeRawBufferPointer, FileVersion) -> Value
    ) throws(MachOError) -> Value {
        let file = try FileRanges(path: path)
        if file.size >= largestReadFile { return try FileMapping(file, randomAccess: false).read { body($0, file.version) } }
        let bytes = try file.bytes(at: 0, count: UInt64(file.size), structure: "file")
        if file.modifiedSinceOpened { throw .changedWhileRead(path: file.path) }
        return bytes.withUnsafeBytes { body($0, file.version) }
    }
}
