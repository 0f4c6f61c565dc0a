#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The regular files found under the paths a user gave, ready to inspect.
public struct Discovery: Sendable, Equatable {
    /// Regular files to inspect, sorted by path, each file (device and
    /// inode) once.
    public var files: [String] = []
    /// Entries passed over without being opened, with the reason.
    public var skipped: [SkippedEntry] = []
    /// Paths that could not be examined at all (missing, unreadable
    /// directory, symbolic-link loop).
    public var errors: [InspectionError] = []

    /// Walks `paths`: files are taken as they are; directories recursively,
    /// in sorted order. Symbolic links are followed; a directory or file
    /// reached twice (through links or a loop) is visited once, and a link
    /// that cannot be resolved (`ELOOP`, dangling) is an error naming it.
    /// FIFOs, sockets and devices are skipped without being opened.
    public init(paths: [String]) {
        var walker = Walker()
        for path in paths {
            walker.visit(path, depth: 0)
        }
        files = walker.files.values.map(\.path).sorted()
        skipped = walker.skipped.sorted { $0.path < $1.path }
        errors = walker.errors
    }
}

/// A directory entry that discovery passed over.
public struct SkippedEntry: Sendable, Equatable {
    public var path: String
    /// Why: `not a regular file`, `not an ELF file`, ….
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }
}

private struct Walker {
    /// Files by identity; the path reached without a symbolic link wins.
    var files: [FileIdentity: (path: String, viaLink: Bool)] = [:]
    var visitedDirectories = Set<FileIdentity>()
    var skipped: [SkippedEntry] = []
    var errors: [InspectionError] = []

    /// Nesting bound: deeper trees are reported rather than walked.
    static let maximumDepth = 64

    mutating func visit(_ path: String, depth: Int) {
        var linkInfo = stat()
        guard lstat(path, &linkInfo) == 0 else {
            errors.append(.unreadable(path: path, errno: errno))
            return
        }
        let isLink = linkInfo.st_mode & S_IFMT == S_IFLNK
        // Only a symbolic link needs a second look at what it points to.
        var info = linkInfo
        guard !isLink || stat(path, &info) == 0 else {
            errors.append(.unreadable(path: path, errno: errno))
            return
        }
        let identity = FileIdentity(info)
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            if let existing = files[identity], !(existing.viaLink && !isLink) { return }
            files[identity] = (path, isLink)
        case S_IFDIR:
            guard visitedDirectories.insert(identity).inserted else { return }
            guard depth < Self.maximumDepth else {
                skipped.append(SkippedEntry(path: path, reason: "nested deeper than \(Self.maximumDepth) directories"))
                return
            }
            for name in entries(of: path) {
                visit(path.hasSuffix("/") ? path + name : path + "/" + name, depth: depth + 1)
            }
        default:
            skipped.append(SkippedEntry(path: path, reason: "not a regular file"))
        }
    }

    /// The names in directory `path` except `.` and `..`, sorted
    /// (`opendir`/`readdir`).
    mutating func entries(of path: String) -> [String] {
        guard let directory = opendir(path) else {
            errors.append(.unreadable(path: path, errno: errno))
            return []
        }
        defer { closedir(directory) }
        var names: [String] = []
        // readdir's entry may be shorter than `struct dirent` (glibc sizes it
        // to the name), so the name is read in place, never copied whole.
        let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        while let entry = readdir(directory) {
            let name = String(cString: (UnsafeRawPointer(entry) + nameOffset).assumingMemoryBound(to: CChar.self))
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }
}
