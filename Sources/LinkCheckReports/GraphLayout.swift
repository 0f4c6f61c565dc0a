/// A layered drawing of the link graph for the HTML report: extensions and
/// apps on the top layer, the frameworks they link below, each layer wrapped
/// into rows of at most ``maximumPerRow`` boxes so that 30 images stay
/// legible without scaling down.
public struct GraphLayout: Sendable, Equatable {
    /// One image's box. Coordinates and sizes are SVG user units (pixels).
    public struct Node: Sendable, Equatable {
        public var index: Int
        public var x: Int
        public var y: Int
        public var layer: Int
    }

    public static let nodeWidth = 190
    public static let nodeHeight = 46
    public static let horizontalGap = 20
    public static let verticalGap = 54
    public static let margin = 16
    public static let maximumPerRow = 6

    /// Boxes, indexed like the input nodes.
    public var nodes: [Node]
    /// The drawing's size.
    public var width: Int
    public var height: Int

    /// Lays out `count` nodes with directed `edges` (from → to, "from
    /// links to"); `topLayer` holds the nodes that must be on the first
    /// layer (extensions and apps). Other nodes sit one layer below the
    /// deepest node that links them (longest path; a cycle is cut after
    /// `count` rounds).
    public init(count: Int, edges: [(from: Int, to: Int)], topLayer: Set<Int>) {
        var layer = Array(repeating: 0, count: count)
        for _ in 0..<max(count, 1) {
            var changed = false
            for edge in edges where edge.from != edge.to && !topLayer.contains(edge.to) {
                if layer[edge.to] < layer[edge.from] + 1 && layer[edge.from] + 1 < count {
                    layer[edge.to] = layer[edge.from] + 1
                    changed = true
                }
            }
            if !changed { break }
        }
        // Order each layer by the mean position of the nodes that link it
        // (one barycentre pass), then by index for determinism.
        let layers = Dictionary(grouping: 0..<count, by: { layer[$0] })
        var position = Array(repeating: 0.0, count: count)
        var nodes = Array(repeating: Node(index: 0, x: 0, y: 0, layer: 0), count: count)
        var y = Self.margin
        var widest = 0
        for number in layers.keys.sorted() {
            let members = layers[number]!.sorted { lhs, rhs in
                let (left, right) = (Self.barycentre(lhs, edges, position), Self.barycentre(rhs, edges, position))
                return left == right ? lhs < rhs : left < right
            }
            for (offset, member) in members.enumerated() {
                let column = offset % Self.maximumPerRow
                let row = offset / Self.maximumPerRow
                nodes[member] = Node(
                    index: member, x: Self.margin + column * (Self.nodeWidth + Self.horizontalGap),
                    y: y + row * (Self.nodeHeight + Self.verticalGap), layer: number)
                position[member] = Double(column)
                widest = max(widest, column + 1)
            }
            let rows = (members.count + Self.maximumPerRow - 1) / Self.maximumPerRow
            y += rows * (Self.nodeHeight + Self.verticalGap)
        }
        self.nodes = nodes
        width = 2 * Self.margin + max(widest, 1) * (Self.nodeWidth + Self.horizontalGap) - Self.horizontalGap
        height = max(y - Self.verticalGap + Self.margin, 2 * Self.margin + Self.nodeHeight)
    }

    private static func barycentre(_ node: Int, _ edges: [(from: Int, to: Int)], _ position: [Double]) -> Double {
        let parents = edges.filter { $0.to == node && $0.from != node }.map { position[$0.from] }
        return parents.isEmpty ? 0 : parents.reduce(0, +) / Double(parents.count)
    }
}
