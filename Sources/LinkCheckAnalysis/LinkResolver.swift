import Foundation
import LinkCheckImage
import LinkCheckInspection

/// Resolves every edge between images the way the loaders do: DT_NEEDED as
/// `ld.so(8)` does (``LdSoSearch``), dylib load commands as dyld does
/// (``DyldSearch``), and what code loads at run time (`dlopen` literals,
/// `.note.dlopen`) as the image's own dependencies are.
///
/// For ELF:
/// 1. a name with a `/` is a path (relative to the working directory);
/// 2. DT_RPATH (only when there is no DT_RUNPATH), `LD_LIBRARY_PATH` (only
///    when enabled), DT_RUNPATH, each with `$ORIGIN`/`${ORIGIN}` expanded to
///    the needing image's directory, then the extra search paths;
/// 3. the scanned images, by SONAME or file name;
/// 4. the system directories (`/etc/ld.so.conf` and its includes, then
///    `/lib`, `/usr/lib` and their multiarch folders), unless excluded.
///
/// For Mach-O: the paths dyld tries (`@rpath` against the `LC_RPATH`
/// entries of the whole chain of loaders, `@loader_path`,
/// `@executable_path`), then the scanned images by install name; install
/// names under `/System/` and `/usr/lib/` are the SDK's, neither inspected
/// nor missing.
///
/// Only a library the loader could load into the image's process counts as
/// a match (``Architecture/canLoad(_:)``, and for Mach-O the same platform:
/// a simulator image never takes a device one). Libraries found outside the
/// scanned images are inspected and added (once per file; a fat file adds
/// each slice; their own dependencies are resolved too), so that
/// transitivity holds through them.
public struct LinkResolver: Sendable {
    public var searchPaths: [String]
    public var useLDLibraryPath: Bool
    public var includeSystem: Bool

    public init(searchPaths: [String] = [], useLDLibraryPath: Bool = false, includeSystem: Bool = true) {
        self.searchPaths = searchPaths
        self.useLDLibraryPath = useLDLibraryPath
        self.includeSystem = includeSystem
    }

    /// Resolves the dependencies of `scanned` and of every library found for
    /// them, and the `loads` (by index into `scanned`). `inspect` reads a
    /// library outside the scanned set, up to `jobs` at a time.
    public func resolve(
        _ scanned: [BinaryImage], loads: [Int: [LoadRequest]] = [:], jobs: Int = 1,
        inspect: @Sendable (String) -> LibraryInspection
    ) -> LinkGraph {
        var session = Session(resolver: self, scanned: scanned)
        return session.resolve(loads: loads, jobs: jobs, inspect: inspect)
    }

    /// One run's resolution state: the images so far (scanned, then found),
    /// by name and by file, and the files that are not loadable.
    struct Session {
        let resolver: LinkResolver
        /// The scanned images, then every library found for them.
        private(set) var images: [BinaryImage]
        let scannedCount: Int
        private var byName: [String: [Int]] = [:]
        /// Images by file identity (each slice of a fat file), so that one
        /// file reached by two paths (`/lib` linked to `/usr/lib`) is read
        /// once.
        private var byFile: [FileIdentity: [Int]] = [:]
        /// `stat(2)` results by path: most images need the same few
        /// libraries, looked for in the same folders.
        private var identities: [String: FileIdentity?] = [:]
        /// ``SystemLibraryDirectories/for(_:)`` by architecture.
        private var systemDirectories: [Architecture: [String]] = [:]
        /// Files found where a library was looked for that could not be
        /// inspected, by path, with the reason.
        private var unreadable: [String: InspectionError] = [:]
        /// Libraries inspected ahead of ``load(_:for:inspect:)``, by file.
        private var prefetched: [FileIdentity: LibraryInspection] = [:]
        private let ldLibraryPath: [String]
        /// What each Mach-O image knows of the processes it is loaded into.
        private var dyldContexts: [Int: DyldSearch.Context] = [:]
        /// The slices of each fat file among the images
        /// (``ImageIdentity/file``): what the loaders of one slice hand
        /// down is what every slice of the file gets.
        private var slicesByFile: [ImageIdentity: [Int]] = [:]

        init(resolver: LinkResolver, scanned: [BinaryImage]) {
            self.resolver = resolver
            images = scanned
            scannedCount = scanned.count
            for (index, image) in scanned.enumerated() {
                if image.identity.slice != nil { slicesByFile[image.identity.file, default: []].append(index) }
                byName[image.linkName, default: []].append(index)
                if image.format == .elf && image.declaredName != nil && image.declaredName != image.fileName {
                    byName[image.fileName, default: []].append(index)
                }
            }
            ldLibraryPath = resolver.useLDLibraryPath
                ? (ProcessInfo.processInfo.environment["LD_LIBRARY_PATH"] ?? "").split(separator: ":").map(String.init) : []
            for (index, image) in scanned.enumerated() {
                if let identity = identity(of: image.path), !(byFile[identity]?.contains(index) ?? false) {
                    byFile[identity, default: []].append(index)
                }
            }
        }

        /// The outcome of looking up one library name for one image.
        enum Lookup: Equatable {
            case found(Int)
            /// Found only among the scanned images by its install name, in
            /// none of the folders dyld searches (`searched`)
            /// (``LinkGraph/Missing/foundByInstallName``).
            case foundByInstallName(Int, searched: [String])
            /// Only images of another machine, class, byte order or
            /// platform carry the name.
            case mismatch(Int)
            /// Not found; the folders searched, and the files found there
            /// under the name that could not be inspected (the loader skips
            /// them too, but what they hold is not checked).
            case missing([String], unreadable: [InspectionError])
            /// A system library of the SDK (`/System/…`, `/usr/lib/…` on
            /// Darwin): known, not inspected.
            case system
        }

        /// Resolves the dependencies of every image, including the libraries
        /// found on the way, and the loads of the scanned ones. ELF images go
        /// in waves: the libraries a wave will most likely load are
        /// inspected first, `jobs` at a time. A Mach-O image whose chain of
        /// loaders grows (new `LC_RPATH` folders, a new executable) is
        /// resolved again with what it now knows.
        mutating func resolve(loads: [Int: [LoadRequest]], jobs: Int, inspect: @Sendable (String) -> LibraryInspection) -> LinkGraph {
            var edges: [[Int]] = Array(repeating: [], count: images.count)
            var mismatches: [Int: [LinkGraph.Mismatch]] = [:]
            var missing: [Int: [LinkGraph.Missing]] = [:]
            var loadEdges: [Int: [LoadEdge]] = [:]
            var pending = Array(0..<images.count)
            var queued = Set(pending)
            var head = 0
            var waveEnd = 0
            while head < pending.count {
                if head == waveEnd {
                    waveEnd = pending.count
                    prefetch(pending[head..<waveEnd], jobs: jobs, inspect: inspect)
                }
                let current = pending[head]
                head += 1
                queued.remove(current)
                let known = images.count
                var targets: [Int] = []
                mismatches[current] = []
                missing[current] = []
                for dependency in images[current].dependencies {
                    switch locate(dependency.name, for: current, inspect: inspect) {
                    case .found(let found):
                        if found != current && !targets.contains(found) { targets.append(found) }
                    case .foundByInstallName(let found, let searched):
                        if found != current && !targets.contains(found) { targets.append(found) }
                        missing[current, default: []].append(
                            LinkGraph.Missing(image: current, needed: dependency.name, searched: searched, foundByInstallName: found))
                    case .mismatch(let other):
                        mismatches[current, default: []].append(LinkGraph.Mismatch(image: current, needed: dependency.name, candidate: other))
                    case .missing(let searched, let unreadable):
                        // Without the system folders (--no-system) the run
                        // stops at the scanned set: what is outside it is not
                        // missing, just not asked about. A file found under
                        // the name that could not be read is always said. A
                        // weak dylib may be absent.
                        let asked = resolver.includeSystem && (!searched.isEmpty || dependency.name.contains("/"))
                        if !unreadable.isEmpty || (asked && dependency.kind != .weak) {
                            missing[current, default: []].append(
                                LinkGraph.Missing(image: current, needed: dependency.name, searched: searched, unreadable: unreadable))
                        }
                    case .system:
                        break
                    }
                }
                // What the image loads resolves with what it knows now: a
                // Mach-O image resolved again (its loaders handed down more
                // LC_RPATH folders) may find what it did not before.
                if current < scannedCount {
                    let declared = images[current].declaredLoads.map { LoadRequest(names: $0.sonames, callSite: nil, source: .note) }
                    loadEdges[current] = ((loads[current] ?? []) + declared).map { edge($0, for: current, inspect: inspect) }
                }
                // The libraries found on the way are resolved too.
                edges += Array(repeating: [], count: images.count - known)
                for index in known..<images.count {
                    pending.append(index)
                    queued.insert(index)
                }
                edges[current] = targets
                // dyld: what a Mach-O image links inherits its LC_RPATH
                // folders and executables; one resolved before it learnt
                // them is resolved again. The loaders of one slice of a fat
                // file are the file's: its other slices (which a process of
                // another architecture would take) learn the same.
                if images[current].format == .macho {
                    let handed = DyldSearch.context(handedDownBy: images[current], in: dyldContexts[current] ?? .init())
                    for target in targets where images[target].format == .macho {
                        let file = images[target].identity.slice == nil ? [target] : slicesByFile[images[target].identity.file] ?? [target]
                        for slice in file where dyldContexts[slice, default: .init()].merge(handed) && !queued.contains(slice) {
                            pending.append(slice)
                            queued.insert(slice)
                        }
                    }
                }
            }
            return LinkGraph(
                images: images, scannedCount: scannedCount, edges: edges, loads: loadEdges.filter { !$0.value.isEmpty },
                mismatches: mismatches.keys.sorted().flatMap { mismatches[$0]! },
                missing: missing.keys.sorted().flatMap { missing[$0]! })
        }

        /// Where a load request resolves: the first of its names found as a
        /// dependency of the image would be.
        private mutating func edge(_ request: LoadRequest, for index: Int, inspect: (String) -> LibraryInspection) -> LoadEdge {
            guard let first = request.names.first else {
                return LoadEdge(name: LoadEdge.unknownName, target: nil, callSite: request.callSite, source: request.source)
            }
            for name in request.names {
                switch locate(name, for: index, inspect: inspect) {
                case .found(let found):
                    return LoadEdge(name: first, target: found, callSite: request.callSite, source: request.source)
                case .foundByInstallName(let found, let searched):
                    var edge = LoadEdge(name: first, target: found, callSite: request.callSite, source: request.source)
                    edge.searchedInVain = searched
                    return edge
                default: continue
                }
            }
            return LoadEdge(name: first, target: nil, callSite: request.callSite, source: request.source)
        }

        /// Looks `name` up for the image at `index` as its loader would,
        /// inspecting and adding a library found outside the images so far.
        mutating func locate(_ name: String, for index: Int, inspect: (String) -> LibraryInspection) -> Lookup {
            images[index].format == .macho ? locateDylib(name, for: index, inspect: inspect) : locateELF(name, for: index, inspect: inspect)
        }

        private mutating func locateELF(_ name: String, for index: Int, inspect: (String) -> LibraryInspection) -> Lookup {
            let image = images[index]
            if name.utf8.contains(UInt8(ascii: "/")) {
                let path = Self.path(ofNeeded: name)
                return load(path, for: index, inspect: inspect).map(Lookup.found)
                    ?? .missing([], unreadable: unreadable[path].map { [$0] } ?? [])
            }
            let project = LdSoSearch.directories(for: image, ldLibraryPath: ldLibraryPath, searchPaths: resolver.searchPaths)
            let system = resolver.includeSystem ? systemDirectories(for: image) : []
            if let found = firstLoaded(name, in: project, for: index, inspect: inspect) { return .found(found) }
            if let found = scannedImage(named: name, for: index) { return .found(found) }
            if let found = firstLoaded(name, in: system, for: index, inspect: inspect) { return .found(found) }
            if let other = (byName[name] ?? []).first(where: { $0 != index }) { return .mismatch(other) }
            let searched = project + system
            return .missing(searched, unreadable: searched.compactMap { unreadable[Self.join($0, name)] })
        }

        private mutating func locateDylib(_ name: String, for index: Int, inspect: (String) -> LibraryInspection) -> Lookup {
            let candidates = DyldSearch.candidates(for: name, linkedBy: images[index], in: dyldContexts[index] ?? .init())
            for path in candidates {
                if let found = load(path, for: index, inspect: inspect) { return .found(found) }
            }
            if let found = scannedImage(named: name, for: index) {
                return candidates.isEmpty || candidates == [name] ? .found(found) : .foundByInstallName(found, searched: candidates.map(LdSoSearch.directory(of:)))
            }
            if DyldSearch.isSystem(name) || candidates.contains(where: DyldSearch.isSystem) { return .system }
            if let other = (byName[name] ?? []).first(where: { $0 != index }) { return .mismatch(other) }
            let folders = candidates.map(LdSoSearch.directory(of:))
            return .missing(folders, unreadable: candidates.compactMap { unreadable[$0] })
        }

        /// A DT_NEEDED name with a `/`: a path, relative to the working
        /// directory.
        private static func path(ofNeeded name: String) -> String {
            name.hasPrefix("/") ? name : URL(fileURLWithPath: name).path
        }

        /// A scanned image other than `index` that carries `name` and that
        /// image `index` could load.
        private func scannedImage(named name: String, for index: Int) -> Int? {
            (byName[name] ?? []).first { $0 != index && Self.compatible(images[$0], with: images[index]) }
        }

        /// Whether the loader could load `library` into the process of
        /// `image`: an architecture it can load, and for Mach-O the same
        /// platform (device and simulator never mix).
        static func compatible(_ library: BinaryImage, with image: BinaryImage) -> Bool {
            guard library.format == image.format, image.architecture.canLoad(library.architecture) else { return false }
            guard let own = image.platform?.platform, let other = library.platform?.platform else { return true }
            return own == other
        }

        /// The image at `path` that image `index` could load, inspecting the
        /// file (once) when it is not known yet; for a fat file, the slice
        /// of the image's architecture.
        private mutating func load(_ path: String, for index: Int, inspect: (String) -> LibraryInspection) -> Int? {
            guard unreadable[path] == nil, let identity = identity(of: path) else { return nil }
            let image = images[index]
            if let known = byFile[identity] {
                return known.first { Self.compatible(images[$0], with: image) }
            }
            // Reported by its real path, as `realpath(3)` gives it.
            let libraries: [BinaryImage]
            switch prefetched.removeValue(forKey: identity) ?? inspect(LdSoSearch.realPath(path)) {
            case .success(let inspected): libraries = inspected
            case .failure(let error):
                unreadable[path] = error
                return nil
            }
            var added: [Int] = []
            for library in libraries {
                images.append(library)
                added.append(images.count - 1)
                if library.identity.slice != nil { slicesByFile[library.identity.file, default: []].append(images.count - 1) }
            }
            byFile[identity] = added
            return added.first { Self.compatible(images[$0], with: image) }
        }

        /// Inspects, `jobs` at a time, the libraries the ELF images in
        /// `wave` will load: for each DT_NEEDED, the first file found in the
        /// order of ``locate(_:for:inspect:)`` that is not an image yet. A
        /// guess that proves wrong (an incompatible file) costs only its
        /// inspection.
        private mutating func prefetch(_ wave: ArraySlice<Int>, jobs: Int, inspect: @Sendable (String) -> LibraryInspection) {
            var wanted: [(identity: FileIdentity, path: String)] = []
            var seen = Set<FileIdentity>()
            for index in wave where images[index].format == .elf {
                for name in images[index].dependencyNames {
                    guard let found = likelyFile(of: name, for: index),
                          prefetched[found.identity] == nil, seen.insert(found.identity).inserted
                    else { continue }
                    wanted.append((found.identity, LdSoSearch.realPath(found.path)))
                }
            }
            guard wanted.count > 1 else { return }
            for (file, library) in zip(wanted, parallelMapLargestFirst(wanted.map(\.path), path: { $0 }, jobs: jobs, inspect)) {
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
                let image = images[index]
                let project = LdSoSearch.directories(for: image, ldLibraryPath: ldLibraryPath, searchPaths: resolver.searchPaths)
                let system = resolver.includeSystem ? systemDirectories(for: image) : []
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
            if let known = systemDirectories[image.architecture] { return known }
            let directories = SystemLibraryDirectories.for(image.architecture)
            systemDirectories[image.architecture] = directories
            return directories
        }

        private mutating func firstLoaded(
            _ name: String, in directories: [String], for index: Int, inspect: (String) -> LibraryInspection
        ) -> Int? {
            for directory in directories {
                if let found = load(Self.join(directory, name), for: index, inspect: inspect) {
                    return found
                }
            }
            return nil
        }
    }
}

/// What inspecting a library found during resolution gave: its images (one
/// per slice of a fat file), or why it could not be read.
public typealias LibraryInspection = Result<[BinaryImage], InspectionError>
