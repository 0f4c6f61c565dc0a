import Foundation
import LinkCheckAnalysis
import LinkCheckReports
import LinkCheckTestSupport
import Testing

/// The formats each command offers (their help, their names in errors,
/// their default) and the one link graph every graph output reads.
@Suite struct OutputFormatTests {
    @Test func checkOffersTextJSONSARIFAndHTMLTextFirst() {
        #expect(CheckFormat.allCases.map(\.rawValue) == ["text", "json", "sarif", "html"])
        #expect(CheckFormat.fallback == .text)
        #expect(CheckFormat.help == "text (default), json, sarif (SARIF 2.1.0) or html.")
        #expect(CheckFormat.names == "text, json, sarif or html")
    }

    @Test func graphOffersDOTAndJSONDOTFirst() {
        #expect(GraphFormat.allCases.map(\.rawValue) == ["dot", "json"])
        #expect(GraphFormat.fallback == .dot)
        #expect(GraphFormat.help == "dot (Graphviz, default) or json.")
        #expect(GraphFormat.names == "dot or json")
    }

    @Test func inspectOffersTextAndJSONTextFirst() {
        #expect(InspectFormat.allCases.map(\.rawValue) == ["text", "json"])
        #expect(InspectFormat.fallback == .text)
        #expect(InspectFormat.help == "text (default) or json.")
        #expect(InspectFormat.names == "text or json")
    }

    /// Each format's renderer is the one its type names: the same output.
    @Test func eachFormatRendersWithItsRenderer() {
        let report = RendererTests.report
        #expect(CheckFormat.text.renderer(color: false, verbose: false).render(report) == TextRenderer().render(report))
        #expect(CheckFormat.text.renderer(color: true, verbose: false).render(report) == TextRenderer(color: true).render(report))
        #expect(CheckFormat.json.renderer(color: false, verbose: false).render(report) == CheckJSON().render(report))
        #expect(GraphFormat.dot.renderer.render(report) == DotRenderer().render(report))
        #expect(GraphFormat.json.renderer.render(report) == GraphJSON().render(report))
    }

    /// libA links libB and loads libC (dlopen), libC is unsafe: the JSON
    /// graph, the check document's `graph` member and the DOT text name
    /// the same two edges, in the same order.
    static let graphReport: Report = {
        func image(_ name: String, verdict: Verdict) -> ImageReport {
            ImageReport(
                image: TestImages.elf("lib/\(name)", soname: name, needs: []),
                role: AssignedRole(role: .framework, extensionType: nil), verdict: verdict, links: [], provides: [], external: false)
        }
        var a = image("libA.so", verdict: .unsafe)
        a.links = ["lib/libB.so"]
        a.loads = [LoadReport(name: "libC.so", image: "lib/libC.so", verdict: .unsafe, function: nil, address: nil, source: .call)]
        return Report(
            inputs: ["lib"], rulePacks: [], images: [a, image("libB.so", verdict: .extensionSafe), image("libC.so", verdict: .unsafe)],
            findings: [], errors: [], skipped: [], notices: [])
    }()

    @Test func everyGraphOutputNamesTheSameEdges() throws {
        let graph = try #require(try JSONSerialization.jsonObject(with: Data(GraphJSON().render(Self.graphReport).utf8)) as? [String: Any])
        let edges = try #require(graph["edges"] as? [[String: String]])
        #expect(
            edges == [
                ["from": "lib/libA.so", "to": "lib/libB.so", "kind": "needed"],
                ["from": "lib/libA.so", "to": "lib/libC.so", "kind": "dlopen"],
            ])
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(CheckJSON().render(Self.graphReport).utf8)) as? [String: Any])
        #expect((document["graph"] as? [String: Any])?["edges"] as? [[String: String]] == edges)
        let dot = DotRenderer().render(Self.graphReport)
        #expect(
            dot.contains("  \"lib/libA.so\" -> \"lib/libB.so\";\n  \"lib/libA.so\" -> \"lib/libC.so\" [style=dashed, label=\"dlopen\"];\n"),
            "\(dot)")
    }
}
