/// The formats `linkcheck check` prints its report in.
public enum CheckFormat: String, OutputFormat {
    /// Compiler-style diagnostics (``TextRenderer``).
    case text
    /// The versioned JSON document (``CheckJSON``).
    case json
    /// SARIF 2.1.0 for code-scanning services (``SARIFRenderer``).
    case sarif
    /// The reviewer's report (``HTMLRenderer``).
    case html

    public var standard: String? { self == .sarif ? "SARIF 2.1.0" : nil }

    /// The renderer of the format; `color` and `verbose` are the text
    /// output's (``TextRenderer``), `sourceRoot` the text's, SARIF's and
    /// HTML's.
    public func renderer(color: Bool, verbose: Bool, sourceRoot: SourceRoot? = nil) -> any ReportRenderer {
        switch self {
        case .text: TextRenderer(color: color, verbose: verbose, sourceRoot: sourceRoot)
        case .json: CheckJSON()
        case .sarif: SARIFRenderer(sourceRoot: sourceRoot)
        case .html: HTMLRenderer(sourceRoot: sourceRoot)
        }
    }
}
