import LinkCheckAnalysis

/// The link graph in Graphviz's DOT language: a node per image, filled by
/// verdict (green extension-safe, red unsafe, amber app-only, grey
/// incomplete), boxes for
/// extensions and the app; solid DT_NEEDED edges, dashed dlopen edges.
public enum DotRenderer {
    public static func render(_ report: Report) -> String {
        var lines = ["digraph linkcheck {", "  rankdir=TB;", "  node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\"];"]
        let reported = Set(report.images.map(\.name))
        for image in report.images {
            let color = switch image.verdict {
            case .extensionSafe: "#c8ecd0"
            case .unsafe: "#f7c6c6"
            case .appOnly: "#f8e2b0"
            case .incomplete: "#dddddd"
            }
            let shape = image.role == .framework ? "" : ", penwidth=2"
            let label = "\(image.displayName)\\n\(image.role.rawValue) · \(image.verdict.rawValue)"
            lines.append("  \(quoted(image.name)) [label=\(quoted(label, escapeBackslash: false)), fillcolor=\"\(color)\"\(shape)];")
        }
        for image in report.images {
            for link in image.links {
                lines.append("  \(quoted(image.name)) -> \(quoted(link));")
            }
            for load in image.loads {
                guard let target = load.image, reported.contains(target) else { continue }
                lines.append("  \(quoted(image.name)) -> \(quoted(target)) [style=dashed, label=\"dlopen\"];")
            }
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// A DOT string literal.
    static func quoted(_ text: String, escapeBackslash: Bool = true) -> String {
        var escaped = escapeBackslash ? text.replacingOccurrences(of: "\\", with: "\\\\") : text
        escaped = escaped.replacingOccurrences(of: "\"", with: "\\\"").replacingOccurrences(of: "\n", with: "\\n")
        return "\"\(escaped)\""
    }
}
