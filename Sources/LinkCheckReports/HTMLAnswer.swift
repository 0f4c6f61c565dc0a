import LinkCheckAnalysis
import LinkCheckRules

/// The top of the HTML report: the report's answer (``ReportAnswer``: each
/// extension with its type and verdict and, for an unsafe one, what makes
/// it so in one sentence per cause, "libShareKit.so calls
/// UIKit.UIApplication.shared from ShareKit.openInContainingApp(Swift.String)";
/// without extensions, the unsafe images the same way), each cause's API
/// linked to its card. The containing app and what only it runs follow,
/// quieter.
///
/// A report over several apps gives each its own group, under a heading.
struct HTMLAnswer {
    let report: Report
    let answer: ReportAnswer
    let images: [String: ImageReport]
    let labels: ImageLabels
    /// The card id of each problem that has a card.
    let cardIDs: [ProblemReach.Key: String]

    init(report: Report, cards: [FindingCard]) {
        self.report = report
        answer = ReportAnswer(report)
        images = Dictionary(report.images.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        labels = ImageLabels(report.images)
        cardIDs = Dictionary(cards.map { (ProblemReach.Key(image: $0.image, rule: $0.rule), $0.id) }, uniquingKeysWith: { first, _ in first })
    }

    /// The answer for the whole report, one group per outermost bundle
    /// (``ReportAnswer/groups``). A report of one group has no heading: the
    /// answer's first line is the first extension's verdict.
    func grouped() -> String {
        let groups = answer.groups
        guard groups.count > 1 else { return html(for: report.images) }
        return groups.map { group in
            guard let bundle = group.bundle else { return "<h3 class=\"bundle\">Images in no bundle</h3>\n" + html(for: group.images) }
            return "<h3 class=\"bundle\" data-bundle=\"\(escapeHTML(bundle))\">\(escapeHTML(bundle))</h3>\n" + html(for: group.images)
        }.joined()
    }

    /// The answer for `group` (the report's images, or one app's).
    func html(for group: [ImageReport]) -> String {
        let extensions = group.filter { $0.role == .extension }
        let apps = group.filter { $0.role == .app }
        let lines = answer.lines(for: group)
        var loud = lines.map(line)
        var quiet: [String] = []
        if !extensions.isEmpty {
            let linked = group.filter { image in image.role == .framework && image.reachedBy.contains { images[$0]?.role == .extension } }
            if !linked.isEmpty {
                quiet.append("Frameworks the extensions link or load: \(chips(linked)).")
            }
        } else {
            if lines.isEmpty {
                loud.append("<li class=\"answer extension-safe\"><span class=\"verdict extension-safe\">extension-safe</span> No image is unsafe for app extensions.</li>")
            }
            let safe = group.filter { $0.role != .app && $0.verdict == .extensionSafe }
            if !safe.isEmpty && !lines.isEmpty {
                quiet.append("Extension-safe: \(chips(safe)).")
            }
        }
        for app in apps {
            let only = group.filter { image in
                image.role == .framework && !image.reachedBy.isEmpty && image.reachedBy.allSatisfy { images[$0]?.role == .app }
                    && image.reachedBy.contains(app.name)
            }
            var text = "Containing app: \(chips([app])), which may use any API"
            // Without extensions every framework must be extension-safe, so
            // none is the app's alone.
            if !only.isEmpty && !extensions.isEmpty { text += "; frameworks only the app links or loads: \(chips(only))" }
            quiet.append(text + ".")
        }
        return "<ul class=\"answers\">\n\(loud.joined(separator: "\n"))\n</ul>\n"
            + quiet.map { "<p class=\"quiet\">\($0)</p>\n" }.joined()
    }

    /// The run's files that could not be inspected, as a line of the
    /// answer (once per report, whatever the groups).
    func uninspected() -> String {
        guard !report.errors.isEmpty else { return "" }
        let count = report.errors.count
        return "<ul class=\"answers\"><li class=\"answer incomplete\">\(TextRenderer.count(count, "file")) could not be inspected (<a href=\"#problems\">listed below</a>): nothing in \(count == 1 ? "it" : "them") was checked.</li></ul>\n"
    }

    /// One image's verdict line: its name (and type, and note), its
    /// verdict, and its causes, the first five shown.
    func line(_ line: ReportAnswer.Line) -> String {
        let image = line.image
        let who = "<strong>\(escapeHTML(labels[image.name]))</strong>"
            + (line.kind.map { " (\(escapeHTML($0)))" } ?? "")
            + (line.note.map { " <span class=\"muted\">(\(escapeHTML($0)))</span>" } ?? "")
        let verdict = "<span class=\"verdict \(image.verdict.rawValue)\">\(image.verdict.rawValue)</span>"
        let causes = line.causes.map(sentence)
        var html = "<li class=\"answer \(image.verdict.rawValue)\" data-image=\"\(escapeHTML(image.name))\">\(who): \(verdict)"
        if let partial = line.partial {
            html += " — " + escapeHTML(partial) + (causes.isEmpty ? "." : ";")
        }
        let dash = line.partial == nil ? " — " : " "
        switch causes.count {
        case 0:
            if line.partial == nil { html += " — " + escapeHTML(line.safeText) + "." }
        case 1:
            html += dash + "\(causes[0])."
        default:
            let shown = causes.prefix(5).map { "<li>\($0).</li>" }.joined()
            let rest = causes.dropFirst(5).map { "<li>\($0).</li>" }.joined()
            html += dash + "\(causes.count) causes:<ul class=\"causes\">\(shown)</ul>"
            if !rest.isEmpty {
                html += "<details class=\"more\"><summary>and \(causes.count - 5) more</summary><ul class=\"causes\">\(rest)</ul></details>"
            }
        }
        return html + "</li>"
    }

    /// A cause in HTML: images in bold, each API in code and linked to the
    /// first card of its problems that has one.
    func sentence(_ cause: Cause) -> String {
        cause.sentence(
            words: escapeHTML, image: { "<strong>\(escapeHTML($0))</strong>" },
            object: { object in
                let text = "<code>\(escapeHTML(object.text))</code>"
                return object.problems.lazy.compactMap { cardIDs[$0] }.first.map { "<a href=\"#\(escapeHTML($0))\">\(text)</a>" } ?? text
            },
            function: { "<code>\(escapeHTML($0))</code>" })
    }

    /// Images as small named chips with their verdicts.
    func chips(_ images: [ImageReport]) -> String {
        images.map { image in
            "<span class=\"chip \(image.verdict.rawValue)\" data-image=\"\(escapeHTML(image.name))\">\(escapeHTML(labels[image.name])) <small>\(image.verdict.rawValue)</small></span>"
        }.joined(separator: " ")
    }
}
