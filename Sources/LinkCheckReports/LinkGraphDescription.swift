import LinkCheckAnalysis

/// The link graph (``ReportGraph``) in Graphviz's DOT language, as the
/// reports draw it: `linkcheck graph --format dot` prints it; the HTML
/// report lays it out with Graphviz (``Graphviz``).
struct LinkGraphDescription {
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

    let graph: ReportGraph
    /// What the nodes are labelled.
    let labels: ImageLabels

    init(_ graph: ReportGraph) {
        self.graph = graph
        labels = ImageLabels(graph.images)
    }

    /// The nodes, in report order.
    var images: [ImageReport] { graph.images }

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
        for (number, edge) in graph.edges.enumerated() {
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
        let color =
            switch graph.hasVerdicts ? image.verdict : .notLoaded {
            case .extensionSafe: "#c8ecd0"
            case .unsafe: "#f7c6c6"
            case .appOnly: "#f8e2b0"
            case .incomplete: "#dddddd"
            case .needsReview: "#e2d5f7"
            case .notLoaded: "#f4f4f4"
            }
        let role = image.extensionType.map { "\(image.role.rawValue) (\($0))" } ?? image.role.rawValue
        // Without verdicts (`--only bundle`), a node says its role alone.
        let kind = graph.hasVerdicts ? "\(role) · \(image.verdict.rawValue)" : role
        let label = [labels[image.name], kind].map(Self.labelText).joined(separator: "\\n")
        var attributes = ["label=\"\(label)\"", "fillcolor=\"\(color)\""]
        if image.role != .framework { attributes.append("penwidth=2") }
        if flavor == .page {
            let verdict = graph.hasVerdicts ? image.verdict.rawValue + " " : ""
            attributes += ["id=\"lcn\(index)\"", "class=\"\(verdict)\(image.role.rawValue)\""]
        }
        return "  \(nodeName(index, flavor)) [\(attributes.joined(separator: ", "))];"
    }

    /// A DOT string literal for a name.
    static func quoted(_ text: String) -> String {
        "\""
            + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
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
