import Foundation
import LinkCheckAnalysis
import LinkCheckRules

/// Renders a ``Report`` as the reviewer's report: one self-contained HTML
/// file (inline CSS, JS and SVG, a Content-Security-Policy that forbids
/// every network request), readable without JS; JS only adds filtering and
/// sorting. Every string from a binary or a configuration is escaped.
///
/// The page leads with the answer (``HTMLAnswer``: each extension's verdict
/// and what makes it unsafe), then the link graph (``HTMLGraph``, laid out
/// by Graphviz), then one card per problem (``FindingCard``: errors first,
/// a framework's finding once with the extensions it reaches), the notes on
/// provided APIs and on what only the app runs collapsed, every image in a
/// collapsed table, and a footer with the command that made the run.
/// A call site whose image's debug information gives its source shows
/// where it was written, and the line itself when the file can be read.
public struct HTMLRenderer: ReportRenderer {
    /// The folder source paths are shown relative to, when they lie inside
    /// it (`--source-root`; the CLI's default: the current directory);
    /// `nil`: as the debug information gives them.
    public var sourceRoot: SourceRoot?

    public init(sourceRoot: SourceRoot? = nil) {
        self.sourceRoot = sourceRoot
    }

    public func render(_ report: Report) -> String {
        // A fat file is one image to a reader: one verdict, one node, one
        // card per rule with the slices that hold it.
        let report = FileGrouping(report).collapsed(report)
        let answer = ReportAnswer(report)
        let cards = FindingCard.cards(report, reach: answer.reach)
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
        let headline = HTMLAnswer(report: report, answer: answer, cards: cards)
        html += "<section id=\"answer\">\n\(headline.grouped())\(headline.uninspected())</section>\n\n"
        html += graph(report)
        html += findings(report, cards: cards)
        html += imageTable(report)
        html += problems(report)
        html += footer(report)
        html += "<script>\(Self.script)</script>\n</body>\n</html>\n"
        return html
    }

    // MARK: - Sections

    func header(_ report: Report) -> String {
        """
        <header>
        <h1>linkcheck report</h1>
        <p class="summary">\(escapeHTML(TextRenderer.summary(report).replacingOccurrences(of: "linkcheck: ", with: ""))) · <a href="#run">how this run was made</a></p>
        </header>

        """
    }

    func graph(_ report: Report) -> String {
        guard !report.images.isEmpty else { return "" }
        let drawing: String
        switch HTMLGraph(description: LinkGraphDescription(ReportGraph(report))).svg() {
        case .success(let svg): drawing = "<div class=\"scroll\">\(svg)</div>"
        case .failure(let failure):
            drawing = "<p class=\"muted\">The link graph could not be drawn: \(escapeHTML(failure.description)).</p>"
        }
        return """
            <section id="graph">
            <h2>Link graph</h2>
            <figure>
            \(drawing)
            <figcaption class="legend">
            <span class="swatch extension-safe"></span> extension-safe
            <span class="swatch unsafe"></span> unsafe
            <span class="swatch app-only"></span> app-only
            <span class="swatch needs-review"></span> needs-review (an unavailable API reached only by name)
            <span class="swatch incomplete"></span> incomplete (read only in part)
            · thick border: extension or app
            · <svg width="30" height="8" aria-hidden="true"><line x1="0" y1="4" x2="30" y2="4" class="key"/></svg> links
            <svg width="30" height="8" aria-hidden="true"><line x1="0" y1="4" x2="30" y2="4" class="key dlopen"/></svg> loads (dlopen)
            <svg width="30" height="8" aria-hidden="true"><line x1="0" y1="4" x2="30" y2="4" class="key unsafe"/></svg> on an unsafe path
            </figcaption>
            </figure>
            </section>

            """
    }

    func findings(_ report: Report, cards: [FindingCard]) -> String {
        var html =
            "<section id=\"findings\">\n<h2>Findings <span class=\"total\">(\(TextRenderer.count(cards.count, "problem")), \(TextRenderer.count(report.findings.count, "finding")))</span></h2>\n"
        if cards.isEmpty {
            return html + "<p class=\"none\">None.</p>\n</section>\n\n"
        }
        let rules = Array(Set(cards.map(\.rule))).sorted()
        let images = Array(Set(cards.map(\.image) + cards.flatMap(\.reachedImages))).sorted()
        let names = ImageLabels(report.images)
        html += """
            <form id="filters" hidden>
            \(Severity.allCases.reversed().map { "<label><input type=\"checkbox\" name=\"severity\" value=\"\($0.rawValue)\" checked> \($0.rawValue) (<span class=\"count-\($0.rawValue)\">0</span>)</label>" }.joined(separator: "\n"))
            <label>Rule <select name="rule"><option value="">all</option>\(rules.map { "<option>\(escapeHTML($0.rawValue))</option>" }.joined())</select></label>
            <label>Image <select name="image"><option value="">all</option>\(images.map { "<option value=\"\(escapeHTML($0))\">\(escapeHTML(names[$0]))</option>" }.joined())</select></label>
            <label>Search <input type="search" name="q" placeholder="symbol, function, message…"></label>
            <output id="shown"></output>
            </form>

            """
        let cardHTML = HTMLCard(report: report, sourceRoot: sourceRoot)
        html += cards.filter { $0.group == .main }.map(cardHTML.html).joined(separator: "\n") + "\n"
        for group in [FindingCard.Group.provided, .appOnly] {
            let members = cards.filter { $0.group == group }
            guard !members.isEmpty else { continue }
            let notes = members.reduce(0) { $0 + $1.findings.count }
            let title =
                switch group {
                case .provided:
                    "\(TextRenderer.count(notes, "note")) on images that define the APIs (the SDK or a stand-in for it): their own definitions are not violations"
                default:
                    "\(TextRenderer.count(notes, "note")) on the containing app and what only it links or loads, where these APIs are allowed"
                }
            let where_ = Array(Set(members.map { names[$0.image] })).sorted().map(escapeHTML).joined(separator: ", ")
            html += """
                <details class="group" id="group-\(group.rawValue)">
                <summary>\(escapeHTML(title)) <span class="muted">(\(where_))</span></summary>
                \(members.map(cardHTML.html).joined(separator: "\n"))
                </details>

                """
        }
        return html + "</section>\n\n"
    }

    func imageTable(_ report: Report) -> String {
        let byImage = Dictionary(grouping: report.findings, by: \.image)
        let names = ImageLabels(report.images)
        let rows = report.images.map { image in
            let findings = byImage[image.name] ?? []
            let counts = Severity.allCases.reversed().map { severity in
                "<td class=\"count\">\(findings.count { $0.severity == severity })</td>"
            }
            let role = image.extensionType.map { "\(image.role.rawValue) (\($0))" } ?? image.role.rawValue
            let machine =
                (image.slices.isEmpty
                    ? "\(escapeHTML(image.binary.architecture.name)) · \(image.binary.architecture.is64Bit ? 64 : 32)-bit"
                    : escapeHTML(image.slices.joined(separator: ", ")))
                + (image.binary.platform.map { " · " + escapeHTML($0.platform.rawValue) } ?? "")
            let reachedBy = image.reachedBy.filter { $0 != image.name }.map { escapeHTML(names[$0]) }.joined(separator: ", ")
            return """
                <tr data-image="\(escapeHTML(image.name))"><td>\(escapeHTML(names[image.name]))<br><code class="path">\(escapeHTML(image.name))</code></td>\
                <td>\(escapeHTML(role))</td><td><span class="verdict \(image.verdict.rawValue)">\(image.verdict.rawValue)</span></td>\
                <td>\(machine)</td><td>\(reachedBy)</td>\(counts.joined())</tr>
                """
        }
        return """
            <section id="images">
            <details>
            <summary><h2>Images <span class="total">(\(report.images.count))</span></h2> roles, verdicts, machines, who runs them</summary>
            <table class="sortable">
            <thead><tr><th>Image</th><th>Role</th><th>Verdict</th><th>Machine</th><th>Linked or loaded by</th><th>Errors</th><th>Warnings</th><th>Notes</th></tr></thead>
            <tbody>
            \(rows.joined(separator: "\n"))
            </tbody>
            </table>
            </details>
            </section>

            """
    }

    func problems(_ report: Report) -> String {
        guard !report.errors.isEmpty || !report.notices.isEmpty else { return "" }
        let errors = report.errors.map { "<li><code>\(escapeHTML($0.path))</code>: \(escapeHTML(TextRenderer.reason($0)))</li>" }
        let notices = report.notices.map { "<li>\(escapeHTML($0))</li>" }
        return
            "<section id=\"problems\">\n<h2>Files that could not be inspected, and notices</h2>\n<ul>\n\((errors + notices).joined(separator: "\n"))\n</ul>\n</section>\n\n"
    }

    /// How to make the run again, what it read, and the notes about the
    /// run (``Report/remarks``: the toolchain's code left out, findings a
    /// baseline accepted).
    func footer(_ report: Report) -> String {
        let packs = report.rulePacks.map { "<li>\(escapeHTML($0.name)) \(escapeHTML($0.version)) <code>\(escapeHTML($0.path))</code></li>" }
        let date = ISO8601DateFormatter().string(from: report.date)
        let command =
            report.invocation.map { invocation in
                "<dt>Command</dt><dd><code class=\"command\">cd \(escapeHTML(Self.shellWord(invocation.workingDirectory))) &amp;&amp; linkcheck \(invocation.arguments.map { escapeHTML(Self.shellWord($0)) }.joined(separator: " "))</code></dd>\n"
            } ?? ""
        let notes =
            report.remarks.isEmpty
            ? "" : "<dt>Notes</dt><dd><ul class=\"remarks\">\(report.remarks.map { "<li>\(escapeHTML($0))</li>" }.joined())</ul></dd>\n"
        return """
            <footer id="run">
            <h2>The run</h2>
            <dl class="run">
            \(command)<dt>Inputs</dt><dd>\(report.inputs.map { "<code>\(escapeHTML($0))</code>" }.joined(separator: " "))</dd>
            <dt>Rule packs</dt><dd><ul>\(packs.joined())</ul></dd>
            <dt>Date</dt><dd><time datetime="\(date)">\(date)</time></dd>
            <dt>linkcheck</dt><dd>\(escapeHTML(linkcheckVersion))</dd>
            <dt>Summary</dt><dd>\(escapeHTML(TextRenderer.summary(report)))</dd>
            \(notes)</dl>
            </footer>

            """
    }

    /// `word` as a POSIX shell reads it back: unchanged when it holds only
    /// characters the shell leaves alone, else in single quotes.
    static func shellWord(_ word: String) -> String {
        let plain =
            !word.isEmpty
            && word.unicodeScalars.allSatisfy { scalar in
                switch scalar {
                case "a"..."z", "A"..."Z", "0"..."9", "-", "_", ".", "/", "=", ":", ",", "+", "@", "%": true
                default: false
                }
            }
        return plain ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
