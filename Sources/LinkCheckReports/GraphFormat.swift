/// The formats `linkcheck graph` prints the link graph in.
public enum GraphFormat: String, OutputFormat {
    /// Graphviz's DOT language (``DotRenderer``).
    case dot
    /// The JSON document's `graph` member alone (``GraphJSON``).
    case json

    public var standard: String? { self == .dot ? "Graphviz" : nil }

    /// The renderer of the format.
    public var renderer: any ReportRenderer {
        switch self {
        case .dot: DotRenderer()
        case .json: GraphJSON()
        }
    }
}
