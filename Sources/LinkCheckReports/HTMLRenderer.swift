import Foundation
import LinkCheckAnalysis
import LinkCheckRules

/// Renders a ``Report`` as the reviewer's report: one self-contained HTML
/// file (inline CSS and JS, a Content-Security-Policy that forbids every
/// network request), readable without JS; JS only adds filtering and
/// sorting. Every string from a binary or a configuration is escaped.
///
/// Sections: the run, a verdict table, the link graph (inline SVG laid out by
/// ``GraphLayout``), API findings grouped by image (most severe first), then
/// architecture findings, conditional loading, and files that failed.
public struct HTMLRenderer {
    public init() {}

    public func render(_ report: Report) -> String {
        var html = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>linkcheck report</title>
            <style>\(Self.css)</style>
            </head>
            <body>

            """
        html += header(report)
        html += verdictTable(report)
        html += graph(report)
        for section in Self.sections {
            html += findingSection(
                id: section.id, title: section.title, report: report,
                findings: report.findings.filter { section.id == Self.section(of: $0) }, filters: section.id == "findings")
        }
        html += problems(report)
        html += "<script>\(Self.script)</script>\n</body>\n</html>\n"
        return html
    }

    // MARK: - Sections

    /// The finding sections, in page order.
    static let sections = [
        (id: "findings", title: "API findings"), (id: "architecture", title: "Architecture"),
        (id: "loading", title: "Conditional loading"),
    ]

    /// The id of the section a finding is listed in.
    static func section(of finding: Finding) -> String {
        switch finding.category {
        case .architecture: "architecture"
        case .conditionalLoading: "loading"
        default: "findings"
        }
    }

    func header(_ report: Report) -> String {
        let unsafe = report.count(.unsafe)
        let incomplete = report.count(.incomplete)
        var problems: [String] = []
        if unsafe > 0 { problems.append("\(unsafe) of \(report.images.count) images \(unsafe == 1 ? "is" : "are") unsafe for app extensions") }
        if incomplete > 0 { problems.append("\(incomplete) \(incomplete == 1 ? "is" : "are") incomplete (read only in part)") }
        if !report.errors.isEmpty { problems.append("\(TextRenderer.count(report.errors.count, "file")) could not be inspected") }
        let headline = problems.isEmpty
            ? "<p class=\"headline ok\">No image is unsafe for app extensions.</p>"
            : "<p class=\"headline bad\">\(problems.joined(separator: "; ")).</p>"
        let packs = report.rulePacks.map { "<li>\(escapeHTML($0.name)) \(escapeHTML($0.version)) <code>\(escapeHTML($0.path))</code></li>" }
        let date = ISO8601DateFormatter().string(from: report.date)
        return """
            <header>
            <h1>linkcheck report</h1>
            \(headline)
            <dl class="run">
            <dt>Inputs</dt><dd>\(report.inputs.map { "<code>\(escapeHTML($0))</code>" }.joined(separator: " "))</dd>
            <dt>Rule packs</dt><dd><ul>\(packs.joined())</ul></dd>
            <dt>Date</dt><dd><time datetime="\(date)">\(date)</time></dd>
            <dt>linkcheck</dt><dd>\(escapeHTML(linkcheckVersion))</dd>
            <dt>Summary</dt><dd>\(escapeHTML(TextRenderer.summary(report)))</dd>
            </dl>
            </header>

            """
    }

    func verdictTable(_ report: Report) -> String {
        let byImage = Dictionary(grouping: report.findings, by: \.image)
        var rows: [String] = []
        for image in report.images {
            let findings = byImage[image.name] ?? []
            let firstSection = Self.sections.map(\.id).first { id in findings.contains { Self.section(of: $0) == id } }
            let name = escapeHTML(image.displayName)
            let link = firstSection.map { "<a href=\"#\(anchor(image.name, section: $0))\">\(name)</a>" } ?? name
            let counts = Severity.allCases.reversed().map { severity in
                "<td class=\"count\">\(findings.count { $0.severity == severity })</td>"
            }
            let role = image.extensionType.map { "\(image.role.rawValue) (\($0))" } ?? image.role.rawValue
            rows.append("""
                <tr data-image="\(escapeHTML(image.name))"><td>\(link)<br><code class="path">\(escapeHTML(image.name))</code></td>\
                <td>\(escapeHTML(role))</td><td><span class="verdict \(image.verdict.rawValue)">\(image.verdict.rawValue)</span></td>\
                <td>\(escapeHTML(image.architecture.name)) · \(image.architecture.is64Bit ? 64 : 32)-bit\(image.platform.map { " · " + escapeHTML($0.platform.rawValue) } ?? "")</td>\(counts.joined())</tr>
                """)
        }
        return """
            <section id="verdicts">
            <h2>Verdicts</h2>
            <table class="sortable">
            <thead><tr><th>Image</th><th>Role</th><th>Verdict</th><th>Machine</th><th>Errors</th><th>Warnings</th><th>Notes</th></tr></thead>
            <tbody>
            \(rows.joined(separator: "\n"))
            </tbody>
            </table>
            </section>

            """
    }

    func graph(_ report: Report) -> String {
        let index = Dictionary(uniqueKeysWithValues: report.images.enumerated().map { ($1.name, $0) })
        let edges = report.images.enumerated().flatMap { from, image in
            image.links.compactMap { index[$0].map { (from: from, to: $0) } }
        }
        let loadEdges = report.images.enumerated().flatMap { from, image in
            image.loads.compactMap { load in load.image.flatMap { index[$0] }.map { (from: from, to: $0) } }
        }
        let top = Set(report.images.indices.filter { report.images[$0].role != .framework })
        let layout = GraphLayout(count: report.images.count, edges: edges + loadEdges, topLayer: top)
        let (width, height) = (GraphLayout.nodeWidth, GraphLayout.nodeHeight)
        var svg: [String] = []
        for (edge, kind) in edges.map({ ($0, "needed") }) + loadEdges.map({ ($0, "dlopen") }) {
            let from = layout.nodes[edge.from]
            let to = layout.nodes[edge.to]
            let (x1, y1) = (from.x + width / 2, from.y + height)
            let (x2, y2) = (to.x + width / 2, to.y)
            let shape = to.y > from.y
                ? "M\(x1),\(y1) C\(x1),\(y1 + 30) \(x2),\(y2 - 30) \(x2),\(y2)"
                : "M\(x1),\(from.y) C\(x1),\(from.y - 40) \(x2),\(y2 - 40) \(x2),\(y2)"
            let relation = kind == "needed" ? "DT_NEEDED" : "dlopen"
            svg.append("<path class=\"edge \(kind)\" d=\"\(shape)\" marker-end=\"url(#arrow)\" data-from=\"\(escapeHTML(report.images[edge.from].name))\" data-to=\"\(escapeHTML(report.images[edge.to].name))\"><title>\(escapeHTML(report.images[edge.from].displayName)) \(relation) \(escapeHTML(report.images[edge.to].displayName))</title></path>")
        }
        for node in layout.nodes {
            let image = report.images[node.index]
            let name = image.displayName
            let label = name.count > 26 ? String(name.prefix(25)) + "…" : name
            svg.append("""
                <g class="node \(image.verdict.rawValue)" data-image="\(escapeHTML(image.name))"><title>\(escapeHTML(image.name)): \(image.verdict.rawValue)</title>\
                <rect x="\(node.x)" y="\(node.y)" width="\(width)" height="\(height)" rx="6"/>\
                <text x="\(node.x + width / 2)" y="\(node.y + 19)" class="label">\(escapeHTML(label))</text>\
                <text x="\(node.x + width / 2)" y="\(node.y + 36)" class="sub">\(image.role.rawValue) · \(escapeHTML(image.architecture.name))</text></g>
                """)
        }
        return """
            <section id="graph">
            <h2>Link graph</h2>
            <figure>
            <div class="scroll"><svg xmlns="http://www.w3.org/2000/svg" width="\(layout.width)" height="\(layout.height)" viewBox="0 0 \(layout.width) \(layout.height)" role="img" aria-label="Link graph of \(report.images.count) images">
            <defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" class="arrowhead"/></marker></defs>
            \(svg.joined(separator: "\n"))
            </svg></div>
            <figcaption class="legend">
            <span class="swatch extension-safe"></span> extension-safe
            <span class="swatch unsafe"></span> unsafe
            <span class="swatch app-only"></span> app-only
            <span class="swatch incomplete"></span> incomplete (read only in part)
            <svg width="36" height="10" aria-hidden="true"><line x1="0" y1="5" x2="36" y2="5" class="edge needed"/></svg> DT_NEEDED
            <svg width="36" height="10" aria-hidden="true"><line x1="0" y1="5" x2="36" y2="5" class="edge dlopen"/></svg> dlopen
            · extensions and apps on top, the frameworks they link below
            </figcaption>
            </figure>
            </section>

            """
    }

    func findingSection(id: String, title: String, report: Report, findings: [Finding], filters: Bool) -> String {
        var html = "<section id=\"\(id)\">\n<h2>\(title) <span class=\"total\">(\(findings.count))</span></h2>\n"
        if filters {
            html += "<p class=\"muted\">Architecture and conditional-loading findings have sections of their own below; the filters apply to this section.</p>\n"
        }
        if filters && !findings.isEmpty {
            let rules = Array(Set(findings.map(\.rule))).sorted()
            let images = Array(Set(findings.map(\.image))).sorted()
            html += """
                <form id="filters" hidden>
                \(Severity.allCases.reversed().map { "<label><input type=\"checkbox\" name=\"severity\" value=\"\($0.rawValue)\" checked> \($0.rawValue) (<span class=\"count-\($0.rawValue)\">0</span>)</label>" }.joined(separator: "\n"))
                <label>Rule <select name="rule"><option value="">all</option>\(rules.map { "<option>\(escapeHTML($0))</option>" }.joined())</select></label>
                <label>Image <select name="image"><option value="">all</option>\(images.map { "<option value=\"\(escapeHTML($0))\">\(escapeHTML(Self.fileName($0)))</option>" }.joined())</select></label>
                <label>Search <input type="search" name="q" placeholder="symbol, message, …"></label>
                <output id="shown"></output>
                </form>

                """
        }
        if findings.isEmpty { html += "<p class=\"none\">None.</p>\n" }
        let groups = Dictionary(grouping: findings, by: \.image)
        for image in groups.keys.sorted() {
            let ordered = groups[image]!.sorted { lhs, rhs in
                lhs.severity != rhs.severity ? lhs.severity > rhs.severity : Finding.reportOrder(lhs, rhs)
            }
            html += "<section class=\"finding-group\" id=\"\(anchor(image, section: id))\" data-image=\"\(escapeHTML(image))\">\n"
            html += "<h3>\(escapeHTML(Self.fileName(image))) <code class=\"path\">\(escapeHTML(image))</code></h3>\n<ol>\n"
            html += ordered.map { item($0, report: report) }.joined(separator: "\n")
            html += "\n</ol>\n</section>\n"
        }
        return html + "</section>\n\n"
    }

    func item(_ finding: Finding, report: Report) -> String {
        var parts = [
            "<li class=\"finding \(finding.severity.rawValue)\" data-severity=\"\(finding.severity.rawValue)\" data-rule=\"\(escapeHTML(finding.rule))\" data-image=\"\(escapeHTML(finding.image))\">",
            "<p class=\"title\"><span class=\"severity\">\(finding.severity.rawValue)</span> <span class=\"rule\">\(escapeHTML(finding.rule))</span> \(escapeHTML(report.rules[finding.rule]?.api ?? ""))</p>",
            "<p class=\"message\">\(escapeHTML(finding.message))</p>",
        ]
        if let symbol = finding.symbol {
            let shown = finding.demangled ?? symbol
            parts.append("<p class=\"api\">API: <code title=\"\(escapeHTML(symbol))\">\(escapeHTML(shown))</code>\(finding.demangled != nil ? " <code class=\"mangled\">\(escapeHTML(symbol))</code>" : "")</p>")
        }
        if !finding.chain.isEmpty {
            parts.append("<p class=\"chain\">Chain: \(finding.chain.map { "<code>\(escapeHTML($0))</code>" }.joined(separator: " → "))</p>")
        }
        if !finding.path.isEmpty {
            parts.append("<p class=\"path\">Call path: \(finding.path.map { "<code>\(escapeHTML($0))</code>" }.joined(separator: " → "))</p>")
        }
        if !finding.callSites.isEmpty {
            let sites = finding.callSites.prefix(8).map { site in
                "<li><code title=\"\(escapeHTML(site.function ?? ""))\">\(escapeHTML(site.label))</code> at <code>0x\(String(site.address, radix: 16))</code></li>"
            }
            let more = finding.callSites.count > 8 ? "<li>and \(finding.callSites.count - 8) more</li>" : ""
            parts.append("<details class=\"calls\"><summary>\(finding.callSites.count) call site\(finding.callSites.count == 1 ? "" : "s")</summary><ul>\(sites.joined())\(more)</ul></details>")
        }
        if let fixit = finding.fixit, !fixit.isEmpty {
            parts.append("<p class=\"fixit\">Fix-it: \(escapeHTML(fixit))</p>")
        }
        if let source = finding.source, !source.isEmpty {
            parts.append("<p class=\"source\">Source: \(escapeHTML(source))</p>")
        }
        return parts.joined(separator: "\n") + "\n</li>"
    }

    func problems(_ report: Report) -> String {
        guard !report.errors.isEmpty || !report.notices.isEmpty else { return "" }
        let errors = report.errors.map { "<li><code>\(escapeHTML($0.path))</code>: \(escapeHTML(TextRenderer.reason($0)))</li>" }
        let notices = report.notices.map { "<li>\(escapeHTML($0))</li>" }
        return "<section id=\"problems\">\n<h2>Files that could not be inspected, and notices</h2>\n<ul>\n\((errors + notices).joined(separator: "\n"))\n</ul>\n</section>\n\n"
    }

    // MARK: - Helpers

    /// A fragment identifier for an image's findings in one section: the
    /// section, then the path's bytes in hex, so any path gives a valid,
    /// unique id.
    func anchor(_ path: String, section: String) -> String {
        section + "-" + path.utf8.map { String(format: "%02x", $0) }.joined()
    }

    static func fileName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}
