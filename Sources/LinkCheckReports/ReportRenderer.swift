import LinkCheckAnalysis

/// A renderer of a ``Report``: the text output (``TextRenderer``), the JSON
/// document (``CheckJSON``), SARIF (``SARIFRenderer``), the reviewer's HTML
/// report (``HTMLRenderer``), the link graph in DOT (``DotRenderer``) or
/// JSON (``GraphJSON``). It reads the report and recomputes no analysis.
public protocol ReportRenderer {
    /// The whole output for `report`, ending with a newline.
    func render(_ report: Report) -> String
}
