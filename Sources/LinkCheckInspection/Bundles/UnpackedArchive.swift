import Foundation
import LinkCheckImage
import SystemInterface

/// The app of an `.ipa`, or the bundles of a `.zip` (`X.xcframework.zip`,
/// `X.framework.zip`, an app zipped with or without `Payload/`, an
/// `X.xcarchive.zip`, as SwiftPM binary targets, Carthage and CI artifacts
/// arrive), unpacked into a private folder for the run: the entries of
/// `Payload/*.app` (and, in a `.zip`, of `*.app`, `*.framework`,
/// `*.xcframework` and the `*.dSYM` bundles that carry their debug
/// information, at its top or in Carthage's build folders:
/// `Carthage/Build/`, `Carthage/Build/<platform>/`,
/// `Carthage/Build/<platform>/Static/`; of an `.xcarchive` at its top,
/// `Products/Applications/*.app` and `dSYMs/*.dSYM`) that linkcheck reads (binaries,
/// recognised by their first bytes as ``ImageInspector`` recognises them,
/// the DWARF files of dSYMs among them, and `Info.plist` files), nothing
/// else. The bundles' other files (resources, headers, module maps,
/// licences, signatures) are neither unpacked nor counted as passed over,
/// as in a bundle folder; entries outside them are counted.
///
/// The folder is made with `mkdtemp(3)` (mode 0700) under `$TMPDIR` (else
/// `/tmp`) and removed by ``remove()``, when the value is released, when
/// unpacking fails half-way, and, once ``removeAllOnTermination()`` is set
/// up, when the process is stopped by `SIGINT`, `SIGTERM` or `SIGHUP`.
///
/// Nothing is written outside it: an entry whose name is absolute or climbs
/// out (`../`) is passed over, symbolic and hard links are never made
/// (passed over, as ``SkippedEntry/Kind/link``), and files are created
/// with `O_EXCL | O_NOFOLLOW` below folders this value made itself. The
/// archive's size bounds what it may unpack to (``ArchiveLimits``).
public final class UnpackedArchive: @unchecked Sendable, Equatable {
    /// What an archive holds, by its name.
    public enum Kind: Sendable, Equatable {
        /// `*.ipa`: an app under `Payload/`.
        case ipa
        /// `*.zip`: bundles at its top, in an `.xcarchive` at its top or in
        /// Carthage's build folders, or an app under `Payload/`.
        case zip

        /// The kind of the archive at `path` by its suffix (any case), or
        /// `nil` for a file that is not one.
        public init?(path: String) {
            let name = path.lowercased()
            if name.hasSuffix(".ipa") {
                self = .ipa
            } else if name.hasSuffix(".zip") {
                self = .zip
            } else {
                return nil
            }
        }

        /// The folder extensions of the bundles an entry may be in at the
        /// archive's top or in Carthage's build folders (besides
        /// `Payload/*.app`).
        var bundleExtensions: Set<String> {
            self == .ipa ? [] : ["app", "framework", "xcframework", "dSYM"]
        }
    }

    /// The archive's path, as given or as discovered.
    public let archive: String
    public let kind: Kind
    /// The private folder: the entry `Payload/Photos.app/Photos` is
    /// `folder/Payload/Photos.app/Photos`.
    public let folder: String
    /// The entries passed over, named `archive:entry`: those outside
    /// `Payload/*.app`, those that are not binaries or `Info.plist`, links,
    /// and names that climb out.
    public let skipped: [SkippedEntry]

    /// Whether any file was unpacked: `false` for an archive that holds no
    /// bundle, or bundles without a binary or `Info.plist`.
    public let holdsBundle: Bool

    private init(archive: String, kind: Kind, folder: String, skipped: [SkippedEntry], holdsBundle: Bool) {
        self.archive = archive
        self.kind = kind
        self.folder = folder
        self.skipped = skipped
        self.holdsBundle = holdsBundle
    }

    /// The folder to walk: `folder/Payload` for an `.ipa`, ``folder`` for a
    /// `.zip`.
    public var root: String { kind == .ipa ? folder + "/Payload" : folder }

    deinit {
        remove()
    }

    public static func == (lhs: UnpackedArchive, rhs: UnpackedArchive) -> Bool {
        lhs === rhs
    }

    /// Unpacks the zip archive at `archive` (an `.ipa`, else read as a
    /// `.zip`) into a new private folder under `temporaryDirectory`.
    ///
    /// - Throws: ``InspectionError/archive(path:problem:)`` when the archive
    ///   cannot be read (not a zip, truncated, a bad CRC), is over its
    ///   ``ArchiveLimits``, holds one name twice, or an entry cannot be
    ///   written; the folder is removed first.
    public static func unpack(
        _ archive: String, limits: ArchiveLimits = .standard, temporaryDirectory: String = defaultTemporaryDirectory
    ) throws(InspectionError) -> UnpackedArchive {
        var info = stat()
        guard stat(archive, &info) == 0 else { throw .unreadable(path: archive, errno: errno) }
        let size = UInt64(max(0, info.st_size))
        let folder: String
        do {
            folder = try makePrivateFolder(in: temporaryDirectory)
        } catch {
            throw .archive(path: archive, problem: error)
        }
        do {
            let kind = Kind(path: archive) ?? .zip
            var unpacker = Unpacker(
                archive: archive, kind: kind, folder: folder, byteLimit: limits.bytes(forArchiveOfSize: size),
                entryLimit: limits.entries(forArchiveOfSize: size))
            try unpacker.run()
            return UnpackedArchive(
                archive: archive, kind: kind, folder: folder, skipped: unpacker.skipped, holdsBundle: unpacker.holdsBundle)
        } catch {
            UnpackFolderRegistry.shared.remove(folder)
            throw .archive(path: archive, problem: error)
        }
    }

    /// The entry name `name` without trailing `/`, when it stays inside the
    /// folder: not empty, not absolute, no empty, `.` or `..` component
    /// (`..` also between backslashes, as archives made on Windows separate
    /// them); `nil` for a name that would climb out, which is passed over.
    public static func safeName(_ name: String) -> String? {
        var text = Substring(name)
        while text.hasSuffix("/") { text = text.dropLast() }
        guard !text.isEmpty, !text.hasPrefix("/") else { return nil }
        let components = text.split(separator: "/", omittingEmptySubsequences: false)
        guard components.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." }),
            !components.contains(where: { $0.split(separator: "\\").contains("..") })
        else { return nil }
        return String(text)
    }

    /// `$TMPDIR`, else `/tmp`.
    public static var defaultTemporaryDirectory: String {
        guard let value = getenv("TMPDIR"), value.pointee != 0 else { return "/tmp" }
        return String(cString: value)
    }

    /// Removes ``folder`` and everything in it; later calls do nothing.
    public func remove() {
        UnpackFolderRegistry.shared.remove(folder)
    }

    /// Removes every folder still unpacked when the process receives
    /// `SIGINT`, `SIGTERM` or `SIGHUP`, then lets the signal end the
    /// process as it would have (its default action). Call once, early;
    /// signals are then taken by a dispatch source, not a handler.
    public static func removeAllOnTermination() {
        UnpackFolderRegistry.shared.watchSignals([SIGINT, SIGTERM, SIGHUP])
    }

    /// `mkdtemp(3)` of `directory/linkcheck-XXXXXX`, registered for removal.
    private static func makePrivateFolder(in directory: String) throws(ArchiveProblem) -> String {
        var template =
            Array((directory.hasSuffix("/") ? directory : directory + "/").utf8CString.dropLast()) + Array("linkcheck-XXXXXX".utf8CString)
        var failure: Int32 = 0
        let made = UnpackFolderRegistry.shared.add {
            guard let made = mkdtemp(&template) else {
                failure = errno
                return nil
            }
            return String(cString: made)
        }
        guard let made else { throw .noTemporaryFolder(reason: "\(directory): \(String(cString: strerror(failure)))") }
        return made
    }
}

/// Writes the entries of one archive into its private folder.
private struct Unpacker {
    let archive: String
    let kind: UnpackedArchive.Kind
    let folder: String
    let byteLimit: UInt64
    let entryLimit: Int
    var skipped: [SkippedEntry] = []
    /// Whether a file of a bundle was unpacked.
    var holdsBundle = false
    /// Folders made so far, relative to ``folder``.
    private var folders: Set<String> = []
    /// Bytes the entries declare, and bytes inflated so far.
    private var declared: UInt64 = 0
    private var inflated: UInt64 = 0

    init(archive: String, kind: UnpackedArchive.Kind, folder: String, byteLimit: UInt64, entryLimit: Int) {
        self.archive = archive
        self.kind = kind
        self.folder = folder
        self.byteLimit = byteLimit
        self.entryLimit = entryLimit
    }

    /// How many bytes of an entry are read before deciding whether it is
    /// kept: enough for every magic the readers know.
    static let magicLength = ImageInspector.leadingByteCount

    mutating func run() throws(ArchiveProblem) {
        let reader = try ZipReader(path: archive)
        var count = 0
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
        defer { buffer.deallocate() }
        while let entry = try reader.next() {
            count += 1
            guard count <= entryLimit else { throw .tooManyEntries(limit: entryLimit) }
            if let size = entry.declaredSize {
                let (sum, overflow) = declared.addingReportingOverflow(size)
                guard !overflow, sum <= byteLimit else { throw .tooLarge(limit: byteLimit) }
                declared = sum
            }
            let display = "\(archive):\(entry.name)"
            guard let name = UnpackedArchive.safeName(entry.name) else {
                skipped.append(
                    SkippedEntry(
                        path: display, reason: "an entry whose name climbs out of the archive (absolute, or with ..), not unpacked"))
                continue
            }
            let parts = name.split(separator: "/")
            guard isInBundle(parts) else {
                if entry.kind != .directory {
                    let bundles =
                        kind == .ipa
                        ? "the app (Payload/*.app)"
                        : "the bundles (Payload/*.app; *.app, *.framework, *.xcframework, *.dSYM at the top or in Carthage/Build/; an .xcarchive's Products/Applications/*.app and dSYMs/*.dSYM)"
                    skipped.append(SkippedEntry(path: display, reason: "outside \(bundles), not unpacked"))
                }
                continue
            }
            switch entry.kind {
            case .directory:
                continue
            case .symbolicLink, .hardLink:
                let kind = entry.kind == .symbolicLink ? "symbolic" : "hard"
                skipped.append(
                    SkippedEntry(
                        path: display, reason: "a \(kind) link in the archive\(entry.linkTarget.map { " (to \($0))" } ?? ""), not unpacked",
                        kind: .link))
            case .other:
                skipped.append(SkippedEntry(path: display, reason: "not a regular file"))
            case .file:
                try unpackFile(name, from: reader, buffer: buffer)
            }
        }
    }

    /// Whether the entry whose name has the components `parts` lies in a
    /// bundle linkcheck reads: `Payload/*.app/…`, or for a `.zip` a
    /// `*.app`, `*.framework`, `*.xcframework` or `*.dSYM` at the top, in
    /// an `.xcarchive` or in Carthage's build folders
    /// (``bundlePositions(_:)``).
    private func isInBundle(_ parts: [Substring]) -> Bool {
        if parts.count >= 3, parts[0] == "Payload", parts[1].hasSuffix(".app") { return true }
        return Self.bundlePositions(parts).contains { index in
            guard index + 1 < parts.count, let dot = parts[index].lastIndex(of: ".") else { return false }
            return kind.bundleExtensions.contains(String(parts[index][parts[index].index(after: dot)...]))
        }
    }

    /// The components of `parts` that may be a bundle: the first (the
    /// archive's top); in a zipped `.xcarchive` (CI artifacts:
    /// `X.xcarchive.zip`), the apps of `X.xcarchive/Products/Applications/`
    /// and the dSYMs of `X.xcarchive/dSYMs/`, as a folder `.xcarchive` is
    /// read; and those in the folders Carthage builds into, as it zips them
    /// (`carthage build --archive`): `Carthage/Build/` (xcframeworks),
    /// `Carthage/Build/<platform>/` and `Carthage/Build/<platform>/Static/`
    /// (frameworks and their dSYMs).
    private static func bundlePositions(_ parts: [Substring]) -> [Int] {
        if parts.count > 2, parts[0].hasSuffix(".xcarchive") {
            if parts[1] == "dSYMs" { return [2] }
            return parts.count > 3 && parts[1] == "Products" && parts[2] == "Applications" ? [3] : []
        }
        guard parts.count > 2, parts[0] == "Carthage", parts[1] == "Build" else { return [0] }
        return parts.count > 4 && parts[3] == "Static" ? [0, 2, 3, 4] : [0, 2, 3]
    }

    /// Whether a bundle may expect the entry `name` to be code, which
    /// inspection then tells (``Inspection/bundleExpectsAnImage(file:placement:)``):
    /// a `.dylib` or a file without an extension in a `Frameworks` folder.
    private static func mayBeCode(_ name: String) -> Bool {
        let path = name as NSString
        return (path.deletingLastPathComponent as NSString).lastPathComponent == "Frameworks"
            && (path.pathExtension.isEmpty || path.pathExtension == "dylib")
    }

    /// Reads the entry's first bytes; writes it when it is a binary, an
    /// `Info.plist` or a file its bundle may expect to be code, else passes
    /// it over: a resource of the bundle, not counted.
    private mutating func unpackFile(
        _ name: String, from reader: ZipReader, buffer: UnsafeMutableRawBufferPointer
    ) throws(ArchiveProblem) {
        var head = 0
        while head < Self.magicLength {
            let read = try reader.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[head...]))
            if read == 0 { break }
            try count(inflated: read)
            head += read
        }
        let isImage = ImageInspector.recognises(leadingBytes: Array(buffer.prefix(head))[...])
        guard isImage || name.hasSuffix("/Info.plist") || Self.mayBeCode(name) else {
            try reader.skip()
            return
        }
        holdsBundle = true
        try UnpackFolderRegistry.shared.whileHeld { () throws(ArchiveProblem) in
            let descriptor = try create(name)
            defer { close(descriptor) }
            var pending = UnsafeRawBufferPointer(rebasing: buffer[..<head])
            while true {
                try writeAll(pending, to: descriptor, entry: name)
                let read = try reader.read(into: buffer)
                if read == 0 { break }
                try count(inflated: read)
                pending = UnsafeRawBufferPointer(rebasing: buffer[..<read])
            }
        }
    }

    /// Counts `count` more inflated bytes against the limit: an entry may
    /// inflate to more than it declares.
    private mutating func count(inflated count: Int) throws(ArchiveProblem) {
        let (sum, overflow) = inflated.addingReportingOverflow(UInt64(count))
        guard !overflow, sum <= byteLimit else { throw .tooLarge(limit: byteLimit) }
        inflated = sum
    }

    /// Creates the file `name` (and its folders) below ``folder``:
    /// `O_CREAT | O_EXCL | O_NOFOLLOW`, mode 0600.
    private mutating func create(_ name: String) throws(ArchiveProblem) -> Int32 {
        let parts = name.split(separator: "/").map(String.init)
        var relative = ""
        for part in parts.dropLast() {
            relative += relative.isEmpty ? part : "/" + part
            guard !folders.contains(relative) else { continue }
            if mkdir(folder + "/" + relative, 0o700) != 0 {
                throw errno == EEXIST || errno == ENOTDIR
                    ? .conflictingEntry(entry: name) : .unpackFailed(entry: name, reason: String(cString: strerror(errno)))
            }
            folders.insert(relative)
        }
        let descriptor = open(folder + "/" + name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw errno == EEXIST || errno == EISDIR || errno == ENOTDIR
                ? .conflictingEntry(entry: name) : .unpackFailed(entry: name, reason: String(cString: strerror(errno)))
        }
        return descriptor
    }

    /// Writes all of `bytes` (`write(2)` may write part of them).
    private func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32, entry: String) throws(ArchiveProblem) {
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { throw .unpackFailed(entry: entry, reason: String(cString: strerror(errno))) }
            offset += written
        }
    }
}

/// The private folder an archive was unpacked into
/// (``UnpackedArchive/folder``), and the archive.
public struct ArchiveFolder: Sendable, Hashable {
    public var folder: String
    public var archive: String

    public init(folder: String, archive: String) {
        self.folder = folder
        self.archive = archive
    }
}
