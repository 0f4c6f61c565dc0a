import Foundation
import LinkCheckImage
import SystemInterface

/// The regular files found under the paths a user gave, ready to inspect.
public struct Discovery: Sendable, Equatable {
    /// The paths walked, as given.
    public var paths: [String]
    /// Regular files to inspect, sorted by path, each file (device and
    /// inode) once.
    public var files: [String] = []
    /// Entries passed over without being opened, with the reason: files
    /// that are not regular, folders nested too deep, symbolic links not
    /// followed.
    public var skipped: [SkippedEntry] = []
    /// Paths that could not be examined at all (missing, an unreadable
    /// directory, a path given that is a dangling link or a link loop, a
    /// name that is not valid UTF-8), and the bundles walked whose
    /// executable cannot be found (``BundleLayout/incompleteBundles``).
    public var errors: [InspectionError] = []
    /// The `.ipa` and `.zip` archives found, each unpacked into a private
    /// folder whose files are among ``files``, for as long as the body of
    /// ``withUnpackedInputs(paths:followingSymbolicLinks:temporaryDirectory:jobs:alongside:_:)``
    /// runs.
    public private(set) var archives: [UnpackedArchive] = []
    /// The bundles around ``files`` (`.app`, `.appex`, `.framework`,
    /// `.xcframework`), and what their `Info.plist` files say.
    public private(set) var bundles = BundleLayout()
    /// The path in ``files`` of each file identity.
    private var pathsByIdentity: [FileIdentity: String] = [:]

    /// Walks `paths`: files are taken as they are (a symbolic link given
    /// as a path is followed wherever it points); directories recursively,
    /// in sorted order.
    ///
    /// A symbolic link met in a directory (to a folder or a file) is
    /// followed only when its target lies inside one of the directories
    /// given (a framework's `Versions/Current → A`, `libfoo.so →
    /// libfoo.so.1`), unless `followingSymbolicLinks`; one that leads
    /// elsewhere (`root → /`) is skipped as a ``SkippedEntry/Kind/link``,
    /// as `find` and `rg` pass links over unless asked. A directory or file
    /// reached twice (through links or a loop) is visited once, under the
    /// path without a link when there is one. A link met in a directory
    /// that dangles or loops (`ELOOP`) is skipped as a link, with the
    /// reason; a path given that cannot be resolved is an error naming it.
    /// FIFOs, sockets and devices are skipped without being opened. A name
    /// that is not valid UTF-8 (a directory entry's raw bytes, or a path
    /// given that holds U+FFFD, as Swift repairs such bytes, and does not
    /// exist) is an error: linkcheck cannot open it
    /// (``InspectionError/invalidFileName(path:)``).
    ///
    /// A file named `*.ipa` or `*.zip` (given, or met in a folder) is
    /// unpacked (``UnpackedArchive``) into a private folder under
    /// `temporaryDirectory`, whose `Payload` (an `.ipa`) or whole tree (a
    /// `.zip`) is walked; what the files there are is reported under the
    /// archive's name (``displayPath(of:)``:
    /// `Photos.ipa:Payload/Photos.app/Photos`,
    /// `Kit.xcframework.zip:Kit.xcframework/ios-arm64/Kit.framework/Kit`),
    /// and an archive that cannot be unpacked is an error naming it. A
    /// `.zip` that holds no bundle is skipped when met in a folder, an
    /// error when given. The bundles around the files are then read
    /// (``bundles``).
    ///
    /// The walk alone: the folders archives are unpacked into outlive it.
    /// Outside this package the walk is
    /// ``withUnpackedInputs(paths:followingSymbolicLinks:temporaryDirectory:jobs:alongside:_:)``,
    /// which removes them; tests walk folders that hold no archive with it.
    package init(
        paths: [String], followingSymbolicLinks: Bool = false, temporaryDirectory: String = UnpackedArchive.defaultTemporaryDirectory
    ) {
        self.paths = paths
        var walker = Walker(followingSymbolicLinks: followingSymbolicLinks, temporaryDirectory: temporaryDirectory)
        walker.roots = paths.compactMap { path in
            var info = stat()
            guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return nil }
            return SymbolicLinks.realPath(path)
        }
        for path in paths {
            walker.visit(path, depth: 0)
        }
        walker.followPendingLinks()
        files = walker.files.values.map(\.path).sorted()
        pathsByIdentity = walker.files.mapValues(\.path)
        archives = walker.archives
        bundles = BundleLayout(
            files: files, bundleFolders: walker.bundleFolders,
            unpacked: archives.map { ArchiveFolder(folder: $0.folder, archive: $0.archive) })
        skipped = walker.skipped.map { SkippedEntry(path: displayPath(of: $0.path), reason: $0.reason, kind: $0.kind) }
            .sorted { $0.path < $1.path }
        errors = (walker.errors + bundles.incompleteBundles).map(named)
    }

    /// The archive entry the file at `path` (one of ``files``) was unpacked
    /// from; `nil` for a file that is not in an unpacked archive.
    public func entry(forFile path: String) -> ArchiveEntry? {
        bundles.entry(forFile: path)
    }

    /// How reports name the file or folder at `path`: `archive:entry` for
    /// one unpacked from an archive, else `path` itself.
    public func displayPath(of path: String) -> String {
        bundles.displayPath(of: path)
    }

    /// `image` with the archive entry its file was unpacked from
    /// (``ImageIdentity/unpackedFrom``), which names it in reports:
    /// `Photos.ipa:Payload/Photos.app/Photos`.
    public func named(_ image: BinaryImage) -> BinaryImage {
        bundles.named(image)
    }

    /// `error` naming the file by ``displayPath(of:)``.
    public func named(_ error: InspectionError) -> InspectionError {
        error.naming(displayPath(of: error.path))
    }

    /// Walks `paths` (as described at ``init(paths:followingSymbolicLinks:temporaryDirectory:)``)
    /// while `alongside` runs (work that does not need the files, such as
    /// loading rule packs), then runs `body` with what the walk found and
    /// what `alongside` gave. The folders the archives were unpacked into
    /// live as long as `body` runs (stages after discovery read their files
    /// again) and are removed however it ends, returning or throwing.
    ///
    /// - Parameter jobs: 1 walks first and runs `alongside` after; more runs
    ///   them at once.
    public static func withUnpackedInputs<Alongside: Sendable, Outcome>(
        paths: [String], followingSymbolicLinks: Bool = false,
        temporaryDirectory: String = UnpackedArchive.defaultTemporaryDirectory, jobs: Int = 1,
        alongside: @Sendable () -> Alongside, _ body: (Discovery, Alongside) throws -> Outcome
    ) rethrows -> Outcome {
        let (discovery, other) = concurrently(jobs: jobs) {
            Discovery(paths: paths, followingSymbolicLinks: followingSymbolicLinks, temporaryDirectory: temporaryDirectory)
        } _: {
            alongside()
        }
        defer { discovery.archives.forEach { $0.remove() } }
        return try body(discovery, other)
    }

    /// ``withUnpackedInputs(paths:followingSymbolicLinks:temporaryDirectory:jobs:alongside:_:)``
    /// with nothing to do alongside the walk.
    public static func withUnpackedInputs<Outcome>(
        paths: [String], followingSymbolicLinks: Bool = false,
        temporaryDirectory: String = UnpackedArchive.defaultTemporaryDirectory, _ body: (Discovery) throws -> Outcome
    ) rethrows -> Outcome {
        try withUnpackedInputs(
            paths: paths, followingSymbolicLinks: followingSymbolicLinks, temporaryDirectory: temporaryDirectory, alongside: {}
        ) { discovery, _ in try body(discovery) }
    }

    /// The path under which ``files`` holds the file `identity` names, if
    /// the walk found it.
    public func path(of identity: FileIdentity) -> String? {
        pathsByIdentity[identity]
    }
}

/// A directory entry that discovery (or inspection) passed over.
public struct SkippedEntry: Sendable, Equatable {
    /// What was passed over.
    public enum Kind: String, Sendable {
        /// A file not inspected: not a regular file, not an ELF or Mach-O file, a
        /// core dump.
        case file
        /// A folder not walked: nested deeper than the limit.
        case folder
        /// A symbolic link not followed: it leads outside the given paths,
        /// dangles or loops.
        case link
    }

    public var path: String
    /// Why: `not a regular file`, `not an ELF or Mach-O file`, `nested deeper than
    /// 64 directories`, `a symbolic link to /, outside the given paths`,
    /// `a symbolic link to /nonexistent, which does not exist`, `a symbolic
    /// link loop`.
    public var reason: String
    public var kind: Kind

    public init(path: String, reason: String, kind: Kind = .file) {
        self.path = path
        self.reason = reason
        self.kind = kind
    }
}

private struct Walker {
    let followingSymbolicLinks: Bool
    let temporaryDirectory: String
    /// The real paths (`realpath(3)`) of the directories given.
    var roots: [String] = []
    /// Files by identity; the path reached without a symbolic link wins.
    var files: [FileIdentity: (path: String, viaLink: Bool)] = [:]
    /// Links met in walked folders, with their depth, followed once the
    /// folders are walked (``followPendingLinks()``): a file or folder
    /// inside the tree is then named by its own path, not a link's
    /// (`Kit.framework/Versions/A/Kit`, not `Versions/Current/Kit`).
    var pendingLinks: [(path: String, depth: Int)] = []
    var visitedDirectories = Set<FileIdentity>()
    /// The bundle folders walked (`*.app`, `*.appex`, `*.framework`,
    /// `*.xcframework`), without a trailing `/`.
    var bundleFolders: [String] = []
    var skipped: [SkippedEntry] = []
    var errors: [InspectionError] = []
    /// The archives unpacked, and their files' identities (each unpacked
    /// once).
    var archives: [UnpackedArchive] = []
    var archiveIdentities = Set<FileIdentity>()

    init(followingSymbolicLinks: Bool, temporaryDirectory: String) {
        self.followingSymbolicLinks = followingSymbolicLinks
        self.temporaryDirectory = temporaryDirectory
    }

    /// Nesting bound: deeper trees are reported rather than walked.
    static let maximumDepth = 64

    /// Visits `path`, `depth` folders below a given path; `followingLink`
    /// when it is a pending link being followed now.
    mutating func visit(_ path: String, depth: Int, followingLink: Bool = false) {
        var linkInfo = stat()
        guard lstat(path, &linkInfo) == 0 else {
            let code = errno
            errors.append(
                code == ENOENT && path.unicodeScalars.contains("\u{FFFD}")
                    ? .invalidFileName(path: path) : .unreadable(path: path, errno: code))
            return
        }
        let isLink = linkInfo.st_mode & S_IFMT == S_IFLNK
        // Only a symbolic link needs a second look at what it points to.
        var info = linkInfo
        guard !isLink || stat(path, &info) == 0 else {
            let code = errno
            // A link met in a folder that leads nowhere is passed over; one
            // given is an input that cannot be read.
            if depth > 0, code == ENOENT || code == ENOTDIR || code == ELOOP {
                let reason =
                    code == ELOOP
                    ? "a symbolic link loop" : "a symbolic link to \(SymbolicLinks.target(of: path) ?? "?"), which does not exist"
                skipped.append(SkippedEntry(path: path, reason: reason, kind: .link))
            } else {
                errors.append(.unreadable(path: path, errno: code))
            }
            return
        }
        // A link met in a walked folder must stay inside the given ones,
        // and waits until the folders are walked.
        if isLink, depth > 0, !followingLink {
            if !followingSymbolicLinks, let target = SymbolicLinks.realPath(path), !isInsideRoots(target) {
                skipped.append(SkippedEntry(path: path, reason: "a symbolic link to \(target), outside the given paths", kind: .link))
            } else {
                pendingLinks.append((path, depth))
            }
            return
        }
        let identity = FileIdentity(info)
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            if UnpackedArchive.Kind(path: path) != nil {
                guard archiveIdentities.insert(identity).inserted else { return }
                unpack(path, depth: depth)
                return
            }
            if let existing = files[identity], !(existing.viaLink && !isLink) { return }
            files[identity] = (path, isLink)
        case S_IFDIR:
            guard visitedDirectories.insert(identity).inserted else { return }
            guard depth < Self.maximumDepth else {
                skipped.append(SkippedEntry(path: path, reason: "nested deeper than \(Self.maximumDepth) directories", kind: .folder))
                return
            }
            var folder = Substring(path)
            while folder.count > 1 && folder.hasSuffix("/") { folder = folder.dropLast() }
            if BundleLayout.kinds[(String(folder) as NSString).pathExtension] != nil { bundleFolders.append(String(folder)) }
            for name in entries(of: path) {
                visit(path.hasSuffix("/") ? path + name : path + "/" + name, depth: depth + 1)
            }
        default:
            skipped.append(SkippedEntry(path: path, reason: "not a regular file"))
        }
    }

    /// Unpacks the archive at `path` and walks its ``UnpackedArchive/root``,
    /// one level deeper than the archive. A `.zip` met in a folder that
    /// holds no bundle is skipped (a data archive, say); one given is an
    /// error, as an `.ipa` without an app is wherever it is met.
    mutating func unpack(_ path: String, depth: Int) {
        do {
            let archive = try UnpackedArchive.unpack(path, temporaryDirectory: temporaryDirectory)
            archives.append(archive)
            guard archive.holdsBundle else {
                if archive.kind == .zip && depth > 0 {
                    skipped.append(SkippedEntry(path: path, reason: "a zip archive that holds no app, framework or xcframework"))
                } else {
                    errors.append(.archive(path: path, problem: archive.kind == .ipa ? .noApp : .noBundle))
                }
                return
            }
            skipped += archive.skipped
            roots.append(SymbolicLinks.realPath(archive.folder) ?? archive.folder)
            visit(archive.root, depth: depth + 1)
        } catch {
            errors.append(error)
        }
    }

    /// Follows ``pendingLinks``, and the links met in the folders they lead
    /// to, in the order they were met.
    mutating func followPendingLinks() {
        var index = 0
        while index < pendingLinks.count {
            let (path, depth) = pendingLinks[index]
            index += 1
            visit(path, depth: depth, followingLink: true)
        }
    }

    /// Whether the real path `target` is one of ``roots`` or inside one.
    func isInsideRoots(_ target: String) -> Bool {
        roots.contains { root in
            target == root || target.hasPrefix(root == "/" ? "/" : root + "/")
        }
    }

    /// The names in directory `path` except `.` and `..`, sorted
    /// (`opendir`/`readdir`). A name whose bytes are not valid UTF-8 is an
    /// error (``InspectionError/invalidFileName(path:)``), not a name: its
    /// repaired spelling would name no file.
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
            let bytes = (UnsafeRawPointer(entry) + nameOffset).assumingMemoryBound(to: UInt8.self)
            let raw = UnsafeBufferPointer(start: bytes, count: strlen(UnsafeRawPointer(bytes).assumingMemoryBound(to: CChar.self)))
            let name = String(decoding: raw, as: UTF8.self)
            guard name.utf8.elementsEqual(raw) else {
                errors.append(.invalidFileName(path: path.hasSuffix("/") ? path + name : path + "/" + name))
                continue
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }
}
