import Foundation

/// The link graph's geometry as the HTML report's SVG (Graphviz's) draws
/// it: each node's box (`<g … data-image>` with a `<polygon>`) and each
/// edge's path (`<g … data-from data-to>` with a `<path d="M… C…">`), in
/// the SVG's user units.
public struct GraphGeometry {
    public struct Box: Equatable {
        public var minX, minY, maxX, maxY: Double

        /// Whether `point` is inside the box shrunk by `inset` on every side.
        public func contains(_ point: (x: Double, y: Double), inset: Double) -> Bool {
            point.x > minX + inset && point.x < maxX - inset && point.y > minY + inset && point.y < maxY - inset
        }
    }

    public struct Edge {
        public var from: String
        public var to: String
        public var classes: [String]
        /// The cubic Bézier curve's points, from `M` on (1 + 3n points).
        public var controlPoints: [(x: Double, y: Double)]

        /// Points along the curve, `steps` per segment, both ends included.
        public func samples(steps: Int = 40) -> [(x: Double, y: Double)] {
            guard let first = controlPoints.first else { return [] }
            var points = [first]
            var index = 0
            while index + 3 < controlPoints.count {
                let (p0, p1, p2, p3) = (controlPoints[index], controlPoints[index + 1], controlPoints[index + 2], controlPoints[index + 3])
                for step in 1...steps {
                    let t = Double(step) / Double(steps)
                    let u = 1 - t
                    let a = u * u * u
                    let b = 3 * u * u * t
                    let c = 3 * u * t * t
                    let d = t * t * t
                    points.append((a * p0.x + b * p1.x + c * p2.x + d * p3.x, a * p0.y + b * p1.y + c * p2.y + d * p3.y))
                }
                index += 3
            }
            return points
        }
    }

    /// Each node's box, by image name.
    public var nodes: [String: Box]
    public var edges: [Edge]

    /// Reads the geometry from `html` (a page or its serialized DOM).
    ///
    /// - Throws: when a node has no polygon or an edge no path of the form
    ///   Graphviz writes.
    public init(html: String) throws {
        let unescape = { (text: String) in
            text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&lt;", with: "<")
                .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&#39;", with: "'")
                .replacingOccurrences(of: "&amp;", with: "&")
        }
        nodes = [:]
        for match in try Browser.captures(#"<g id="lcn\d+" data-image="([^"]*)" class="[^"]*">.*?<polygon [^>]*points="([^"]+)""#, in: html)
        {
            let numbers = match[1].split(whereSeparator: { $0 == " " || $0 == "," }).compactMap { Double($0) }
            guard numbers.count >= 8, numbers.count % 2 == 0 else { throw GeometryError(text: match[1]) }
            let xs = stride(from: 0, to: numbers.count, by: 2).map { numbers[$0] }
            let ys = stride(from: 1, to: numbers.count, by: 2).map { numbers[$0] }
            nodes[unescape(match[0])] = Box(minX: xs.min()!, minY: ys.min()!, maxX: xs.max()!, maxY: ys.max()!)
        }
        edges = try Browser.captures(
            #"<g id="lce\d+" data-from="([^"]*)" data-to="([^"]*)" class="([^"]*)">.*?<path [^>]*d="([^"]+)""#, in: html
        ).map { match in
            let d = match[3]
            guard d.hasPrefix("M"), d.contains("C") else { throw GeometryError(text: d) }
            let numbers = d.split(whereSeparator: { " ,MC".contains($0) }).compactMap { Double($0) }
            let points = stride(from: 0, to: numbers.count - 1, by: 2).map { (x: numbers[$0], y: numbers[$0 + 1]) }
            guard numbers.count % 2 == 0, points.count >= 4, (points.count - 1) % 3 == 0 else {
                throw GeometryError(text: d)
            }
            return Edge(
                from: unescape(match[0]), to: unescape(match[1]), classes: match[2].split(separator: " ").map(String.init),
                controlPoints: points)
        }
    }

    /// The edges whose curve enters the box of a node other than their
    /// two ends (by more than `inset` units), with that node.
    public func edgesThroughOtherNodes(inset: Double = 1) -> [(edge: Edge, node: String)] {
        edges.flatMap { edge in
            let samples = edge.samples()
            return nodes.filter { $0.key != edge.from && $0.key != edge.to }
                .filter { _, box in samples.contains { box.contains($0, inset: inset) } }
                .map { (edge, $0.key) }
        }
    }

    /// Pairs of edges that leave the same node from points nearer than
    /// `distance`, or enter the same node at points nearer than it.
    public func sharedPorts(closerThan distance: Double) -> [(Edge, Edge)] {
        var pairs: [(Edge, Edge)] = []
        for (index, a) in edges.enumerated() {
            for b in edges[(index + 1)...] {
                let near = { (p: (x: Double, y: Double), q: (x: Double, y: Double)) in hypot(p.x - q.x, p.y - q.y) < distance }
                if a.from == b.from && near(a.controlPoints.first!, b.controlPoints.first!)
                    || a.to == b.to && near(a.controlPoints.last!, b.controlPoints.last!)
                {
                    pairs.append((a, b))
                }
            }
        }
        return pairs
    }
}

/// An SVG shape that is not of the form Graphviz writes.
public struct GeometryError: Error, CustomStringConvertible {
    public var text: String
    public var description: String { "unexpected SVG geometry: \(text)" }
}
