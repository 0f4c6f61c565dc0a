import CMappedFileGuard
import SystemInterface

/// A regular file mapped whole and read-only (`mmap(2)`, `PROT_READ`,
/// `MAP_PRIVATE`), for reading a few parts of a large file (a dSYM's
/// `__DWARF` sections) without reading all of it: only the pages a read
/// touches are read from the file and become resident, and the kernel may
/// drop them again. The mapping is advised `MADV_RANDOM`: a DWARF lookup
/// hops from unit header to unit header, and the kernel's read-ahead would
/// read the units in between.
///
/// Bytes are only reached in ``read(_:)``, a guarded read
/// (`CMappedFileGuard`): a page that vanishes meanwhile (the file truncated
/// in place) reads as zeros instead of raising SIGBUS, and the read then
/// throws ``MachOError/changedWhileRead(path:)``, as it does when the
/// file's size or modification time moved (rewritten in place). A file
/// renamed over (replaced) is read as it was when mapped. The mapping is
/// removed and the descriptor closed when the value is released.
public final class FileMapping {
    /// The path the file was opened at.
    public var path: String { file.path }
    /// The file's size in bytes when it was mapped.
    public var size: Int { file.size }
    private let file: FileRanges
    /// The first byte of the mapping; `nil` for an empty file, which
    /// cannot be mapped.
    private let base: UnsafeMutableRawPointer?

    /// Maps the regular file at `path`.
    ///
    /// - Throws: ``MachOError/notRegularFile(path:)`` for anything but a
    ///   regular file, ``MachOError/unreadable(path:errno:)`` when `open`,
    ///   `fstat` or `mmap` fails.
    public convenience init(path: String) throws(MachOError) {
        try self.init(FileRanges(path: path), randomAccess: true)
    }

    /// Maps `file`, advised `MADV_RANDOM` when `randomAccess`, else left to
    /// the kernel's read-ahead (a reader that goes through much of it in
    /// order, as a scan of code does).
    ///
    /// - Throws: ``MachOError/unreadable(path:errno:)`` when `mmap` fails.
    init(_ file: FileRanges, randomAccess: Bool) throws(MachOError) {
        guard file.size > 0 else {
            (self.file, self.base) = (file, nil)
            return
        }
        guard let base = mmap(nil, file.size, PROT_READ, MAP_PRIVATE, file.descriptor, 0), base != MAP_FAILED else {
            throw .unreadable(path: file.path, errno: errno)
        }
        if randomAccess { _ = madvise(base, file.size, MADV_RANDOM) }
        (self.file, self.base) = (file, base)
    }

    deinit {
        if let base { munmap(base, file.size) }
    }

    /// Calls `body` with the file's bytes (``size`` of them) as one guarded
    /// read; the bytes must not be used after `body` returns.
    ///
    /// - Throws: ``MachOError/changedWhileRead(path:)``, whatever `body`
    ///   returned, when a page of the file vanished while `body` read it or
    ///   the file's size or modification time changed since it was mapped.
    public func read<Value>(_ body: (UnsafeRawBufferPointer) -> Value) throws(MachOError) -> Value {
        linkcheck_guard_begin()
        defer { linkcheck_guard_end() }
        let faults = linkcheck_guard_faults()
        let value = body(UnsafeRawBufferPointer(start: base, count: base == nil ? 0 : file.size))
        if linkcheck_guard_faults() != faults || file.modifiedSinceOpened { throw .changedWhileRead(path: path) }
        return value
    }
}
