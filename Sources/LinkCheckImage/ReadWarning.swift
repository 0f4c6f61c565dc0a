/// One problem that did not stop a reader: a structure that is malformed
/// or out of range, read without or read in part. The image is still
/// returned, and with a warning is never called safe.
public enum ReadWarning: Sendable, Hashable, CustomStringConvertible {
    /// A structure at a file offset, in bytes from the start of the file:
    /// `LC_RPATH at file offset 0x4a0: the path offset … runs past the
    /// command; skipped` (Mach-O).
    case located(structure: String, fileOffset: Int, problem: String)
    /// A problem worded whole, naming its structure first where it has one:
    /// `.gnu.version_r: record at offset 12 is out of range`, `DT_NEEDED
    /// string offset 9 is out of range` (ELF).
    case problem(String)
    /// How many more warnings there were past ``ReadWarnings/limit``.
    case more(count: Int)

    /// How reports word the warning.
    public var description: String {
        switch self {
        case .located(let structure, let fileOffset, let problem):
            "\(structure) at file offset \(fileOffset < 0 ? "-" : "")0x\(String(fileOffset.magnitude, radix: 16)): \(problem)"
        case .problem(let problem): problem
        case .more(let count): "\(count) more warnings like these"
        }
    }
}

/// The warnings of one image, or of one file's own structure (a fat
/// header, an archive's member headers), as a reader gathers them.
///
/// At most ``limit`` are kept, so that a hostile file cannot grow the list
/// without bound; ``all`` ends with one ``ReadWarning/more(count:)`` saying
/// how many more there were.
public struct ReadWarnings: Sendable, Hashable {
    private var kept: [ReadWarning] = []
    private var dropped = 0

    /// The most warnings kept for one image or file.
    public static let limit = 64

    public init() {}

    /// Adds `warning`, or counts it when ``limit`` are kept already.
    public mutating func add(_ warning: ReadWarning) {
        if kept.count < Self.limit { kept.append(warning) } else { dropped += 1 }
    }

    /// Adds ``ReadWarning/located(structure:fileOffset:problem:)``:
    /// "`structure` at file offset `fileOffset`: `problem`".
    public mutating func add(_ structure: String, at fileOffset: Int, _ problem: String) {
        add(.located(structure: structure, fileOffset: fileOffset, problem: problem))
    }

    /// Adds ``ReadWarning/problem(_:)``: a problem worded whole.
    public mutating func add(_ problem: String) {
        add(.problem(problem))
    }

    /// Whether no warning was added.
    public var isEmpty: Bool { kept.isEmpty }

    /// The warnings kept, in the order added, with a last one counting
    /// those dropped over ``limit``.
    public var all: [ReadWarning] {
        dropped == 0 ? kept : kept + [.more(count: dropped)]
    }
}
