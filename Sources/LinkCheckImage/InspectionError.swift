/// Why a file could not be inspected. Each case names the file; the run goes
/// on with the other files.
public enum InspectionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `open(2)` or `read(2)` failed; `errno` is the system error number.
    case unreadable(path: String, errno: Int32)
    /// The file starts with none of the magics linkcheck reads: ELF's
    /// `\x7fELF`, Mach-O's (`MH_MAGIC(_64)`, `MH_CIGAM(_64)`), fat
    /// (`FAT_MAGIC(_64)`), or a static archive's `!<arch>\n` holding Mach-O
    /// objects.
    case notAnImage(path: String)
    /// Not a file linkcheck opens: a FIFO, socket or device (`reason` says
    /// which), never opened for reading.
    case notInspectable(path: String, reason: String)
    /// A structure the file cannot be read without is malformed.
    /// `structure` names it (`ELF header`, `section header table`,
    /// `fat header`, `mach_header`, …) and `reason` says what is wrong
    /// (for ELF, libelf's `elf_errmsg` text).
    case malformed(path: String, format: BinaryFormat = .elf, structure: String, reason: String)
    /// The file changed while it was read: it shrank under the reader
    /// (truncated in place, as `cp` over it or a linker writing its output
    /// does), or its size or modification time moved (rewritten in place).
    /// What was read is discarded. A file replaced by renaming a new one
    /// over it is read as it was when opened.
    case changedWhileRead(path: String)
    /// The file's name is not valid UTF-8: Swift strings replace such bytes
    /// with U+FFFD, so `path` (holding U+FFFD) names no file, and linkcheck
    /// cannot open the one that exists.
    case invalidFileName(path: String)

    /// The file the error is about.
    public var path: String {
        switch self {
        case .unreadable(let path, _), .notAnImage(let path), .malformed(let path, _, _, _), .notInspectable(let path, _),
             .changedWhileRead(let path), .invalidFileName(let path): path
        }
    }

    public var description: String {
        switch self {
        case .unreadable(let path, let code):
            "\(path): cannot read: \(String(cString: strerror(code)))"
        case .notAnImage(let path):
            "\(path): not an ELF or Mach-O file"
        case .malformed(let path, let format, let structure, let reason):
            "\(path): malformed \(format == .elf ? "ELF" : "Mach-O"): \(structure): \(reason)"
        case .notInspectable(let path, let reason):
            "\(path): skipped: \(reason)"
        case .changedWhileRead(let path):
            "\(path): changed while it was read; check it again once it is written"
        case .invalidFileName(let path):
            "\(path): the file name is not valid UTF-8, which linkcheck cannot open"
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
