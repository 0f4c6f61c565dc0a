import SystemInterface

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
    case malformed(path: String, format: BinaryFormat, structure: String, reason: String)
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
    /// An archive (an `.ipa`) that could not be unpacked, or that was
    /// refused: nothing of it is checked.
    case archive(path: String, problem: ArchiveProblem)
    /// A bundle (`.app`, `.appex`, `.framework`; `path` is its folder)
    /// whose executable cannot be found where its layout and
    /// `CFBundleExecutable` put it: the bundle cannot be checked.
    case bundleExecutable(path: String, problem: BundleExecutableProblem)
    /// An `.xcframework` (`path` is its folder) whose `Info.plist` lists in
    /// `AvailableLibraries` a library (`LibraryIdentifier`, `LibraryPath`)
    /// that is not in the folder: that library cannot be checked.
    case xcframeworkLibraryMissing(path: String, identifier: String, libraryPath: String)
    /// A bundle's `Info.plist` (`path`) that cannot be read, is not a
    /// property list, or gives a key linkcheck uses a value of the wrong
    /// type (`reason` says which): the bundle cannot be checked as the
    /// file says, so it is checked as if it had none, and the run fails.
    case infoPlist(path: String, reason: String)
    /// A file of a format this build of linkcheck does not read, for want of
    /// the library that reads it (ELF without libelf, as a Mac builds it by
    /// default): never passed over, never checked as safe.
    case formatNotBuilt(path: String, format: BinaryFormat, library: String)

    /// The file the error is about.
    public var path: String {
        switch self {
        case .unreadable(let path, _), .notAnImage(let path), .malformed(let path, _, _, _), .notInspectable(let path, _),
            .changedWhileRead(let path), .invalidFileName(let path), .archive(let path, _), .bundleExecutable(let path, _),
            .xcframeworkLibraryMissing(let path, _, _), .infoPlist(let path, _), .formatNotBuilt(let path, _, _):
            path
        }
    }

    /// The same error about the file at `path` instead: how a file
    /// unpacked from an archive is named in reports
    /// (``ImageIdentity/displayPath``).
    public func naming(_ path: String) -> InspectionError {
        switch self {
        case .unreadable(_, let code): .unreadable(path: path, errno: code)
        case .notAnImage: .notAnImage(path: path)
        case .notInspectable(_, let reason): .notInspectable(path: path, reason: reason)
        case .malformed(_, let format, let structure, let reason):
            .malformed(path: path, format: format, structure: structure, reason: reason)
        case .changedWhileRead: .changedWhileRead(path: path)
        case .invalidFileName: .invalidFileName(path: path)
        case .archive(_, let problem): .archive(path: path, problem: problem)
        case .bundleExecutable(_, let problem): .bundleExecutable(path: path, problem: problem)
        case .xcframeworkLibraryMissing(_, let identifier, let libraryPath):
            .xcframeworkLibraryMissing(path: path, identifier: identifier, libraryPath: libraryPath)
        case .infoPlist(_, let reason): .infoPlist(path: path, reason: reason)
        case .formatNotBuilt(_, let format, let library): .formatNotBuilt(path: path, format: format, library: library)
        }
    }

    public var description: String {
        switch self {
        case .unreadable(let path, let code):
            "\(path): cannot read: \(String(cString: strerror(code)))"
        case .notAnImage(let path):
            "\(path): not an \(BinaryFormat.allCases.map(\.displayName).joined(separator: " or ")) file"
        case .malformed(let path, let format, let structure, let reason):
            "\(path): malformed \(format.displayName): \(structure): \(reason)"
        case .notInspectable(let path, let reason):
            "\(path): skipped: \(reason)"
        case .changedWhileRead(let path):
            "\(path): changed while it was read; check it again once it is written"
        case .invalidFileName(let path):
            "\(path): the file name is not valid UTF-8, which linkcheck cannot open"
        case .archive(let path, let problem):
            "\(path): \(problem)"
        case .bundleExecutable(let path, let problem):
            "\(path): \(problem)"
        case .xcframeworkLibraryMissing(let path, let identifier, let libraryPath):
            "\(path): its Info.plist's AvailableLibraries lists \(identifier)/\(libraryPath), which is not there"
        case .infoPlist(let path, let reason):
            "\(path): \(reason): its bundle cannot be checked as its Info.plist says"
        case .formatNotBuilt(let path, let format, let library):
            "\(path): this build of linkcheck reads no \(format.displayName): it was built without \(library)"
        }
    }
}

/// Why an archive was not unpacked (``InspectionError/archive(path:problem:)``).
public enum ArchiveProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// libarchive could not read it as a zip archive: truncated (no end of
    /// central directory, an entry cut short), corrupt (a bad CRC or
    /// deflate stream), or another format. `reason` is libarchive's
    /// `archive_error_string`.
    case unreadable(reason: String)
    /// Its entries' uncompressed sizes add up to more than `limit` bytes,
    /// the most an archive of its size may unpack to: refused as a zip bomb
    /// before the disk fills.
    case tooLarge(limit: UInt64)
    /// It holds more than `limit` entries, the most an archive of its size
    /// may hold.
    case tooManyEntries(limit: Int)
    /// Two entries of one name, or an entry where another needs a folder.
    case conflictingEntry(entry: String)
    /// An entry could not be written into the private folder (a full disk,
    /// a name too long): `reason` is the system's.
    case unpackFailed(entry: String, reason: String)
    /// The private folder to unpack it into could not be made.
    case noTemporaryFolder(reason: String)
    /// An `.ipa` with no `Payload/*.app` entry: there is no app to check.
    case noApp
    /// A `.zip` with no bundle (`Payload/*.app`, `*.app`, `*.framework`,
    /// `*.xcframework`) at its top: nothing to check.
    case noBundle

    public var description: String {
        switch self {
        case .unreadable(let reason): "not a readable zip archive (truncated or corrupt): \(reason)"
        case .tooLarge(let limit):
            "its entries unpack to more than \(limit) bytes, the most an archive of its size may: refused as a zip bomb"
        case .tooManyEntries(let limit): "it holds more than \(limit) entries, the most an archive of its size may: refused"
        case .conflictingEntry(let entry): "it holds '\(entry)' twice, or as a file where a folder is needed: refused"
        case .unpackFailed(let entry, let reason): "cannot unpack '\(entry)': \(reason)"
        case .noTemporaryFolder(let reason): "cannot make a private folder to unpack it in: \(reason)"
        case .noApp: "it holds no app (no Payload/*.app entry)"
        case .noBundle: "it holds no app, framework or xcframework (no Payload/*.app, *.app, *.framework or *.xcframework entry)"
        }
    }
}
