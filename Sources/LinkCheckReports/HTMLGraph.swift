import LinkCheckAnalysis

/// The HTML report's link graph: ``LinkGraphDescription`` laid out and
/// drawn by Graphviz (``Graphviz``), embedded as inline SVG.
///
/// Graphviz's SVG is changed only where the DOT description put our own
/// names: the root element is made anew (no XML prologue or DOCTYPE, user
/// units as pixels), and each node's `<g id="lcnN">` gets `data-image`,
/// each edge's `<g id="lceN">` `data-from` and `data-to`, and their
/// `<title>`s the images' names. Labels are Graphviz's text, escaped by it
/// (``LinkGraphDescription/labelText(_:)`` makes sure it reads them
/// literally).
struct HTMLGraph {
    let description: LinkGraphDescription

    /// The SVG element, or why it could not be drawn.
    func svg() -> Result<String, Graphviz.Failure> {
        Result { () throws(Graphviz.Failure) in try embed(Graphviz.svg(dot: description.dot(.page))) }
    }

    /// Graphviz's SVG document `document` as an element for the page.
    func embed(_ document: String) throws(Graphviz.Failure) -> String {
        guard let start = document.range(of: "<svg"), let rootEnd = document[start.upperBound...].firstIndex(of: ">"),
            let end = document.range(of: "</svg>", options: .backwards)
        else { throw embedding("no <svg> element in Graphviz's output") }
        let root = document[start.lowerBound..<rootEnd]
        guard let box = Self.attribute("viewBox", in: root) else { throw embedding("the <svg> element has no viewBox") }
        let numbers = box.split(separator: " ").compactMap { Double($0) }
        guard numbers.count == 4 else { throw embedding("unexpected viewBox \"\(box)\"") }
        let (width, height) = (Int(numbers[2].rounded(.up)), Int(numbers[3].rounded(.up)))
        var body = String(document[document.index(after: rootEnd)..<end.lowerBound])
        body = body.replacingOccurrences(of: "<title>linkcheck</title>\n", with: "")
        let images = description.images
        for (index, image) in images.enumerated() {
            try replaceOnce(
                &body, "<g id=\"lcn\(index)\" class=\"", with: "<g id=\"lcn\(index)\" data-image=\"\(escapeHTML(image.name))\" class=\"")
            try replaceOnce(&body, "<title>lcn\(index)</title>", with: "<title>\(escapeHTML(image.name))</title>")
        }
        for (number, edge) in description.graph.edges.enumerated() {
            let (from, to) = (images[edge.from].name, images[edge.to].name)
            try replaceOnce(
                &body, "<g id=\"lce\(number)\" class=\"",
                with: "<g id=\"lce\(number)\" data-from=\"\(escapeHTML(from))\" data-to=\"\(escapeHTML(to))\" class=\"")
            let verb = edge.kind == .needed ? "links" : "loads"
            body = body.replacingOccurrences(
                of: "<title>lcn\(edge.from)&#45;&gt;lcn\(edge.to)</title>",
                with: "<title>\(escapeHTML(description.labels[from])) \(verb) \(escapeHTML(description.labels[to]))</title>")
        }
        return """
            <svg xmlns="http://www.w3.org/2000/svg" class="graph" width="\(width)" height="\(height)" viewBox="\(escapeHTML(String(box)))" role="img" aria-label="Link graph of \(images.count) images">\
            \(body)</svg>
            """
    }

    /// The value of `name="…"` in the start tag `tag`.
    static func attribute(_ name: String, in tag: Substring) -> Substring? {
        guard let start = tag.range(of: " \(name)=\"") else { return nil }
        let rest = tag[start.upperBound...]
        return rest.firstIndex(of: "\"").map { rest[..<$0] }
    }

    /// Replaces the one occurrence of `target` in `text`.
    ///
    /// - Throws: when it occurs not exactly once (Graphviz wrote something
    ///   else than the DOT text asked for).
    func replaceOnce(_ text: inout String, _ target: String, with replacement: String) throws(Graphviz.Failure) {
        guard let range = text.range(of: target), text.range(of: target, range: range.upperBound..<text.endIndex) == nil else {
            throw embedding("\(target) is not in Graphviz's SVG exactly once")
        }
        text.replaceSubrange(range, with: replacement)
    }

    /// A failure to embed Graphviz's SVG in the page.
    func embedding(_ message: String) -> Graphviz.Failure {
        Graphviz.Failure(step: "embed", message: message)
    }
}
