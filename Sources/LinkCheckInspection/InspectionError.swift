/// Why a file could not be inspected. Each case names the file; the run goes
/// on with the other files.
public enum InspectionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `open(2)` or `read(2)` failed; `errno` is the system error number.
    case unreadable(path: String, errno: Int32)
    /// The file does not start with the ELF magic `\x7fELF`.
    case notELF(path: String)
    /// Not a file linkcheck opens: a FIFO, socket or device (`reason` says
    /// which), never opened for reading.
    case notInspectable(path: String, reason: String)
    /// libelf rejected a structure of the file. `structure` names it
    /// (`ELF header`, `section header table`, …) and `reason` is libelf's
    /// `elf_errmsg` text.
    case malformed(path: String, structure: String, reason: String)
    /// The file changed while it was read: it shrank under the reader
    /// (truncated in place, as `cp` over it or a linker writing its output
    /// does), or its size or modification time moved (rewritten in place).
    /// What was read is discarded. A file replaced by renaming a new one
    /// over it is read as it was when opened.
    case changedWhileRead(path: String)

    /// The file the error is about.
    public var path: String {
        switch self {
        case .unreadable(let path, _), .notELF(let path), .malformed(let path, _, _), .notInspectable(let path, _),
             .changedWhileRead(let path): path
        }
    }

    public var description: String {
        switch self {
        case .unreadable(let path, let code):
            "\(path): cannot read: \(String(cString: strerror(code)))"
        case .notELF(let path):
            "\(path): not an ELF file"
        case .malformed(let path, let structure, let reason):
            "\(path): malformed ELF: \(structure): \(reason)"
        case .notInspectable(let path, let reason):
            "\(path): skipped: \(reason)"
        case .changedWhileRead(let path):
            "\(path): changed while it was read; check it again once it is written"
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
