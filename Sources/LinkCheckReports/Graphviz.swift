import CGraphviz
import Foundation

/// Graphviz through its libraries (libcgraph, libgvc): a graph in the DOT
/// language laid out by the `dot` engine (layered, with crossings
/// minimised and splines routed around the boxes) and rendered as SVG.
///
/// Graphviz keeps global state and is not thread-safe, so every use goes
/// through one lock, and one `GVC_t` context (with its plugins) serves the
/// whole process.
enum Graphviz {
    /// Why a graph could not be drawn.
    struct Failure: Error, Equatable, CustomStringConvertible {
        /// The step that failed: `start`, `read`, `lay out`, `render` or
        /// `embed` (in the HTML page).
        var step: String
        /// Graphviz's own message, when it gave one.
        var message: String

        var description: String {
            "Graphviz could not \(step) the graph" + (message.isEmpty ? "" : ": \(message)")
        }
    }

    private static let lock = NSLock()
    /// The process's Graphviz context (`gvContext`), made on first use; only
    /// read or written under ``lock``.
    nonisolated(unsafe) private static var context: OpaquePointer?

    /// The SVG document Graphviz writes for `dot` (`agmemread`, `gvLayout`
    /// with the `dot` engine, `gvRenderData` with the `svg` format):
    /// coordinates in points, which the SVG uses as its user units.
    ///
    /// - Throws: ``Failure`` when the text is not DOT, the layout fails or
    ///   the SVG renderer is missing (Graphviz's plugins not configured).
    static func svg(dot: String) throws(Failure) -> String {
        lock.lock()
        defer { lock.unlock() }
        // Errors go to Graphviz's own buffer (read with aglasterr), not to
        // standard error.
        agseterr(AGMAX)
        if context == nil { context = gvContext() }
        guard let context else { throw Failure(step: "start", message: "gvContext failed") }
        guard let graph = agmemread(dot) else { throw Failure(step: "read", message: lastError()) }
        defer { agclose(graph) }
        guard gvLayout(context, graph, "dot") == 0 else { throw Failure(step: "lay out", message: lastError()) }
        defer { gvFreeLayout(context, graph) }
        var data: UnsafeMutablePointer<CChar>?
        var length: UInt32 = 0
        guard gvRenderData(context, graph, "svg", &data, &length) == 0, let data else {
            throw Failure(step: "render", message: lastError())
        }
        defer { gvFreeRenderData(data) }
        let bytes = UnsafeRawBufferPointer(start: data, count: Int(length))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Graphviz's last error message (`aglasterr`), trimmed.
    private static func lastError() -> String {
        guard let message = aglasterr() else { return "" }
        defer { free(message) }
        return String(cString: message).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
