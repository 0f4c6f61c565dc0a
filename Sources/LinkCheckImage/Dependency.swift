/// One library an image links: a `DT_NEEDED` entry (ELF) or a dylib load
/// command (Mach-O), with how it is linked.
public struct Dependency: Sendable, Hashable {
    /// The name as the image gives it: a SONAME or path (`libz.so.1`), or an
    /// install name (`@rpath/SyncKit.framework/SyncKit`).
    public var name: String
    public var kind: Kind

    public init(name: String, kind: Kind = .needed) {
        self.name = name
        self.kind = kind
    }

    /// How a dependency is linked.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// Loaded with the image, or the image does not load (`DT_NEEDED`,
        /// `LC_LOAD_DYLIB`).
        case needed
        /// Loaded if present (`LC_LOAD_WEAK_DYLIB`).
        case weak
        /// Loaded, and its exports are the image's own (`LC_REEXPORT_DYLIB`).
        case reexport
        /// Loaded, allowed to link back to the image (`LC_LOAD_UPWARD_DYLIB`).
        case upward
        /// Loaded on first use (`LC_LAZY_LOAD_DYLIB`).
        case lazy
    }
}

/// One folder the loader searches for an image's dependencies.
public struct SearchPath: Sendable, Hashable {
    /// The folder as written, with its tokens (`$ORIGIN`, `@loader_path`)
    /// unexpanded.
    public var path: String
    public var kind: Kind

    public init(path: String, kind: Kind) {
        self.path = path
        self.kind = kind
    }

    public enum Kind: String, Sendable, Hashable, Codable {
        /// `DT_RPATH`: searched before `LD_LIBRARY_PATH`, and only when
        /// there is no `DT_RUNPATH`.
        case rpath
        /// `DT_RUNPATH`.
        case runpath
        /// `LC_RPATH`: what `@rpath/` expands to, for the image and for what
        /// it loads (dyld).
        case lcRpath = "lc-rpath"
    }
}

/// A library an image declares it may load at run time: one entry of the
/// freedesktop `.note.dlopen` metadata.
public struct DeclaredLoad: Sendable, Equatable {
    /// Library names, in order of preference.
    public var sonames: [String]
    public var feature: String?
    public var description: String?
    /// `required`, `recommended` or `suggested`.
    public var priority: String?

    public init(sonames: [String], feature: String? = nil, description: String? = nil, priority: String? = nil) {
        self.sonames = sonames
        self.feature = feature
        self.description = description
        self.priority = priority
    }
}
