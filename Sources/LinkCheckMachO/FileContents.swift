import SystemInterface

/// The bytes of a whole file, for one read of it.
enum FileContents {
    /// The size from which ``withBytes(path:_:)`` maps a file instead of
    /// reading it whole (as ELF inspection does): 16 MB.
    static let largestReadFile = 16 << 20

    /// The bytes of the regular file at `path`, read whole with `pread(2)`
    /// (``FileRanges``): no mapping, so a file truncated while it is read
    /// cannot raise SIGBUS.
    ///
    /// - Throws: ``MachOError/notRegularFile(path:)`` for anything but a
    ///   regular file (a FIFO or device is never opened for reading: `stat`
    ///   first, `O_NONBLOCK`, then `fstat` of what was opened),
    ///   ``MachOError/unreadable(path:errno:)`` when `open`, `fstat` or
    ///   `pread` fails, ``MachOError/changedWhileRead(path:)`` when the file's
    ///   size or modification time moved between the `fstat` before and the
    ///   one after reading it, or it ended early.
    static func read(path: String) throws(MachOError) -> [UInt8] {
        try read(FileRanges(path: path))
    }

    /// Calls `body` with the bytes of the regular file at `path` and their
    /// version, and returns what it returns; the bytes must not be used
    /// after `body` returns. A file of ``largestReadFile`` bytes or more is mapped
    /// (``FileMapping``, with the kernel's read-ahead): only the pages
    /// `body` touches are read, from the page cache, and a page that
    /// vanishes meanwhile (the file truncated) reads as zeros; a Mach-O
    /// reader touches the load commands, `__LINKEDIT` and a few sections,
    /// not the megabytes of code an app holds, which reading whole copied.
    /// A smaller file is read whole (``read(path:)``).
    ///
    /// - Throws: as ``read(path:)``; for a mapped file,
    ///   ``MachOError/changedWhileRead(path:)`` also when a page vanished
    ///   while `body` read it (whatever `body` returned).
    static func withBytes<Value>(
        path: String, _ body: (UnsafeRawBufferPointer, FileVersion) -> Value
    ) throws(MachOError) -> Value {
        let file = try FileRanges(path: path)
        if file.size >= largestReadFile { return try FileMapping(file, randomAccess: false).read { body($0, file.version) } }
        return try read(file).withUnsafeBytes { body($0, file.version) }
    }

    private static func read(_ file: FileRanges) throws(MachOError) -> [UInt8] {
        let bytes = try file.bytes(at: 0, count: UInt64(file.size), structure: "file")
        if file.modifiedSinceOpened { throw .changedWhileRead(path: file.path) }
        return bytes
    }
}
