import Foundation
import LinkCheckAnalysis
import LinkCheckInspection
import LinkCheckReports
import LinkCheckRules
import LinkCheckTestSupport
import Testing

@Suite struct HTMLRendererTests {
    static func image(_ path: String, role: Role = .framework, verdict: Verdict = .extensionSafe, links: [String] = []) -> ImageReport {
        ImageReport(
            image: TestImages.elf(path), role: AssignedRole(role: role, extensionType: nil), verdict: verdict, links: links,
            provides: [], external: false)
    }

    @Test func everyStringIsEscaped() {
        let hostile = "<script>alert('x')</script> & \"quoted\""
        let report = Report(
            inputs: [hostile], rulePacks: [RulePackSummary(name: hostile, version: hostile, path: hostile)],
            images: [Self.image("/t/\(hostile)")],
            findings: [Finding(rule: "TST001", severity: .error, category: .unavailableAPI, kind: .importedSymbol,
                               image: "/t/\(hostile)", symbol: hostile, demangled: hostile, chain: [hostile, hostile],
                               message: hostile, fixit: hostile, source: hostile)],
            errors: [.malformed(path: hostile, structure: hostile, reason: hostile)], skipped: [], notices: [hostile])
        let html = HTMLRenderer().render(report)
        #expect(!html.contains("<script>alert"))
        #expect(!html.contains("\"quoted\""))
        #expect(html.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;quoted&quot;"))
        #expect(html.components(separatedBy: "<script>").count == 2, "only the report's own script")
    }

    @Test func graphHasANodePerImageAndAnEdgePerLink() {
        let report = Report(
            inputs: [], rulePacks: [],
            images: [
                Self.image("/t/libExt.so", role: .extension, verdict: .unsafe, links: ["/t/libKit.so", "/t/libUI.so"]),
                Self.image("/t/libKit.so", verdict: .unsafe, links: ["/t/libUI.so"]),
                Self.image("/t/libUI.so"),
            ],
            findings: [], errors: [], skipped: [], notices: [])
        let html = HTMLRenderer().render(report)
        #expect(html.components(separatedBy: "<g class=\"node ").count - 1 == 3)
        #expect(html.components(separatedBy: "<path class=\"edge needed\"").count - 1 == 3)
        #expect(html.contains("<g class=\"node unsafe\" data-image=\"/t/libExt.so\">"))
        #expect(html.contains("<span class=\"verdict unsafe\">unsafe</span>"))
    }

    @Test func thirtyImagesStayLegible() {
        // An app and 3 extensions linking 26 frameworks, some in chains.
        var edges: [(from: Int, to: Int)] = []
        for top in 0..<4 { for framework in 4..<30 where framework % 4 == top { edges.append((top, framework)) } }
        for framework in 4..<26 { edges.append((framework, framework + 4)) }
        let layout = GraphLayout(count: 30, edges: edges, topLayer: [0, 1, 2, 3])
        #expect(layout.width <= 1300, "fits a laptop screen without scaling down")
        #expect(layout.nodes[0...3].allSatisfy { $0.layer == 0 }, "extensions and app on top")
        for edge in edges { #expect(layout.nodes[edge.to].y > layout.nodes[edge.from].y, "links point down") }
        for (index, a) in layout.nodes.enumerated() {
            for b in layout.nodes[(index + 1)...] {
                let apart = abs(a.x - b.x) >= GraphLayout.nodeWidth || abs(a.y - b.y) >= GraphLayout.nodeHeight
                #expect(apart, "boxes \(a.index) and \(b.index) overlap")
            }
        }
    }

    @Test func aCycleStillLaysOut() {
        let layout = GraphLayout(count: 3, edges: [(0, 1), (1, 2), (2, 1)], topLayer: [0])
        #expect(layout.nodes.count == 3)
        #expect(layout.nodes[0].layer == 0)
        #expect(layout.height > 0)
    }
}
