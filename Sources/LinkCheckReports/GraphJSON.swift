import LinkCheckAnalysis

/// `linkcheck graph --format json`: the link graph alone, as the JSON
/// document of `check` gives it in its `graph` member (``ReportGraph``,
/// one node per image, slices apart).
public struct GraphJSON: ReportRenderer {
    public init() {}

    public func render(_ report: Report) -> String {
        encode(Document(ReportGraph(report)))
    }

    /// The link graph: a node per image, an edge per resolved DT_NEEDED or
    /// dylib load command (`needed`) and per library loaded at run time
    /// (`dlopen`).
    struct Document: Encodable {
        struct Node: Encodable {
            var id, verdict, role: String
            /// The outermost bundle the image is in.
            var bundle: String?
        }

        struct Edge: Encodable {
            var from, to, kind: String
        }

        var nodes: [Node]
        var edges: [Edge]

        init(_ graph: ReportGraph) {
            nodes = graph.images.map {
                Node(id: $0.name, verdict: $0.verdict.rawValue, role: $0.role.rawValue, bundle: $0.bundle?.outermost.displayPath)
            }
            edges = graph.edges.map { Edge(from: graph.images[$0.from].name, to: graph.images[$0.to].name, kind: $0.kind.rawValue) }
        }
    }
}
