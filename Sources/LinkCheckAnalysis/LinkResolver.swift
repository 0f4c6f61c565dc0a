import Foundation
import LinkCheckInspection

/// Resolves DT_NEEDED the way the dynamic loader does (`ld.so(8)`), with the
/// scanned images standing in for the loader's cache:
///
/// 1. a name with a `/` is a path (relative to the working directory);
/// 2. DT_RPATH (only when there is no DT_RUNPATH), `LD_LIBRARY_PATH` (only
///    when enabled), DT_RUNPATH, each with `$ORIGIN`/`${ORIGIN}` expanded to
///    the needing image's directory, then the extra search paths;
/// 3. the scanned images, by SONAME or file name;
/// 4. the system directories (`/etc/ld.so.conf` and its includes, then
///    `/lib`, `/usr/lib` and their multiarch folders), unless excluded.
///
/// Only a library of the same machine, class and data encoding counts as a
/// match, as for the loader. Libraries found outside the scanned images are
/// inspected and added (once each; their own DT_NEEDED are resolved too), so
/// that transitivity holds through them.
public struct LinkResolver: Sendable {
    public var searchPaths: [String]
    public var useLDLibraryPath: Bool
    public var includeSystem: Bool

    public init(searchPaths: [String] = [], useLDLibraryPath: Bool = false, includeSystem: Bool = true) {
        self.searchPaths = searchPaths
        self.useLDLibraryPath = useLDLibraryPath
        self.includeSystem = includeSystem
    }

    /// Resolves the DT_NEEDED of `scanned` and of every library found for
    /// them. `inspect` reads a library outside the scanned set (a failure
    /// when it is not a readable ELF file), up to `jobs` at a time.
    ///
    /// - Returns: the graph over `scanned` followed by the libraries found
    ///   outside it (`external`, in the order found).
    public func resolve(
        _ scanned: [BinaryImage], jobs: Int = 1, inspect: @Sendable (String) -> LibraryInspection
    ) -> (graph: LinkGraph, external: [BinaryImage]) {
        var session = Session(resolver: self, scanned: scanned)
        let graph = session.resolveNeeded(jobs: jobs, inspect: inspect)
        return (graph, Array(session.images[scanned.count...]))
    }

    /// One run's resolution state: the images so far (scanned, then found),
    /// by name and by path, and the files that are not loadable.
    public struct Session {
        let resolver: LinkResolver
        /// The scanned images, then every library found for them.
        public private(set) var images: [BinaryImage]
        private var byName: [String: [Int]] = [:]
        /// Images by file identity, so that one file reached by two paths
        /// (`/lib` linked to `/usr/lib`) is one image.
        private var byFile: [FileIdentity: Int] = [:]
        /// `stat(2)` results by path: most images need the same few
        /// libraries, looked for in the same folders.
        private var identities: [String: FileIdentity?] = [:]
        /// ``SystemLibraryDirectories/for(_:_:)`` by machine and class.
        private var systemDirectories: [SystemKey: [String]] = [:]
        private struct SystemKey: Hashable {
            let machine: Machine
            let elfClass: ELFClass
        }
        /// Files found where a library was looked for that could not be
        /// inspected, by path, with the reason.
        private var unreadable: [String: InspectionError] = [:]
        /// Libraries inspected ahead of ``load(_:for:inspect:)``, by file.
        private var prefetched: [FileIdentity: LibraryInspection] = [:]
        private let ldLibraryPath: [String]

        public init(resolver: LinkResolver, scanned: [BinaryImage]) {
            self.resolver = resolver
            images = scanned
            for (index, image) in scanned.enumerated() {
                byName[image.linkName, default: []].append(index)
                if image.dynamic.soname != nil && image.dynamic.soname != image.fileName {
                    byName[image.fileName, default: []].append(index)
                }
            }
            ldLibraryPath = resolver.useLDLibraryPath
                ? (ProcessInfo.processInfo.environment["LD_LIBRARY_PATH"] ?? "").split(separator: ":").map(String.init) : []
            for (index, image) in scanned.enumerated() {
                if let identity = identity(of: image.path), byFile[identity] == nil { byFile[identity] = index }
            }
        }

        /// The outcome of looking up one library name for one image.
        public enum Lookup: Equatable {
            case found(Int)
            /// Only images of another machine, class or encoding carry the name.
            case mismatch(Int)
            /// Not found; the folders searched, and the files found there
            /// under the name that could not be inspected (the loader skips
            /// them too, but what they hold is not checked).
            case missing([String], unreadable: [InspectionError])
        }

        /// Looks `name` up for the image at `index` as the loader would (the
        /// order in ``LinkResolver``), inspecting and adding a library found
        /// outside the images so far.
        public mutating func locate(_ name: String, for index: Int, inspect: (String) -> LibraryInspection) -> Lookup {
            let image = images[index]
            if name.utf8.contains(UInt8(ascii: "/")) {
                let path = Self.path(ofNeeded: name)
                return load(path, for: image, inspect: inspect).map(Lookup.found)
                    ?? .missing([], unreadable: unreadable[path].map { [$0] } ?? [])
            }
            let (project, system) = directories(for: index)
            if let found = firstLoaded(name, in: project, for: image, inspect: inspect) { return .found(found) }
            if let found = scannedImage(named: name, for: index) { return .found(found) }
            if let found = firstLoaded(name, in: system, for: image, inspect: inspect) { return .found(found) }
            if let other = (byName[name] ?? []).first(where: { $0 != index }) { return .mismatch(other) }
            let searched = project + system
            return .missing(searched, unreadable: searched.compactMap { unreadable[Self.join($0, name)] })
        }

        /// A DT_NEEDED name with a `/`: a path, relative to the working
        /// directory.
        private static func path(ofNeeded name: String) -> String {
            name.hasPrefix("/") ? name : URL(fileURLWithPath: name).path
        }

        /// Where the image at `index` has its libraries looked for, in order:
        /// the project's folders (DT_RPATH unless there is DT_RUNPATH,
        /// `LD_LIBRARY_PATH`, DT_RUNPATH, with `$ORIGIN` expanded, then the
        /// search paths), then, after the scanned images, the system's.
        private mutating func directories(for index: Int) -> (project: [String], system: [String]) {
            let image = images[index]
            let expand = { (directory: String) in
                guard directory.utf8.contains(UInt8(ascii: "$")) else { return directory }
                let origin = image.path.utf8.lastIndex(of: UInt8(ascii: "/")).map { String(image.path[..<$0]) } ?? "."
                return LinkResolver.expandingOrigin(in: directory, with: origin)
            }
            let rpath = image.dynamic.runpath.isEmpty ? image.dynamic.rpath : []
            let project = (rpath + ldLibraryPath + image.dynamic.runpath).map(expand) + resolver.searchPaths
            return (project, resolver.includeSystem ? systemDirectories(for: image) : [])
        }

        /// A scanned image other than `index` that carries `name` and is
        /// compatible with it.
        private func scannedImage(named name: String, for index: Int) -> Int? {
            (byName[name] ?? []).first { $0 != index && LinkGraph.compatible(images[$0], images[index]) }
        }

        /// Resolves the DT_NEEDED of every image, including the libraries
        /// found on the way, in waves: the libraries the images of a wave
        /// will most likely load are inspected first, `jobs` at a time (the
        /// next wave is the libraries found), then the wave is resolved in
        /// order.
        mutating func resolveNeeded(jobs: Int = 1, inspect: @Sendable (String) -> LibraryInspection) -> LinkGraph {
            var edges: [[Int]] = []
            var mismatches: [LinkGraph.Mismatch] = []
            var missing: [LinkGraph.Missing] = []
            var current = 0
            var waveEnd = 0
            while current < images.count {
                if current == waveEnd {
                    waveEnd = images.count
                    prefetch(current..<waveEnd, jobs: jobs, inspect: inspect)
                }
                var targets: [Int] = []
                for needed in images[current].dynamic.needed {
                    switch locate(needed, for: current, inspect: inspect) {
                    case .found(let found):
                        if found != current && !targets.contains(found) { targets.append(found) }
                    case .mismatch(let other):
                        mismatches.append(LinkGraph.Mismatch(image: current, needed: needed, candidate: other))
                    case .missing(let searched, let unreadable):
                        // Without the system folders (--no-system) the run
                        // stops at the scanned set: what is outside it is not
                        // missing, just not asked about. A file found under
                        // the name that could not be read is always said.
                        if !unreadable.isEmpty || (resolver.includeSystem && (!searched.isEmpty || needed.contains("/"))) {
                            missing.append(LinkGraph.Missing(image: current, needed: needed, searched: searched, unreadable: unreadable))
                        }
                    }
                }
                edges.append(targets)
                current += 1
            }
            return LinkGraph(count: images.count, edges: edges, mismatches: mismatches, missing: missing)
        }

        /// The image at `path` if it is compatible with `image`, inspecting
        /// it (once) when it is not known yet.
        private mutating func load(_ path: String, for image: BinaryImage, inspect: (String) -> LibraryInspection) -> Int? {
            guard unreadable[path] == nil, let identity = identity(of: path) else { return nil }
            if let index = byFile[identity] {
                return LinkGraph.compatible(images[index], image) ? index : nil
            }
            // Reported by its real path, as `realpath(3)` gives it.
            let library: BinaryImage
            switch prefetched.removeValue(forKey: identity) ?? inspect(LinkResolver.realPath(path)) {
            case .success(let inspected): library = inspected
            case .failure(let error):
                unreadable[path] = error
                return nil
            }
            images.append(library)
            byFile[identity] = images.count - 1
            return LinkGraph.compatible(library, image) ? images.count - 1 : nil
        }

        /// Inspects, `jobs` at a time, the libraries the images in `wave`
        /// will load: for each DT_NEEDED, the first file found in the order of
        /// ``locate(_:for:inspect:)`` that is not an image yet. A guess that
        /// proves wrong (an incompatible file) costs only its inspection.
        private mutating func prefetch(_ wave: Range<Int>, jobs: Int, inspect: @Sendable (String) -> LibraryInspection) {
            var wanted: [(identity: FileIdentity, path: String)] = []
            var seen = Set<FileIdentity>()
            for index in wave {
                for name in images[index].dynamic.needed {
                    guard let found = likelyFile(of: name, for: index),
                          prefetched[found.identity] == nil, seen.insert(found.identity).inserted
                    else { continue }
                    wanted.append((found.identity, LinkResolver.realPath(found.path)))
                }
            }
            guard wanted.count > 1 else { return }
            for (file, library) in zip(wanted, parallelMap(wanted.map(\.path), jobs: jobs, inspect)) {
                prefetched[file.identity] = library
            }
        }

        /// The file ``locate(_:for:inspect:)`` would most likely inspect for
        /// `name`: the first that exists where it looks, when it is not an
        /// image yet; `nil` when it would take an image it has.
        private mutating func likelyFile(of name: String, for index: Int) -> (path: String, identity: FileIdentity)? {
            let found: (path: String, identity: FileIdentity)?
            if name.utf8.contains(UInt8(ascii: "/")) {
                let path = Self.path(ofNeeded: name)
                found = identity(of: path).map { (path, $0) }
            } else {
                let (project, system) = directories(for: index)
                found = firstExisting(name, in: project)
                    ?? (scannedImage(named: name, for: index) == nil ? firstExisting(name, in: system) : nil)
            }
            guard let found, byFile[found.identity] == nil, unreadable[found.path] == nil else { return nil }
            return found
        }

        private mutating func firstExisting(_ name: String, in directories: [String]) -> (path: String, identity: FileIdentity)? {
            for directory in directories {
                let path = Self.join(directory, name)
                if let identity = identity(of: path) { return (path, identity) }
            }
            return nil
        }

        /// `directory/name`; an empty directory (an empty entry in a search
        /// path) is the working directory, as for the loader.
        private static func join(_ directory: String, _ name: String) -> String {
            if directory.isEmpty { return name }
            return directory.hasSuffix("/") ? directory + name : directory + "/" + name
        }

        private mutating func identity(of path: String) -> FileIdentity? {
            if let known = identities[path] { return known }
            let identity = FileIdentity(regularFileAt: path)
            identities[path] = identity
            return identity
        }

        private mutating func systemDirectories(for image: BinaryImage) -> [String] {
            let key = SystemKey(machine: image.machine, elfClass: image.elfClass)
            if let known = systemDirectories[key] { return known }
            let directories = SystemLibraryDirectories.for(image.machine, image.elfClass)
            systemDirectories[key] = directories
            return directories
        }

        private mutating func firstLoaded(
            _ name: String, in directories: [String], for image: BinaryImage, inspect: (String) -> LibraryInspection
        ) -> Int? {
            for directory in directories {
                if let index = load(Self.join(directory, name), for: image, inspect: inspect) {
                    return index
                }
            }
            return nil
        }
    }

    /// `directory` with each `${ORIGIN}`, and each `$ORIGIN` not followed by
    /// a letter, digit or `_`, replaced by `origin` (`ld.so(8)`, "Dynamic
    /// string tokens"; glibc's `is_dst`).
    static func expandingOrigin(in directory: String, with origin: String) -> String {
        var result = ""
        var rest = Substring(directory)
        while let dollar = rest.firstIndex(of: "$") {
            result += rest[..<dollar]
            let token = rest[dollar...]
            let unbraced = token.hasPrefix("$ORIGIN")
                && !(token.dropFirst(7).first.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") } ?? false)
            if token.hasPrefix("${ORIGIN}") || unbraced {
                result += origin
                rest = token.dropFirst(unbraced ? 7 : 9)
            } else {
                result += "$"
                rest = token.dropFirst()
            }
        }
        return result + rest
    }

    /// `path` with symbolic links, `.` and `..` resolved (`realpath(3)`);
    /// `path` itself when that fails.
    static func realPath(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

/// What inspecting a library found during resolution gave: the image, or
/// why it could not be read.
public typealias LibraryInspection = Result<BinaryImage, InspectionError>

/// The loader's default directories for a machine: those of
/// `/etc/ld.so.conf` (following `include` globs), then the trusted
/// directories `/lib` and `/usr/lib` with the Debian multiarch folder
/// (`/lib/x86_64-linux-gnu`) and, for 64-bit machines, `lib64`.
public enum SystemLibraryDirectories {
    /// The multiarch triple Debian uses for a machine.
    static func multiarch(_ machine: Machine, _ elfClass: ELFClass) -> String? {
        switch machine.name {
        case "x86_64": "x86_64-linux-gnu"
        case "aarch64": "aarch64-linux-gnu"
        case "i386": "i386-linux-gnu"
        case "armv7": "arm-linux-gnueabihf"
        case "riscv64": "riscv64-linux-gnu"
        case "ppc64le": "powerpc64le-linux-gnu"
        case "s390x": "s390x-linux-gnu"
        case "mips64el": "mips64el-linux-gnuabi64"
        case "loongarch64": "loongarch64-linux-gnu"
        default: nil
        }
    }

    /// The configured directories (`/etc/ld.so.conf`), read once per run.
    static let configured: [String] = readConfiguration("/etc/ld.so.conf", depth: 0)

    public static func `for`(_ machine: Machine, _ elfClass: ELFClass) -> [String] {
        var directories = configured
        let triple = multiarch(machine, elfClass)
        for base in ["/lib", "/usr/lib"] {
            if let triple { directories.append("\(base)/\(triple)") }
            if elfClass == .elf64 { directories.append("\(base)64") }
            directories.append(base)
        }
        var seen = Set<String>()
        return directories.filter { seen.insert($0).inserted }
    }

    /// Directories listed in an `ld.so.conf` file: one per line, `#`
    /// comments, `include GLOB` lines (bounded nesting).
    static func readConfiguration(_ path: String, depth: Int) -> [String] {
        guard depth < 8, let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        var directories: [String] = []
        for rawLine in text.split(whereSeparator: \.isNewline) {
            let line = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first?
                .trimmingCharacters(in: .whitespaces) ?? ""
            if line.isEmpty { continue }
            if line.hasPrefix("include ") {
                let pattern = line.dropFirst("include ".count).trimmingCharacters(in: .whitespaces)
                let absolute = pattern.hasPrefix("/") ? pattern : ((path as NSString).deletingLastPathComponent as NSString).appendingPathComponent(pattern)
                for file in expand(absolute).sorted() {
                    directories += readConfiguration(file, depth: depth + 1)
                }
            } else if line.hasPrefix("/") {
                directories.append(line)
            }
        }
        return directories
    }

    /// The files a glob names (`glob(3)`).
    static func expand(_ pattern: String) -> [String] {
        var result = glob_t()
        defer { globfree(&result) }
        guard glob(pattern, 0, nil, &result) == 0 else { return [] }
        return (0..<Int(result.gl_pathc)).compactMap { result.gl_pathv[$0].map { String(cString: $0) } }
    }
}
