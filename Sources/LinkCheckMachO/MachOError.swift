import SystemInterface

/// Why a file could not be read at all. Each case names the file; anything
/// less (a malformed load command, a fat slice past the end, a bind opcode
/// stream that runs out) is a warning on the slice or image instead, and the
/// rest is read.
public enum MachOError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `open(2)`, `fstat(2)` or `pread(2)` failed; `errno` is the system
    /// error number.
    case unreadable(path: String, errno: Int32)
    /// Not a regular file (a FIFO, socket, device or directory): never
    /// opened for reading, since reading one may block or act on it.
    case notRegularFile(path: String)
    /// The file starts with none of the magic numbers of a thin Mach-O image
    /// (`MH_MAGIC`, `MH_MAGIC_64`, `MH_CIGAM`, `MH_CIGAM_64`), a fat file
    /// (`FAT_MAGIC`, `FAT_MAGIC_64`) or a static archive (`!<arch>\n`).
    case notMachO(path: String)
    /// The file's first structure (`structure`: `mach_header_64`,
    /// `fat_header`, `ar_hdr`…) does not fit: it needs `needed` bytes at
    /// file offset `offset` and the file has `available` there.
    case truncated(path: String, structure: String, offset: Int, needed: Int, available: Int)
    /// The file's size or modification time moved while it was read, or it
    /// shrank under the reader: what was read is discarded.
    case changedWhileRead(path: String)

    /// The file the error is about.
    public var path: String {
        switch self {
        case .unreadable(let path, _), .notRegularFile(let path), .notMachO(let path),
            .truncated(let path, _, _, _, _), .changedWhileRead(let path):
            path
        }
    }

    public var description: String { "\(path): \(reason)" }

    /// What is wrong, without the file's name (``description`` is
    /// `PATH: REASON`): for a sentence that names the file already.
    public var reason: String {
        switch self {
        case .unreadable(_, let code):
            "cannot read: \(String(cString: strerror(code)))"
        case .notRegularFile:
            "skipped: not a regular file"
        case .notMachO:
            "not a Mach-O file, fat file or static archive"
        case .truncated(_, let structure, let offset, let needed, let available):
            "truncated: the \(structure) at file offset \(hex(offset)) needs \(needed) bytes, the file has \(available)"
        case .changedWhileRead:
            "changed while it was read; check it again once it is written"
        }
    }
}
