import LinkCheckAnalysis

/// The link graph as the reports draw it, in Graphviz's DOT language: a node
/// per reported image, an edge per link (DT_NEEDED or dylib load command)
/// and per library that code loads (`dlopen`) between reported images, and
/// the edges that lie on an unsafe path. `linkcheck graph --format dot`
/// prints it; the HTML report lays it out with Graphviz (``Graphviz``).
struct LinkGraphDescription {
    /// How a link is made.
    enum Kind: String {
        /// DT_NEEDED or a dylib load command.
        case needed
        /// Code loads the library at run time.
        case dlopen
    }

    struct Edge: Equatable {
        /// Indices into ``images``.
        var from: Int
        var to: Int
        var kind: Kind
        /// On the way from an image with an error finding to the image that
        /// uses the API, or from there to the image that provides it.
        var unsafe: Bool
    }

    /// Who reads the DOT text.
    enum Flavor {
        /// `linkcheck graph --format dot`: nodes named by image name, for
        /// people and their own Graphviz.
        case output
        /// The HTML report: nodes and edges named `lcnN` and `lceN` (their
        /// `id` in Graphviz's SVG) and given classes, so that the page can
        /// find them in the SVG without reading the labels.
        case page
    }

    /// The nodes, in report order.
    var images: [ImageReport]
    /// What the nodes are labelled.
    var labels: ImageLabels
    var edges: [Edge]

    init(_ report: Report) {
        images = report.images
        labels = ImageLabels(report.images)
        let index = Dictionary(report.images.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        var edges: [Edge] = []
        for (from, image) in report.images.enumerated() {
            edges += image.links.compactMap { index[$0] }.map { Edge(from: from, to: $0, kind: .needed, unsafe: false) }
            edges += image.loads.compactMap { $0.image.flatMap { index[$0] } }.map { Edge(from: from, to: $0, kind: .dlopen, unsafe: false) }
        }
        // An error finding marks its chain (the extension down to the image
        // that uses the API), the link from that image to the one that
        // provides the API, and for an unsafe load, the dlopen edge.
        var unsafePairs = Set<[Int]>()
        for finding in report.findings where finding.severity == .error
            && (finding.category.makesUnsafe || finding.kind == .loadedLibrary) {
            let chain = finding.chainImages.compactMap { index[$0] }
            for (from, to) in zip(chain, chain.dropFirst()) { unsafePairs.insert([from, to]) }
            guard let user = index[finding.chainImages.last ?? finding.image] else { continue }
            for provider in report.images[user].links.compactMap({ index[$0] })
            where report.images[provider].provides.contains(finding.rule) {
                unsafePairs.insert([user, provider])
            }
            if finding.kind == .loadedLibrary {
                for load in report.images[user].loads where load.name == finding.symbol {
                    if let target = load.image.flatMap({ index[$0] }) { unsafePairs.insert([user, target]) }
                }
            }
        }
        self.edges = edges.map { edge in
            var edge = edge
            edge.unsafe = unsafePairs.contains([edge.from, edge.to])
            return edge
        }
    }

    /// The node's DOT name.
    func nodeName(_ index: Int, _ flavor: Flavor) -> String {
        switch flavor {
        case .output: Self.quoted(images[index].name)
        case .page: "lcn\(index)"
        }
    }

    /// The graph in the DOT language: boxes filled by verdict (green
    /// extension-safe, red unsafe, amber app-only, grey incomplete), a wider
    /// border for extensions and apps, the images of one bundle in one
    /// cluster, solid links and dashed loads, unsafe edges red and wider.
    func dot(_ flavor: Flavor) -> String {
        var lines = ["digraph linkcheck {", "  rankdir=TB;"]
        switch flavor {
        case .output:
            lines.append("  node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\"];")
        case .page:
            lines += [
                "  graph [bgcolor=\"transparent\", nodesep=0.3, ranksep=0.45, pad=0.05];",
                "  node [shape=box, style=filled, fontname=\"Helvetica\", fontsize=12, height=0.42, margin=\"0.14,0.05\"];",
                "  edge [arrowsize=0.7, fontname=\"Helvetica\", fontsize=10];",
            ]
        }
        // The images of one outermost bundle (an app with its extensions
        // and frameworks, an xcframework) are drawn in one cluster labelled
        // with it; the others stand alone.
        var clusters: [String] = []
        var members: [String: [Int]] = [:]
        var loose: [Int] = []
        for (index, image) in images.enumerated() {
            guard let bundle = image.bundle?.outermost.displayPath else {
                loose.append(index)
                continue
            }
            if members[bundle] == nil { clusters.append(bundle) }
            members[bundle, default: []].append(index)
        }
        for (number, bundle) in clusters.enumerated() {
            lines.append("  subgraph cluster_\(number) {")
            lines.append("    label=\"\(Self.labelText(bundle))\"; style=\"rounded,dashed\"; color=\"#888888\"; fontname=\"Helvetica\";")
            lines += members[bundle, default: []].map { "  " + node($0, flavor) }
            lines.append("  }")
        }
        lines += loose.map { node($0, flavor) }
        for (number, edge) in edges.enumerated() {
            var attributes: [String] = []
            if edge.kind == .dlopen { attributes += ["style=dashed", "label=\"dlopen\""] }
            if edge.unsafe { attributes += ["color=\"#c9252d\"", "penwidth=2"] }
            if flavor == .page {
                attributes += ["id=\"lce\(number)\"", "class=\"\(edge.kind.rawValue)\(edge.unsafe ? " unsafe" : "")\""]
            }
            let list = attributes.isEmpty ? "" : " [\(attributes.joined(separator: ", "))]"
            lines.append("  \(nodeName(edge.from, flavor)) -> \(nodeName(edge.to, flavor))\(list);")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The node statement of image `index`: filled by verdict, a wider
    /// border for extensions and apps.
    func node(_ index: Int, _ flavor: Flavor) -> String {
        let image = images[index]
        let color = switch image.verdict {
        case .extensionSafe: "#c8ecd0"
        case .unsafe: "#f7c6c6"
        case .appOnly: "#f8e2b0"
        case .incomplete: "#dddddd"
        case .needsReview: "#e2d5f7"
        case .notLoaded: "#f4f4f4"
        }
        let role = image.extensionType.map { "\(image.role.rawValue) (\($0))" } ?? image.role.rawValue
        let label = [labels[image.name], "\(role) · \(image.verdict.rawValue)"].map(Self.labelText).joined(separator: "\\n")
        var attributes = ["label=\"\(label)\"", "fillcolor=\"\(color)\""]
        if image.role != .framework { attributes.append("penwidth=2") }
        if flavor == .page {
            attributes += ["id=\"lcn\(index)\"", "class=\"\(image.verdict.rawValue) \(image.role.rawValue)\""]
        }
        return "  \(nodeName(index, flavor)) [\(attributes.joined(separator: ", "))];"
    }

    /// A DOT string literal for a name.
    static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n") + "\""
    }

    /// One line of a label, for inside a DOT string: Graphviz reads escapes
    /// in labels (`\N` the node's name, `\n` a line break) and HTML entities
    /// (`&amp;`, `&#65;`), so a backslash, a quote and an ampersand are
    /// escaped to stand for themselves, and control characters (which no
    /// SVG text may hold) become U+FFFD.
    static func labelText(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "&": result += "&amp;"
            case "\u{0}"..."\u{1F}", "\u{7F}": result += "\u{FFFD}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
