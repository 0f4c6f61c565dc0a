import LinkCheckAnalysis
import LinkCheckImage

/// The link graph in Graphviz's DOT language: a node per image, filled by
/// verdict (green extension-safe, red unsafe, amber app-only, grey
/// incomplete), boxes for extensions and the app; solid DT_NEEDED edges,
/// dashed dlopen edges. The images of one outermost bundle (an app with its
/// extensions and frameworks, an xcframework) are drawn in one cluster
/// labelled with it, each named by its bundle (`PhotosShare.appex`,
/// `SyncKit.framework`).
public enum DotRenderer {
    public static func render(_ report: Report) -> String {
        var lines = ["digraph linkcheck {", "  rankdir=TB;", "  node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\"];"]
        let reported = Set(report.images.map(\.name))
        var clusters: [String] = []
        var members: [String: [ImageReport]] = [:]
        for image in report.images {
            guard let outermost = image.bundle?.outermost.displayPath else {
                lines.append("  " + node(image))
                continue
            }
            if members[outermost] == nil { clusters.append(outermost) }
            members[outermost, default: []].append(image)
        }
        for (index, cluster) in clusters.enumerated() {
            lines.append("  subgraph \(quoted("cluster_\(index)")) {")
            lines.append("    label=\(quoted(cluster)); style=rounded; color=\"#888888\"; fontname=\"Helvetica\";")
            lines += members[cluster, default: []].map { "    " + node($0) }
            lines.append("  }")
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

    /// The node statement of `image`.
    static func node(_ image: ImageReport) -> String {
        let color = switch image.verdict {
        case .extensionSafe: "#c8ecd0"
        case .unsafe: "#f7c6c6"
        case .appOnly: "#f8e2b0"
        case .incomplete: "#dddddd"
        }
        let shape = image.role == .framework ? "" : ", penwidth=2"
        let label = "\(label(image))\\n\(image.role.rawValue) · \(image.verdict.rawValue)"
        return "\(quoted(image.name)) [label=\(quoted(label, escapeBackslash: false)), fillcolor=\"\(color)\"\(shape)];"
    }

    /// The image's bundle (`PhotosShare.appex`, `ImageKit.framework[arm64]`)
    /// when it is that bundle's executable or a framework's binary, else
    /// ``ImageReport/displayName``.
    static func label(_ image: ImageReport) -> String {
        guard let placement = image.bundle, placement.isExecutable || placement.innermost.kind == .framework else { return image.displayName }
        return ImageIdentity(path: placement.innermost.folderName, slice: image.identity.slice, member: image.identity.member).description
    }

    /// A DOT string literal.
    static func quoted(_ text: String, escapeBackslash: Bool = true) -> String {
        var escaped = escapeBackslash ? text.replacingOccurrences(of: "\\", with: "\\\\") : text
        escaped = escaped.replacingOccurrences(of: "\"", with: "\\\"").replacingOccurrences(of: "\n", with: "\\n")
        return "\"\(escaped)\""
    }
}
