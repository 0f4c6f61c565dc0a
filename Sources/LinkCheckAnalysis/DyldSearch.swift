import LinkCheckImage
import LinkCheckInspection

/// How dyld finds a Mach-O image's dylibs (`dyld(1)`; dyld's
/// `Loader::forEachPath`): an install name is a path, with three tokens
/// expanded.
///
/// - `@rpath/…` is tried against the `LC_RPATH` entries of the image and of
///   every image in the chain of loaders above it, up to the main
///   executable (not just the image's own, as ld.so's RUNPATH is);
/// - `@loader_path/…` is the folder of the image that links it;
/// - `@executable_path/…` is the folder of the main executable.
///
/// `LC_RPATH` entries are themselves expanded with `@loader_path` (the
/// image that carries them) and `@executable_path`. Install names under
/// `/System/` and `/usr/lib/` are the SDK's: known, not inspected; so is an
/// `@rpath` name that an `LC_RPATH` entry takes there
/// (`@rpath/libswiftCore.dylib` through `/usr/lib/swift`, where the OS
/// ships the Swift runtime from iOS 12.2 and macOS 10.14.4 on).
enum DyldSearch {
    /// What one image knows of the processes it is loaded into: the folders
    /// its loaders' `LC_RPATH` entries expand to, and the folders of the
    /// executables that load it.
    struct Context: Equatable {
        /// Expanded `LC_RPATH` folders inherited from the loaders above.
        var inheritedRunPaths: [String] = []
        /// The folders of the main executables whose processes load it.
        var executableFolders: [String] = []

        /// Adds `other`'s folders; whether anything was new.
        mutating func merge(_ other: Context) -> Bool {
            let before = (inheritedRunPaths.count, executableFolders.count)
            for folder in other.inheritedRunPaths where !inheritedRunPaths.contains(folder) { inheritedRunPaths.append(folder) }
            for folder in other.executableFolders where !executableFolders.contains(folder) { executableFolders.append(folder) }
            return before != (inheritedRunPaths.count, executableFolders.count)
        }
    }

    /// The paths dyld would try for `installName`, linked by `image` in
    /// `context`, in order (a system path among them is for the caller to
    /// tell, ``isSystem(_:)``); empty when a token cannot be expanded (no
    /// `LC_RPATH` for `@rpath`, no executable known for `@executable_path`).
    static func candidates(for installName: String, linkedBy image: BinaryImage, in context: Context) -> [String] {
        let loaderFolder = LdSoSearch.directory(of: image.path)
        if let rest = installName.dropPrefix("@rpath/") {
            return runPaths(of: image, in: context).map { $0 + "/" + rest }
        }
        if let rest = installName.dropPrefix("@loader_path/") { return [loaderFolder + "/" + rest] }
        if let rest = installName.dropPrefix("@executable_path/") {
            return executableFolders(of: image, in: context).map { $0 + "/" + rest }
        }
        return [installName]
    }

    /// The `LC_RPATH` folders `@rpath` expands to for what `image` links:
    /// its own entries, expanded, then those its loaders handed down.
    static func runPaths(of image: BinaryImage, in context: Context) -> [String] {
        let loaderFolder = LdSoSearch.directory(of: image.path)
        var folders: [String] = []
        for entry in image.searchPaths where entry.kind == .lcRpath {
            if let rest = entry.path.dropPrefix("@loader_path") {
                folders.append(loaderFolder + rest)
            } else if let rest = entry.path.dropPrefix("@executable_path") {
                folders += executableFolders(of: image, in: context).map { $0 + rest }
            } else {
                folders.append(entry.path)
            }
        }
        for folder in context.inheritedRunPaths where !folders.contains(folder) { folders.append(folder) }
        return folders
    }

    /// The folders of the main executables `image` is loaded by: its own
    /// when it is an executable, else those its loaders handed down.
    static func executableFolders(of image: BinaryImage, in context: Context) -> [String] {
        image.fileType == .executable ? [LdSoSearch.directory(of: image.path)] : context.executableFolders
    }

    /// What `image` hands down to the images it links: its `LC_RPATH`
    /// folders and those it inherited, and its executables' folders.
    static func context(handedDownBy image: BinaryImage, in context: Context) -> Context {
        Context(inheritedRunPaths: runPaths(of: image, in: context), executableFolders: executableFolders(of: image, in: context))
    }

    /// Whether `installName` (or a path dyld would try for one) is a system
    /// library's, which the SDK provides and linkcheck does not inspect:
    /// `/System/Library/…`, `/usr/lib/…`, `/usr/lib/swift/libswiftCore.dylib`.
    static func isSystem(_ installName: String) -> Bool {
        installName.hasPrefix("/System/") || installName.hasPrefix("/usr/lib/")
    }
}

extension DyldSearch: LoaderSearch {
    /// A scanned Mach-O image is found by its install name.
    static func scannedNames(of image: BinaryImage) -> [String] {
        [image.linkName]
    }

    /// The paths dyld tries (``candidates(for:linkedBy:in:)``), then the
    /// scanned images by install name (found in none of the folders dyld
    /// searches: ``LinkResolver/Session/Lookup/foundByInstallName(_:searched:)``);
    /// a system library's name is the SDK's.
    static func locate(_ name: String, for index: Int, in session: inout LinkResolver.Session) -> LinkResolver.Session.Lookup {
        let candidates = candidates(for: name, linkedBy: session.images[index], in: session.dyldContexts[index] ?? .init())
        for path in candidates {
            if let found = session.load(path, for: index) { return .found(found) }
        }
        if let found = session.scannedImage(named: name, for: index) {
            return candidates.isEmpty || candidates == [name]
                ? .found(found) : .foundByInstallName(found, searched: candidates.map(LdSoSearch.directory(of:)))
        }
        if isSystem(name) || candidates.contains(where: isSystem) { return .system }
        if let other = session.otherImage(named: name, for: index) { return .mismatch(other) }
        let folders = candidates.map(LdSoSearch.directory(of:))
        return .missing(folders, unreadable: candidates.compactMap { session.unreadable[$0] })
    }

    /// `nil`: the paths dyld tries depend on what the chain of loaders
    /// hands down, known only as resolution goes.
    static func likelyFile(
        of name: String, for index: Int, in session: inout LinkResolver.Session
    ) -> (path: String, identity: FileIdentity)? {
        nil
    }

    /// What the Mach-O image at `index` links inherits its `LC_RPATH`
    /// folders and executables (``context(handedDownBy:in:)``). The loaders
    /// of one slice of a fat file are the file's: its other slices (which a
    /// process of another architecture would take) learn the same.
    static func handDown(from index: Int, to targets: [Int], in session: inout LinkResolver.Session) -> [Int] {
        let handed = context(handedDownBy: session.images[index], in: session.dyldContexts[index] ?? .init())
        var learnt: [Int] = []
        for target in targets {
            let identity = session.images[target].identity
            let file = identity.slice == nil ? [target] : session.slicesByFile[identity.file] ?? [target]
            for slice in file where session.dyldContexts[slice, default: .init()].merge(handed) { learnt.append(slice) }
        }
        return learnt
    }
}

extension String {
    /// The rest after `prefix`, or `nil` when the string does not start
    /// with it.
    func dropPrefix(_ prefix: String) -> Substring? {
        hasPrefix(prefix) ? dropFirst(prefix.count) : nil
    }
}
