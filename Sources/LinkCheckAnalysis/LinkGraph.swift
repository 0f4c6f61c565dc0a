import LinkCheckInspection

/// The DT_NEEDED edges between images, as ``LinkResolver`` resolved them:
/// who links whom, which names only matched images of another machine, and
/// which were not found at all.
public struct LinkGraph: Sendable {
    /// `edges[i]`: indices of the images image `i` links, in DT_NEEDED order.
    public private(set) var edges: [[Int]]
    /// DT_NEEDED names that resolved only to images of another kind.
    public private(set) var mismatches: [Mismatch]
    /// DT_NEEDED names found nowhere the loader would look.
    public private(set) var missing: [Missing]
    /// `directDependents[i]`: indices of the images that link image `i`.
    private var directDependents: [[Int]]

    /// A DT_NEEDED entry whose only candidates are of another machine, class
    /// or data encoding.
    public struct Mismatch: Sendable, Equatable {
        public var image: Int
        public var needed: String
        public var candidate: Int
    }

    /// A DT_NEEDED entry that no directory in `searched` holds as a
    /// readable library; `unreadable` are the files found under its name
    /// that could not be inspected.
    public struct Missing: Sendable, Equatable {
        public var image: Int
        public var needed: String
        public var searched: [String]
        public var unreadable: [InspectionError] = []
    }

    public init(count: Int, edges: [[Int]], mismatches: [Mismatch] = [], missing: [Missing] = []) {
        self.edges = edges
        self.mismatches = mismatches
        self.missing = missing
        directDependents = Array(repeating: [], count: count)
        for (from, targets) in edges.enumerated() {
            for target in targets { directDependents[target].append(from) }
        }
    }

    /// Resolves DT_NEEDED among `images` only, by SONAME or file name (no
    /// file system search).
    public init(images: [BinaryImage]) {
        let (graph, _) = LinkResolver(searchPaths: [], includeSystem: false).resolve(images) { .failure(.notInspectable(path: $0, reason: "outside the images given")) }
        self = graph
    }

    /// Whether the loader could load `library` into a process of `image`:
    /// same `e_machine`, `EI_CLASS` and `EI_DATA`.
    public static func compatible(_ library: BinaryImage, _ image: BinaryImage) -> Bool {
        library.machine.code == image.machine.code
            && library.elfClass == image.elfClass
            && library.dataEncoding == image.dataEncoding
    }

    /// The images that link `image` directly or not, each with the shortest
    /// chain of indices from it down to `image` (both ends included).
    /// Breadth-first over reversed edges; cycles are visited once.
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
