import LinkCheckImage

/// A library the image links: one `LC_LOAD_DYLIB`, `LC_LOAD_WEAK_DYLIB`,
/// `LC_REEXPORT_DYLIB`, `LC_LOAD_UPWARD_DYLIB` or `LC_LAZY_LOAD_DYLIB`
/// command (`dylib_command`).
public struct DylibDependency: Sendable, Hashable {
    /// `dylib.name`: the install name the library is loaded by
    /// (`@rpath/X.framework/X`, `/usr/lib/libSystem.B.dylib`).
    public var installName: String
    /// Which command declared it.
    public var kind: DependencyKind
    /// The library ordinal that bind information, chained-fixup imports and
    /// two-level `n_desc` use for it: its 1-based position among the
    /// needed, weak, re-export and upward dependencies in load-command order,
    /// as dyld counts them (`MachOFile::forEachDependentDylib`).
    /// `nil` for `LC_LAZY_LOAD_DYLIB`, which dyld does not count.
    public var ordinal: Int?
    /// `dylib.current_version` and `compatibility_version`.
    public var currentVersion: PackedVersion
    public var compatibilityVersion: PackedVersion
}

/// The kind of a dependency, from its load command.
public enum DependencyKind: String, Sendable, Hashable {
    /// `LC_LOAD_DYLIB`.
    case needed
    /// `LC_LOAD_WEAK_DYLIB`: loaded if present.
    case weak
    /// `LC_REEXPORT_DYLIB`: its exports are the image's too.
    case reexport
    /// `LC_LOAD_UPWARD_DYLIB`: a dependency cycle broken on purpose.
    case upward
    /// `LC_LAZY_LOAD_DYLIB`: loaded on first use (no longer supported by dyld).
    case lazy

    init?(command: UInt32) {
        switch command {
        case LoadCommandType.loadDylib: self = .needed
        case LoadCommandType.loadWeakDylib: self = .weak
        case LoadCommandType.reexportDylib: self = .reexport
        case LoadCommandType.loadUpwardDylib: self = .upward
        case LoadCommandType.lazyLoadDylib: self = .lazy
        default: return nil
        }
    }
}

/// A version packed as `xxxx.yy.zz` in 32 bits (dylib versions,
/// `LC_BUILD_VERSION` `minos`/`sdk`, `LC_VERSION_MIN_*`).
public struct PackedVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public var major: Int { Int(rawValue >> 16) }
    public var minor: Int { Int((rawValue >> 8) & 0xff) }
    public var patch: Int { Int(rawValue & 0xff) }

    /// `x.y`, or `x.y.z` when the patch is not 0 (`13.1`, `10.13.4`).
    public var description: String { patch == 0 ? "\(major).\(minor)" : "\(major).\(minor).\(patch)" }

    /// Always `x.y.z`, as dylib versions are shown (`1356.0.0`).
    public var fullDescription: String { "\(major).\(minor).\(patch)" }

    public static func < (lhs: PackedVersion, rhs: PackedVersion) -> Bool { lhs.rawValue < rhs.rawValue }
}

extension DylibDependency {
    /// Reads the install name and versions of a `dylib_command` (also used
    /// for `LC_ID_DYLIB`); `nil`, with a warning, when it is malformed.
    static func read(
        _ command: LoadCommand, kind: DependencyKind?, ordinal: Int?, in image: ByteReader, warnings: inout ReadWarnings
    ) -> DylibDependency? {
        let bytes = command.bytes(in: image)
        guard let record = try? bytes.record("dylib_command", at: 0, size: 24),
            let name = command.string(atField: 8, in: image)
        else {
            warnings.add(
                command.name, at: bytes.fileOffset, "dylib_command is malformed (cmdsize \(command.size) or its name offset); skipped")
            return nil
        }
        return DylibDependency(
            installName: name, kind: kind ?? .needed, ordinal: ordinal,
            currentVersion: PackedVersion(rawValue: record.u32(16)),
            compatibilityVersion: PackedVersion(rawValue: record.u32(20)))
    }
}
