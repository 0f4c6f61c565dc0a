import LinkCheckELF
import LinkCheckImage

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Reads a file with the reader its magic picks: ELF (``ELFReader``, through
/// libelf) or Mach-O. Analysis and everything after it see only the
/// resulting ``BinaryImage`` values.
public enum ImageInspector {
    /// The images in the file at `path`: one for an ELF file, one per
    /// architecture slice of a Mach-O file, one per Mach-O member of a
    /// static archive.
    ///
    /// `strings` are the literals to look for in read-only data and
    /// `symbols` which symbols to keep (``SymbolSelection``).
    ///
    /// - Throws: ``InspectionError`` when the file cannot be read, starts
    ///   with no magic linkcheck reads (``InspectionError/notAnImage(path:)``),
    ///   a structure it cannot be read without is malformed, or it changed
    ///   while it was read.
    public static func inspect(
        path: String, strings: [String] = [], symbols: SymbolSelection = .all
    ) throws(InspectionError) -> [BinaryImage] {
        switch try FileMagic(path: path) {
        case .elf: [try ELFReader.read(path: path, strings: strings, symbols: symbols)]
        case .unknown: throw .notAnImage(path: path)
        }
    }

    /// Whether the file at `path` starts with a magic linkcheck reads (it
    /// is an image, or holds images); `false` when it cannot be read.
    public static func isImage(path: String) -> Bool {
        guard let magic = try? FileMagic(path: path) else { return false }
        return magic != .unknown
    }
}

/// The format a file's first bytes announce.
enum FileMagic {
    /// `\x7fELF`.
    case elf
    /// Anything else.
    case unknown

    /// Reads the first bytes of the regular file at `path` (never opening a
    /// FIFO or device: `O_NONBLOCK`, and the type checked on the open file).
    init(path: String) throws(InspectionError) {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw .unreadable(path: path, errno: errno) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .unreadable(path: path, errno: errno) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw .notInspectable(path: path, reason: "not a regular file") }
        var bytes = [UInt8](repeating: 0, count: 8)
        let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, 8, 0) }
        guard count >= 0 else { throw .unreadable(path: path, errno: errno) }
        self = count >= 4 && bytes[0] == 0x7F && bytes[1] == 0x45 && bytes[2] == 0x4C && bytes[3] == 0x46 ? .elf : .unknown
    }
}
