import LinkCheckImage
import LinkCheckInspection

/// Every edge between images, as ``LinkResolver`` resolved them: who links
/// whom (DT_NEEDED, dylib load commands), who loads whom at run time
/// (`dlopen` literals, `.note.dlopen`), which names only matched images of
/// another architecture, and which were not found.
public struct LinkGraph: Sendable {
    /// The scanned images, then the libraries found outside them (in the
    /// order found).
    public private(set) var images: [BinaryImage]
    /// How many of ``images`` the user gave.
    public let scannedCount: Int
    /// `edges[i]`: indices of the images image `i` links, in dependency
    /// order.
    public private(set) var edges: [[Int]]
    /// What each image loads at run time, by index.
    public private(set) var loads: [Int: [LoadEdge]]
    /// Dependencies that resolved only to images of another architecture
    /// or platform.
    public private(set) var mismatches: [Mismatch]
    /// Dependencies found nowhere the loader would look.
    public private(set) var missing: [Missing]
    /// `directDependents[i]`: indices of the images that link or load
    /// image `i`.
    private var directDependents: [[Int]]
    /// `otherSlices[i]`: the other slices of image `i`'s fat file
    /// (``ImageIdentity/file``), in image order; empty for a thin file.
    public private(set) var otherSlices: [[Int]]

    /// A dependency whose only candidates are of another machine, class,
    /// byte order or platform.
    public struct Mismatch: Sendable, Equatable {
        public var image: Int
        public var needed: String
        public var candidate: Int
    }

    /// A dependency that no folder in `searched` holds as a readable
    /// library; `unreadable` are the files found under its name that could
    /// not be inspected.
    public struct Missing: Sendable, Equatable {
        public var image: Int
        public var needed: String
        public var searched: [String]
        public var unreadable: [InspectionError] = []
        /// A scanned image that carries the install name though it is in
        /// none of the folders dyld searches (a framework inside an
        /// `.appex` whose only `LC_RPATH` is
        /// `@executable_path/../../Frameworks`): the graph links it, so
        /// that what it holds still reaches its clients, but dyld would not
        /// load it. Outside an app bundle that is how loose frameworks are
        /// found, and no finding says so.
        public var foundByInstallName: Int? = nil
    }

    public init(
        images: [BinaryImage], scannedCount: Int, edges: [[Int]], loads: [Int: [LoadEdge]] = [:],
        mismatches: [Mismatch] = [], missing: [Missing] = []
    ) {
        self.images = images
        self.scannedCount = scannedCount
        self.edges = edges
        self.loads = loads
        self.mismatches = mismatches
        self.missing = missing
        directDependents = Array(repeating: [], count: images.count)
        otherSlices = Self.otherSlices(of: images)
        for (from, targets) in edges.enumerated() {
            for target in targets { directDependents[target].append(from) }
        }
        for (from, loaded) in loads.sorted(by: { $0.key < $1.key }) {
            for target in loaded.compactMap(\.target) where !directDependents[target].contains(from) {
                directDependents[target].append(from)
            }
        }
    }

    /// `result[i]`: the indices of the other slices of image `i`'s fat file
    /// among `images` (same ``ImageIdentity/file``, another slice).
    static func otherSlices(of images: [BinaryImage]) -> [[Int]] {
        var byFile: [ImageIdentity: [Int]] = [:]
        for (index, image) in images.enumerated() where image.identity.slice != nil {
            byFile[image.identity.file, default: []].append(index)
        }
        return images.indices.map { index in
            guard images[index].identity.slice != nil else { return [] }
            return byFile[images[index].identity.file, default: []].filter { $0 != index }
        }
    }

    /// Whether image `from` reaches image `to` only by loading it at run
    /// time (a `dlopen` or `.note.dlopen` edge, not a dependency).
    public func loadsOnly(from: Int, to: Int) -> Bool {
        !edges[from].contains(to) && (loads[from] ?? []).contains { $0.target == to }
    }

    /// Resolves dependencies and `loads` (by image identity) among `images`
    /// only, by link name or file name (no file system search, outside any
    /// bundle): for tests and for analysing images described in code.
    public init(images: [BinaryImage], loads: [ImageIdentity: [LoadRequest]] = [:]) {
        self = LinkResolver(searchPaths: [], includeSystem: false).resolve(images, loads: loads, reader: ImagesGivenOnly())
    }

    /// Reads no library: every one outside the images given is not found.
    private struct ImagesGivenOnly: ImageFileReader {
        func images(inFile path: String) -> Result<[BinaryImage], InspectionError> {
            .failure(.notInspectable(path: path, reason: "outside the images given"))
        }
    }

    /// The images that link or load `image` directly or not, each with the
    /// shortest chain of indices from it down to `image` (both ends
    /// included). Breadth-first over reversed edges (dependencies, then
    /// loads); cycles are visited once.
    public func dependents(of image: Int) -> [Int: [Int]] {
        var chains: [Int: [Int]] = [image: [image]]
        var queue = [image]
        var head = 0
        while head < queue.count {
            let current = queue[head]
            head += 1
            for dependent in directDependents[current] where chains[dependent] == nil {
                chains[dependent] = [dependent] + chains[current]!
                queue.append(dependent)
            }
        }
        chains[image] = nil
        return chains
    }

    /// The images reachable from `image` over `edges` (`edges[i]`: the
    /// images image `i` leads to), itself included.
    public static func reachable(from image: Int, over edges: [[Int]]) -> Set<Int> {
        var seen: Set<Int> = [image]
        var stack = [image]
        while let current = stack.popLast() {
            for next in edges[current] where seen.insert(next).inserted {
                stack.append(next)
            }
        }
        return seen
    }
}

/// Something an image asks the loader for at run time: a loader call (with
/// the library it names, when that is a literal) or a `.note.dlopen` entry.
public struct LoadRequest: Sendable, Equatable {
    /// The names to try, in order of preference; empty when the code
    /// computes the name at run time.
    public var names: [String]
    /// The loader call, for a call.
    public var callSite: CallSite?
    public var source: LoadSource

    public init(names: [String], callSite: CallSite?, source: LoadSource) {
        self.names = names
        self.callSite = callSite
        self.source = source
    }
}

/// Where a load comes from.
public enum LoadSource: String, Sendable, Codable {
    /// A loader call (`dlopen`) in the image's code.
    case call
    /// A `.note.dlopen` entry.
    case note
}

/// A library an image loads at run time, and where it resolved.
public struct LoadEdge: Sendable, Equatable {
    /// The name as the code or the note gives it (the first name tried);
    /// ``unknownName`` when the code computes it.
    public var name: String
    /// The loaded image (index into the images), or `nil` when not found.
    public var target: Int?
    /// The loader call, for a call.
    public var callSite: CallSite?
    public var source: LoadSource
    /// The folders dyld searches for the name (``DyldSearch``), when it was
    /// found only among the scanned images by its install name, in none of
    /// them (as ``LinkGraph/Missing/foundByInstallName``); `nil` otherwise.
    /// Inside an app bundle such a load has no ``target``: dyld does not
    /// find it (``LinkResolver``).
    public var searchedInVain: [String]? = nil

    /// The name of a load whose argument is not a string literal.
    public static let unknownName = "unknown"

    /// Whether the loaded name is known (a literal or a declared name).
    public var isKnown: Bool { !(source == .call && name == Self.unknownName && target == nil) }

    public init(name: String, target: Int?, callSite: CallSite?, source: LoadSource) {
        self.name = name
        self.target = target
        self.callSite = callSite
        self.source = source
    }
}
