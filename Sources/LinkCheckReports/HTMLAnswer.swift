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
    let images: ImagesByName
    let labels: ImageLabels
    /// The card id of each problem that has a card.
    let cardIDs: [ProblemReach.Key: String]

    init(report: Report, answer: ReportAnswer, cards: [FindingCard]) {
        self.report = report
        self.answer = answer
        images = answer.images
        labels = ImageLabels(report.images)
        cardIDs = Dictionary(cards.map { ($0.problem, $0.id) }, uniquingKeysWith: { first, _ in first })
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
        let refusals = answer.uploadRefusals(for: group)
        var loud =
            (refusals.isEmpty
                ? []
                : [
                    "<li class=\"answer unsafe\"><span class=\"verdict unsafe\">\(escapeHTML(String(TextRenderer.rejectedOnUpload.dropLast())))</span> "
                        + "App Store Connect would refuse the upload: \(escapeHTML(refusals.joined(separator: ", "))) "
                        + "(<a href=\"#findings\">the bundle findings below</a>).</li>"
                ])
        // The bundle checks alone match no API: no verdict is theirs.
        guard report.scope == .all else {
            let passes =
                "<li class=\"answer extension-safe\"><span class=\"verdict extension-safe\">passes</span> \(escapeHTML(TextRenderer.passesBundleChecks))</li>"
            // What could not be read is never a pass (``uninspected()`` says it).
            let answers = loud.isEmpty && answer.passesBundleChecks(group) ? [passes] : loud
            return answers.isEmpty ? "" : "<ul class=\"answers\">\n\(answers.joined(separator: "\n"))\n</ul>\n"
        }
        loud += lines.map(line)
        var quiet: [String] = []
        if !extensions.isEmpty {
            let linked = group.filter { image in image.role == .framework && image.reachedBy.contains { images[$0]?.role == .extension } }
            if !linked.isEmpty {
                quiet.append("Frameworks the extensions link or load: \(chips(linked)).")
            }
        } else {
            if lines.isEmpty {
                loud.append(
                    "<li class=\"answer extension-safe\"><span class=\"verdict extension-safe\">extension-safe</span> No image is unsafe for app extensions.</li>"
                )
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
        return
            "<ul class=\"answers\"><li class=\"answer incomplete\">\(TextRenderer.count(count, "file")) could not be inspected (<a href=\"#problems\">listed below</a>): nothing in \(count == 1 ? "it" : "them") was checked.</li></ul>\n"
    }

    /// One image's verdict line: its name (and type, and note), its
    /// verdict, and its causes, the first five shown.
    func line(_ line: ReportAnswer.Line) -> String {
        let image = line.image
        let markup = VerdictLineMarkup(
            words: escapeHTML, label: { "<strong>\(escapeHTML($0))</strong>" },
            note: { "<span class=\"muted\">(\(escapeHTML($0)))</span>" },
            verdict: { "<span class=\"verdict \($0.rawValue)\">\($0.rawValue)</span>" },
            causes: causes)
        // A list of causes ends the line; a sentence ends with a full stop.
        let end = line.causes.count > 1 ? "" : "."
        return "<li class=\"answer \(image.verdict.rawValue)\" data-image=\"\(escapeHTML(image.name))\">"
            + markup.write(line, label: labels[image.name]) + end + "</li>"
    }

    /// The causes of a line: one sentence, or how many there are and a list
    /// of them, the first five shown; `nil` for none.
    func causes(_ causes: [Cause]) -> String? {
        let sentences = causes.map(sentence)
        guard sentences.count > 1 else { return sentences.first }
        let shown = sentences.prefix(5).map { "<li>\($0).</li>" }.joined()
        let rest = sentences.dropFirst(5).map { "<li>\($0).</li>" }.joined()
        return "\(sentences.count) causes:<ul class=\"causes\">\(shown)</ul>"
            + (rest.isEmpty
                ? ""
                : "<details class=\"more\"><summary>and \(sentences.count - 5) more</summary><ul class=\"causes\">\(rest)</ul></details>")
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
