import LinkCheckAnalysis

/// The link graph of a report, worked out once and read by every output
/// that shows it: the JSON document's `graph` member (``GraphJSON``), the
/// DOT text and the HTML report's drawing (``LinkGraphDescription``). A
/// node per reported image; an edge per link (DT_NEEDED or dylib load
/// command) and per library that code loads (`dlopen`) between reported
/// images, each image's links first, then its loads; and the edges that lie
/// on an unsafe path.
struct ReportGraph {
    /// How a link is made.
    enum Kind: String {
        /// DT_NEEDED or a dylib load command.
        case needed
        /// Code loads the library at run time.
        case dlopen
    }

    struct Edge: Equatable {
        /// Indices into ``images``.
        var from, to: Int
        var kind: Kind
        /// On the way from an image with an error finding to the image that
        /// uses the API, or from there to the image that provides it.
        var unsafe: Bool
    }

    /// Two images (indices into ``images``) that an edge joins, from the
    /// linking or loading image to the one it links or loads.
    struct Pair: Hashable {
        var from, to: Int
    }

    /// The nodes, in report order.
    var images: [ImageReport]
    var edges: [Edge]
    /// Whether the images' verdicts are answers: not in a run of the bundle
    /// checks alone (`--only bundle`), which matched no API.
    var hasVerdicts: Bool

    init(_ report: Report) {
        images = report.images
        hasVerdicts = report.scope == .all
        let index = Dictionary(report.images.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        var edges: [Edge] = []
        for (from, image) in report.images.enumerated() {
            edges += image.links.compactMap { index[$0] }.map { Edge(from: from, to: $0, kind: .needed, unsafe: false) }
            edges += image.loads.compactMap { $0.image.flatMap { index[$0] } }.map {
                Edge(from: from, to: $0, kind: .dlopen, unsafe: false)
            }
        }
        // An error finding marks its chain (the extension down to the image
        // that uses the API), the link from that image to the one that
        // provides the API, and for an unsafe load, the dlopen edge.
        var unsafePairs = Set<Pair>()
        for finding in report.findings
        where finding.severity == .error
            && (finding.category.makesUnsafe || finding.kind == .loadedLibrary)
        {
            let chain = finding.chainImages.compactMap { index[$0] }
            for (from, to) in zip(chain, chain.dropFirst()) { unsafePairs.insert(Pair(from: from, to: to)) }
            guard let user = index[finding.chainImages.last ?? finding.image] else { continue }
            for provider in report.images[user].links.compactMap({ index[$0] })
            where report.images[provider].provides.contains(finding.rule) {
                unsafePairs.insert(Pair(from: user, to: provider))
            }
            if finding.kind == .loadedLibrary {
                for load in report.images[user].loads where load.name == finding.symbol {
                    if let target = load.image.flatMap({ index[$0] }) { unsafePairs.insert(Pair(from: user, to: target)) }
                }
            }
        }
        self.edges = edges.map { edge in
            var edge = edge
            edge.unsafe = unsafePairs.contains(Pair(from: edge.from, to: edge.to))
            return edge
        }
    }
}
