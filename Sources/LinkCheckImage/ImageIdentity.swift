/// Which image: a file, an architecture slice of it, a member of a static
/// archive. Two slices of one fat file are two images that never merge.
public struct ImageIdentity: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The file's path, as given or as discovered: for a file unpacked from
    /// an archive (an `.ipa`), its path in the private folder it was
    /// unpacked into, which exists only while the run lasts.
    public var path: String
    /// The architecture of a slice of a fat (universal) Mach-O file
    /// (`arm64`, `x86_64`); `nil` for a thin file.
    public var slice: String?
    /// The member of a static archive (`RxAtomic-dummy.o`); `nil` otherwise.
    public var member: String?
    /// For a file unpacked from an archive: the archive and the entry
    /// (`Photos.ipa`, `Payload/Photos.app/Photos`); `nil` otherwise.
    public var unpackedFrom: ArchiveEntry?

    public init(path: String, slice: String? = nil, member: String? = nil, unpackedFrom: ArchiveEntry? = nil) {
        self.path = path
        self.slice = slice
        self.member = member
        self.unpackedFrom = unpackedFrom
    }

    /// Where the user finds the file: `Photos.ipa:Payload/Photos.app/Photos`
    /// for an entry of an archive (``ArchiveEntry/description``), else
    /// ``path``.
    public var displayPath: String { unpackedFrom?.description ?? path }

    /// The private folder the file's archive was unpacked into: ``path``
    /// less ``ArchiveEntry/entry``; `nil` for a file not unpacked from an
    /// archive.
    public var unpackFolder: String? {
        guard let entry = unpackedFrom?.entry, path.hasSuffix("/" + entry) else { return nil }
        return String(path.dropLast(entry.count + 1))
    }

    /// How reports name `path`, a file found near this one (the dSYM beside
    /// a framework): `archive:entry` when it lies in the folder this file's
    /// archive was unpacked into (``unpackFolder``), as ``displayPath``
    /// names the file itself; else `path` as it is.
    public func displayPath(ofNearbyFile path: String) -> String {
        guard let folder = unpackFolder, let archive = unpackedFrom?.archive, path.hasPrefix(folder + "/") else { return path }
        return ArchiveEntry(archive: archive, entry: String(path.dropFirst(folder.count + 1))).description
    }

    /// The file (or the member of a static archive) this image is a slice
    /// of: the same identity without ``slice``. The slices of a fat file
    /// are one image to a reader, and one file to the loader, which takes
    /// the slice of its process's architecture.
    public var file: ImageIdentity {
        ImageIdentity(path: path, slice: nil, member: member, unpackedFrom: unpackedFrom)
    }

    /// `path`, `path[arm64]`, `path(member.o)` or `path[arm64](member.o)`,
    /// with the ``displayPath``: how reports name the image (the `(member)`
    /// form is `ar`'s and `llvm-nm`'s).
    public var description: String {
        guard slice != nil || member != nil || unpackedFrom != nil else { return path }
        return displayPath + (slice.map { "[\($0)]" } ?? "") + (member.map { "(\($0))" } ?? "")
    }

    /// By ``displayPath``, then slice, then member: the order reports list
    /// images in.
    public static func < (lhs: ImageIdentity, rhs: ImageIdentity) -> Bool {
        (lhs.displayPath, lhs.slice ?? "", lhs.member ?? "") < (rhs.displayPath, rhs.slice ?? "", rhs.member ?? "")
    }
}

/// One entry of an archive a file was unpacked from: an `.ipa` (a zip
/// archive) and the entry's name in it.
public struct ArchiveEntry: Sendable, Hashable, CustomStringConvertible {
    /// The archive's path, as given or as discovered (`Photos.ipa`).
    public var archive: String
    /// The entry's name in the archive, `/`-separated, never absolute and
    /// never climbing out with `..` (`Payload/Photos.app/Photos`).
    public var entry: String

    public init(archive: String, entry: String) {
        self.archive = archive
        self.entry = entry
    }

    /// `archive:entry`, as `jar` and `unzip -l` users read it:
    /// `Photos.ipa:Payload/Photos.app/Photos`.
    public var description: String { archive + ":" + entry }
}
