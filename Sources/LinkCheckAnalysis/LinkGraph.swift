import LinkCheckInspection

/// The DT_NEEDED edges between the scanned images.
///
/// A needed name resolves to a scanned image whose SONAME, or else file
/// name, equals it. Like the dynamic loader, an image of the same machine,
/// class and data encoding is preferred; when only images of another kind
/// carry the name, the edge is a ``Mismatch``. Names that resolve to no
/// scanned image (system libraries) have no edge.
public struct LinkGraph: Sendable {
    /// `edges[i]`: indices of the images image `i` links, in DT_NEEDED order.
    public private(set) var edges: [[Int]]
    /// DT_NEEDED names that resolved only to images of another kind.
    public private(set) var mismatches: [Mismatch]
    /// `dependents[i]`: indices of the images that link image `i` directly.
    private var directDependents: [[Int]]

    /// A DT_NEEDED entry whose only candidates are of another machine, class
    /// or data encoding.
    public struct Mismatch: Sendable, Equatable {
        public var image: Int
        public var needed: String
        public var candidate: Int
    }

    public init(images: [BinaryImage]) {
        var byName: [String: [Int]] = [:]
        for (index, image) in images.enumerated() {
            byName[image.linkName, default: []].append(index)
            if image.dynamic.soname != nil && image.dynamic.soname != image.fileName {
                byName[image.fileName, default: []].append(index)
            }
        }
        edges = Array(repeating: [], count: images.count)
        mismatches = []
        for (index, image) in images.enumerated() {
            for needed in image.dynamic.needed {
                let candidates = (byName[needed] ?? []).filter { $0 != index }
                guard let first = candidates.first else { continue }
                if let same = candidates.first(where: { Self.compatible(images[$0], image) }) {
                    if !edges[index].contains(same) { edges[index].append(same) }
                } else {
                    mismatches.append(Mismatch(image: index, needed: needed, candidate: first))
                }
            }
        }
        directDependents = Array(repeating: [], count: images.count)
        for (from, targets) in edges.enumerated() {
            for target in targets { directDependents[target].append(from) }
        }
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
}

extension LinkGraph {
    /// The images reachable from `image` over DT_NEEDED edges, itself
    /// included.
    public func reachable(from image: Int) -> Set<Int> {
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
