import LinkCheckELF
import LinkCheckImage
import LinkCheckMachO

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Reads a file with the reader its magic picks: ELF (``ELFReader``, through
/// libelf) or Mach-O (``MachOReader``: thin, fat, or a static archive of
/// Mach-O objects). Analysis and everything after it see only the
/// resulting ``BinaryImage`` values.
public enum ImageInspector {
    /// The images in the file at `path`: one for an ELF file, one per
    /// architecture slice of a Mach-O file, one per Mach-O member of a
    /// static archive, read for what `options` asks: the literals to look
    /// for in read-only data (with the Objective-C class and selector names
    /// a use by name is told by, in a Mach-O image) and which symbols to
    /// keep (``SymbolSelection``).
    ///
    /// - Throws: ``InspectionError`` when the file cannot be read, starts
    ///   with no magic linkcheck reads (``InspectionError/notAnImage(path:)``),
    ///   a structure it cannot be read without is malformed, or it changed
    ///   while it was read.
    public static func inspect(path: String, options: Inspection.Options = .init()) throws(InspectionError) -> [BinaryImage] {
        switch try FileMagic(path: path) {
        case .elf: [try ELFReader.read(path: path, strings: options.elfStrings, symbols: options.symbols)]
        case .macho: try MachOReader.read(path: path, strings: options.machOStrings, symbols: options.symbols)
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
    /// A thin Mach-O image (`MH_MAGIC(_64)`, `MH_CIGAM(_64)`), a fat file
    /// (`FAT_MAGIC(_64)`, which Java class files share: the reader tells
    /// them apart) or a static archive (`!<arch>\n`, of Mach-O objects or
    /// not: the reader tells).
    case macho
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
        self = Self.kind(of: bytes.prefix(max(count, 0)))
    }

    static func kind(of bytes: ArraySlice<UInt8>) -> FileMagic {
        guard bytes.count >= 4 else { return .unknown }
        let first = Array(bytes.prefix(4))
        if first == [0x7F, 0x45, 0x4C, 0x46] { return .elf }
        let machO: [[UInt8]] = [
            [0xFE, 0xED, 0xFA, 0xCE], [0xFE, 0xED, 0xFA, 0xCF], [0xCE, 0xFA, 0xED, 0xFE], [0xCF, 0xFA, 0xED, 0xFE],
            [0xCA, 0xFE, 0xBA, 0xBE], [0xCA, 0xFE, 0xBA, 0xBF],
        ]
        if machO.contains(first) { return .macho }
        if bytes.count >= 8 && Array(bytes.prefix(8)) == Array("!<arch>\n".utf8) { return .macho }
        return .unknown
    }
}
