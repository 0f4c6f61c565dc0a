import LinkCheckAnalysis
import LinkCheckImage

/// The link graph in Graphviz's DOT language (``LinkGraphDescription``): a
/// node per image, filled by verdict (green extension-safe, red unsafe,
/// amber app-only, grey incomplete), a wider border for extensions and the
/// app; solid DT_NEEDED edges, dashed dlopen edges, and the edges on an
/// unsafe path red. A fat file is one node (``FileGrouping/collapsed(_:)``).
public enum DotRenderer {
    public static func render(_ report: Report) -> String {
        LinkGraphDescription(FileGrouping(report).collapsed(report)).dot(.output)
    }
}
