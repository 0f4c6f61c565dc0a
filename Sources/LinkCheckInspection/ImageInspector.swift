import LinkCheckELF
import LinkCheckImage
import LinkCheckLiterals
import LinkCheckMachO
import SystemInterface

/// Reads a file with the reader its magic picks (``readers``): ELF
/// (``ELFReader``, through libelf) or Mach-O (``MachOReader``: thin, fat, or
/// a static archive of Mach-O objects). Analysis and everything after it
/// see only the resulting ``BinaryImage`` values.
public enum ImageInspector {
    /// The readers of the formats linkcheck reads, one per format, asked in
    /// order which recognises a file's first bytes.
    static let readers: [any ImageFormatReader.Type] = [ELFReader.self, MachOReader.self]

    /// How many of a file's first bytes ``ImageFormatReader/recognises(leadingBytes:)``
    /// is given: enough for the longest magic (`!<arch>\n`).
    static let leadingByteCount = 8

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
        guard let reader = try reader(of: path) else { throw .notAnImage(path: path) }
        return try reader.images(atPath: path, strings: options.strings(for: reader.format), symbols: options.symbols)
    }

    /// Whether the file at `path` starts with a magic linkcheck reads (it
    /// is an image, or holds images); `false` when it cannot be read.
    public static func isImage(path: String) -> Bool {
        (try? reader(of: path)) != nil
    }

    /// Whether a file that starts with `leadingBytes` (its first
    /// ``leadingByteCount`` bytes, fewer in a shorter file) is one of
    /// ``readers`` reads.
    static func recognises(leadingBytes: ArraySlice<UInt8>) -> Bool {
        readers.contains { $0.recognises(leadingBytes: leadingBytes) }
    }

    /// The reader that recognises the first bytes of the regular file at
    /// `path`, `nil` when none does. The file is never opened when it is a
    /// FIFO or device (`O_NONBLOCK`, and the type checked on the open file).
    ///
    /// - Throws: ``InspectionError/unreadable(path:errno:)`` when it cannot
    ///   be opened or read, ``InspectionError/notInspectable(path:reason:)``
    ///   when it is not a regular file.
    static func reader(of path: String) throws(InspectionError) -> (any ImageFormatReader.Type)? {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw .unreadable(path: path, errno: errno) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .unreadable(path: path, errno: errno) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw .notInspectable(path: path, reason: "not a regular file") }
        var bytes = [UInt8](repeating: 0, count: leadingByteCount)
        let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, leadingByteCount, 0) }
        guard count >= 0 else { throw .unreadable(path: path, errno: errno) }
        let leading = bytes.prefix(count)
        return readers.first { $0.recognises(leadingBytes: leading) }
    }
}

extension Inspection.Options {
    /// The literals to look for in an image of `format`: a Mach-O image's
    /// include the Objective-C class and selector names (Objective-C is
    /// Mach-O's).
    func strings(for format: BinaryFormat) -> LiteralPatterns {
        switch format {
        case .elf: elfStrings
        case .macho: machOStrings
        }
    }
}
