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
/// scanned images are read with the run's ``ImageFileReader`` and added
/// (once per file; a fat file adds each slice; their own dependencies are
/// resolved too), so that transitivity holds through them. Inside an app
/// bundle, what code loads is found only where dyld looks: a framework a
/// `dlopen` names that lies elsewhere is not loaded.
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
    /// them, and the `loads` of the scanned images (by their identity).
    /// `reader` reads a library outside the scanned set, up to `jobs` at a
    /// time; `bundles` (``Discovery/bundles``) tells which images are inside
    /// an app bundle, where dyld loads only what its search finds.
    public func resolve(
        _ scanned: [BinaryImage], loads: [ImageIdentity: [LoadRequest]] = [:], bundles: BundleLayout = BundleLayout(),
        reader: some ImageFileReader, jobs: Int = 1
    ) -> LinkGraph {
        var session = Session(resolver: self, scanned: scanned, reader: reader)
        return session.resolve(loads: loads, bundles: bundles, jobs: jobs)
    }

    /// One run's resolution state: the images so far (scanned, then found),
    /// by name and by file, and the files that are not loadable.
    struct Session {
        let resolver: LinkResolver
        /// Reads the libraries found outside the images so far.
        let reader: any ImageFileReader
        /// The scanned images, then every library found for them.
        private(set) var images: [BinaryImage]
        let scannedCount: Int
        private(set) var byName: [String: [Int]] = [:]
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
        private(set) var unreadable: [String: InspectionError] = [:]
        /// Libraries inspected ahead of ``load(_:for:)``, by file.
        private var prefetched: [FileIdentity: Result<[BinaryImage], InspectionError>] = [:]
        let ldLibraryPath: [String]
        /// What each Mach-O image knows of the processes it is loaded into.
        var dyldContexts: [Int: DyldSearch.Context] = [:]
        /// The slices of each fat file among the images
        /// (``ImageIdentity/file``): what the loaders of one slice hand
        /// down is what every slice of the file gets.
        private(set) var slicesByFile: [ImageIdentity: [Int]] = [:]

        init(resolver: LinkResolver, scanned: [BinaryImage], reader: any ImageFileReader) {
            self.resolver = resolver
            self.reader = reader
            images = scanned
            scannedCount = scanned.count
            for (index, image) in scanned.enumerated() {
                if image.identity.slice != nil { slicesByFile[image.identity.file, default: []].append(index) }
                for name in image.format.loaderSearch.scannedNames(of: image) { byName[name, default: []].append(index) }
            }
            ldLibraryPath =
                resolver.useLDLibraryPath
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
        /// resolved again with what it now knows. Last, inside an app bundle
        /// (`bundles`), a load found only by install name is not found.
        mutating func resolve(loads: [ImageIdentity: [LoadRequest]], bundles: BundleLayout, jobs: Int) -> LinkGraph {
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
                    prefetch(pending[head..<waveEnd], jobs: jobs)
                }
                let current = pending[head]
                head += 1
                queued.remove(current)
                let known = images.count
                var targets: [Int] = []
                mismatches[current] = []
                missing[current] = []
                for dependency in images[current].dependencies {
                    switch locate(dependency.name, for: current) {
                    case .found(let found):
                        if found != current && !targets.contains(found) { targets.append(found) }
                    case .foundByInstallName(let found, let searched):
                        if found != current && !targets.contains(found) { targets.append(found) }
                        missing[current, default: []].append(
                            LinkGraph.Missing(image: current, needed: dependency.name, searched: searched, foundByInstallName: found))
                    case .mismatch(let other):
                        mismatches[current, default: []].append(
                            LinkGraph.Mismatch(image: current, needed: dependency.name, candidate: other))
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
                    loadEdges[current] = ((loads[images[current].identity] ?? []) + declared).map { edge($0, for: current) }
                }
                // The libraries found on the way are resolved too.
                edges += Array(repeating: [], count: images.count - known)
                for index in known..<images.count {
                    pending.append(index)
                    queued.insert(index)
                }
                edges[current] = targets
                // What the image hands down to what it links (dyld: LC_RPATH
                // folders, executables): one resolved before it learnt it is
                // resolved again.
                for learnt in images[current].format.loaderSearch.handDown(from: current, to: targets, in: &self)
                where !queued.contains(learnt) {
                    pending.append(learnt)
                    queued.insert(learnt)
                }
            }
            for (index, edges) in loadEdges where bundles.placement(ofFile: images[index].path)?.containingApp != nil {
                loadEdges[index] = edges.map(Self.asDyldLoads)
            }
            return LinkGraph(
                images: images, scannedCount: scannedCount, edges: edges, loads: loadEdges.filter { !$0.value.isEmpty },
                mismatches: mismatches.keys.sorted().flatMap { mismatches[$0]! },
                missing: missing.keys.sorted().flatMap { missing[$0]! })
        }

        /// `edge` as dyld loads it inside an app bundle: found only by
        /// install name (``LoadEdge/searchedInVain``), not found (outside
        /// one, that is how loose frameworks are found).
        private static func asDyldLoads(_ edge: LoadEdge) -> LoadEdge {
            var edge = edge
            if edge.searchedInVain != nil { edge.target = nil }
            return edge
        }

        /// Where a load request resolves: the first of its names found as a
        /// dependency of the image would be.
        private mutating func edge(_ request: LoadRequest, for index: Int) -> LoadEdge {
            guard let first = request.names.first else {
                return LoadEdge(name: LoadEdge.unknownName, target: nil, callSite: request.callSite, source: request.source)
            }
            for name in request.names {
                switch locate(name, for: index) {
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

        /// Looks `name` up for the image at `index` as its loader would
        /// (``LoaderSearch/locate(_:for:in:)``), inspecting and adding a
        /// library found outside the images so far.
        mutating func locate(_ name: String, for index: Int) -> Lookup {
            images[index].format.loaderSearch.locate(name, for: index, in: &self)
        }

        /// A scanned image other than `index` that carries `name` and that
        /// image `index` could load.
        func scannedImage(named name: String, for index: Int) -> Int? {
            (byName[name] ?? []).first { $0 != index && Self.compatible(images[$0], with: images[index]) }
        }

        /// A scanned image other than `index` that carries `name`, whether
        /// image `index` could load it or not (a ``Lookup/mismatch(_:)``
        /// when it could not).
        func otherImage(named name: String, for index: Int) -> Int? {
            (byName[name] ?? []).first { $0 != index }
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
        mutating func load(_ path: String, for index: Int) -> Int? {
            guard unreadable[path] == nil, let identity = identity(of: path) else { return nil }
            let image = images[index]
            if let known = byFile[identity] {
                return known.first { Self.compatible(images[$0], with: image) }
            }
            // Reported by its real path, as `realpath(3)` gives it.
            let libraries: [BinaryImage]
            switch prefetched.removeValue(forKey: identity) ?? reader.images(inFile: LdSoSearch.realPath(path)) {
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
        /// order of ``locate(_:for:)`` that is not an image yet. A
        /// guess that proves wrong (an incompatible file) costs only its
        /// inspection.
        private mutating func prefetch(_ wave: ArraySlice<Int>, jobs: Int) {
            var wanted: [(identity: FileIdentity, path: String)] = []
            var seen = Set<FileIdentity>()
            for index in wave {
                for name in images[index].dependencyNames {
                    guard let found = likelyFile(of: name, for: index),
                        prefetched[found.identity] == nil, seen.insert(found.identity).inserted
                    else { continue }
                    wanted.append((found.identity, LdSoSearch.realPath(found.path)))
                }
            }
            guard wanted.count > 1 else { return }
            let reader = reader
            for (file, library) in zip(
                wanted, parallelMapLargestFirst(wanted.map(\.path), path: { $0 }, jobs: jobs, reader.images(inFile:)))
            {
                prefetched[file.identity] = library
            }
        }

        /// The file ``locate(_:for:)`` would most likely inspect for
        /// `name` (``LoaderSearch/likelyFile(of:for:in:)``), when it is not
        /// an image yet and was not found unreadable.
        private mutating func likelyFile(of name: String, for index: Int) -> (path: String, identity: FileIdentity)? {
            guard let found = images[index].format.loaderSearch.likelyFile(of: name, for: index, in: &self),
                byFile[found.identity] == nil, unreadable[found.path] == nil
            else { return nil }
            return found
        }

        mutating func firstExisting(_ name: String, in directories: [String]) -> (path: String, identity: FileIdentity)? {
            for directory in directories {
                let path = Self.join(directory, name)
                if let identity = identity(of: path) { return (path, identity) }
            }
            return nil
        }

        /// `directory/name`; an empty directory (an empty entry in a search
        /// path) is the working directory, as for the loader.
        static func join(_ directory: String, _ name: String) -> String {
            if directory.isEmpty { return name }
            return directory.hasSuffix("/") ? directory + name : directory + "/" + name
        }

        mutating func identity(of path: String) -> FileIdentity? {
            if let known = identities[path] { return known }
            let identity = FileIdentity(regularFileAt: path)
            identities[path] = identity
            return identity
        }

        mutating func systemDirectories(for image: BinaryImage) -> [String] {
            if let known = systemDirectories[image.architecture] { return known }
            let directories = SystemLibraryDirectories.for(image.architecture)
            systemDirectories[image.architecture] = directories
            return directories
        }

        mutating func firstLoaded(_ name: String, in directories: [String], for index: Int) -> Int? {
            for directory in directories {
                if let found = load(Self.join(directory, name), for: index) {
                    return found
                }
            }
            return nil
        }
    }
}
