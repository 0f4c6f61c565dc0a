import LinkCheckAnalysis
import LinkCheckImage

/// The link graph in Graphviz's DOT language (``LinkGraphDescription``): a
/// node per image, filled by verdict (green extension-safe, red unsafe,
/// amber app-only, grey incomplete), a wider border for extensions and the
/// app; solid DT_NEEDED edges, dashed dlopen edges, and the edges on an
/// unsafe path red. A fat file is one node (``FileGrouping/collapsed(_:)``).
public struct DotRenderer: ReportRenderer {
    public init() {}

    public func render(_ report: Report) -> String {
        LinkGraphDescription(ReportGraph(FileGrouping(report).collapsed(report))).dot(.output)
    }
}
