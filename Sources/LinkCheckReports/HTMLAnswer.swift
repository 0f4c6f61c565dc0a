import LinkCheckAnalysis
import LinkCheckRules

/// The top of the HTML report: each extension with its type and verdict and,
/// for an unsafe one, what makes it so in one sentence per cause ("libShareKit.so
/// calls UIKit.UIApplication.shared from ShareKit.openInContainingApp(Swift.String)");
/// without extensions, the unsafe images the same way. The containing app
/// and what only it runs follow, quieter.
///
/// It answers for a list of images, so that a report over several apps can
/// give each its own group (one call per app, under a heading).
struct HTMLAnswer {
    let report: Report
    let images: [String: ImageReport]
    let labels: ImageLabels
    /// The card id of each (image, rule) that has a card.
    let cardIDs: [String: String]
    /// Each image's own findings, by (image, rule, symbol): the origin of a
    /// transitive finding.
    let ownFindings: [String: Finding]
    /// Card order, for ordering causes as the cards are.
    let cardOrder: [String: Int]

    init(report: Report, cards: [FindingCard]) {
        self.report = report
        images = Dictionary(report.images.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        labels = ImageLabels(report.images)
        cardIDs = Dictionary(cards.map { (Self.key($0.image, $0.rule), $0.id) }, uniquingKeysWith: { first, _ in first })
        cardOrder = Dictionary(cards.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        ownFindings = Dictionary(
            report.findings.filter { $0.kind != .transitive }.map { (Self.key($0.image, $0.rule, $0.symbol), $0) },
            uniquingKeysWith: { first, _ in first })
    }

    static func key(_ parts: String?...) -> String { parts.map { $0 ?? "" }.joined(separator: "\u{1}") }

    /// The answer for the whole report: one group per outermost bundle (an
    /// app with its extensions and frameworks, an xcframework), under its
    /// name, in the order the report lists its images, then one for the
    /// images in no bundle. A report of one group has no heading: the
    /// answer's first line is the first extension's verdict.
    func grouped() -> String {
        var order: [String] = []
        var groups: [String: [ImageReport]] = [:]
        var loose: [ImageReport] = []
        for image in report.images {
            guard let bundle = image.bundle?.outermost.displayPath else {
                loose.append(image)
                continue
            }
            if groups[bundle] == nil { order.append(bundle) }
            groups[bundle, default: []].append(image)
        }
        guard order.count + (loose.isEmpty ? 0 : 1) > 1 else { return html(for: report.images) }
        var html = ""
        for bundle in order {
            html += "<h3 class=\"bundle\" data-bundle=\"\(escapeHTML(bundle))\">\(escapeHTML(bundle))</h3>\n" + self.html(for: groups[bundle]!)
        }
        if !loose.isEmpty { html += "<h3 class=\"bundle\">Images in no bundle</h3>\n" + self.html(for: loose) }
        return html
    }

    /// The answer for `group` (the report's images, or one app's).
    func html(for group: [ImageReport]) -> String {
        let extensions = group.filter { $0.role == .extension }
        let apps = group.filter { $0.role == .app }
        var loud: [String] = []
        var quiet: [String] = []
        if !extensions.isEmpty {
            loud = extensions.map { line($0) }
            let reachedByNone = group.filter { $0.role == .framework && $0.reachedBy.isEmpty && $0.verdict != .extensionSafe }
            loud += reachedByNone.map { line($0, note: "linked or loaded by neither an extension nor the app, so it must be extension-safe") }
            let linked = group.filter { image in image.role == .framework && image.reachedBy.contains { images[$0]?.role == .extension } }
            if !linked.isEmpty {
                quiet.append("Frameworks the extensions link or load: \(chips(linked)).")
            }
        } else {
            let bad = group.filter { $0.role != .app && $0.verdict != .extensionSafe }
            loud = bad.map { line($0) }
            if bad.isEmpty {
                loud.append("<li class=\"answer extension-safe\"><span class=\"verdict extension-safe\">extension-safe</span> No image is unsafe for app extensions.</li>")
            }
            let safe = group.filter { $0.role != .app && $0.verdict == .extensionSafe }
            if !safe.isEmpty && !bad.isEmpty {
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

    /// One image's verdict line: its name (and type, and `note`), its
    /// verdict, and the causes of its error findings (of its warnings about
    /// uses by name, for one that needs review).
    func line(_ image: ImageReport, note: String? = nil) -> String {
        let who = "<strong>\(escapeHTML(labels[image.name]))</strong>"
            + (image.role == .extension ? " (\(escapeHTML(image.extensionType.map { "\($0) extension" } ?? "extension")))" : "")
            + (note.map { " <span class=\"muted\">(\(escapeHTML($0)))</span>" } ?? "")
        let verdict = "<span class=\"verdict \(image.verdict.rawValue)\">\(image.verdict.rawValue)</span>"
        let causes = causes(of: image)
        var html = "<li class=\"answer \(image.verdict.rawValue)\" data-image=\"\(escapeHTML(image.name))\">\(who): \(verdict)"
        switch causes.count {
        case 0:
            html += " — " + safeText(image)
        case 1:
            html += " — \(causes[0])."
        default:
            let shown = causes.prefix(5).map { "<li>\($0).</li>" }.joined()
            let rest = causes.dropFirst(5).map { "<li>\($0).</li>" }.joined()
            html += " — \(causes.count) causes:<ul class=\"causes\">\(shown)</ul>"
            if !rest.isEmpty {
                html += "<details class=\"more\"><summary>and \(causes.count - 5) more</summary><ul class=\"causes\">\(rest)</ul></details>"
            }
        }
        return html + "</li>"
    }

    /// What a line says when no error finding is listed for the image.
    func safeText(_ image: ImageReport) -> String {
        let reached = Set([image.name] + report.images.filter { $0.reachedBy.contains(image.name) }.map(\.name))
        let warnings = report.findings.count { $0.severity == .warning && reached.contains($0.image) }
        let base = image.role == .extension ? "nothing it runs uses an API unavailable in app extensions" : "it uses no API unavailable in app extensions"
        return base + (warnings > 0 ? " (\(TextRenderer.count(warnings, "warning")) to review, in it or what it links)." : ".")
    }

    /// A cause per error finding of `image` (per warning about a use by
    /// name, ``Finding/needsReview``, when that is its verdict), merged
    /// where they share the route, the verb and the calling function
    /// ("calls A and B from f"), in card order.
    func causes(of image: ImageReport) -> [String] {
        struct Cause {
            /// The images from the one the image links down to the one
            /// that acts, each with how the one before reaches it ("links",
            /// "loads" for dlopen; the first's is not said).
            var route: [String]
            var hops: [String]
            var verb: String
            var objects: [(text: String, card: String?)]
            var from: String?
            var order: Int
        }
        var causes: [Cause] = []
        let isCause: (Finding) -> Bool = image.verdict == .needsReview ? \.needsReview : { $0.severity == .error }
        for finding in report.findings where finding.image == image.name && isCause(finding) {
            let origin = finding.kind == .transitive
                ? ownFindings[Self.key(finding.chainImages.last, finding.rule, finding.symbol)] ?? finding : finding
            // A transitive finding is on its origin's card when there is one
            // (``FindingCard/cards(_:)``).
            let card = (finding.kind == .transitive ? cardIDs[Self.key(finding.chainImages.last, finding.rule)] : nil)
                ?? cardIDs[Self.key(finding.image, finding.rule)]
            let route = finding.chainImages.dropFirst().map { images[$0]?.shortName ?? $0 }
            // The chain marks a hop made by dlopen alone: "B (dlopen)".
            let hops = route.indices.map { position in
                finding.chain.indices.contains(position + 1) && finding.chain[position + 1].hasSuffix(" (dlopen)") ? "loads" : "links"
            }
            let (verb, object, from) = action(origin, api: finding.kind == .transitive ? finding.chain.last : nil)
            let order = card.flatMap { cardOrder[$0] } ?? Int.max
            if let index = causes.firstIndex(where: {
                $0.route == route && $0.hops == hops && $0.verb == verb && $0.from == from && object != nil && !$0.objects.isEmpty
            }) {
                if let object, !causes[index].objects.contains(where: { $0.text == object }) {
                    causes[index].objects.append((object, card))
                }
                causes[index].order = min(causes[index].order, order)
            } else {
                causes.append(Cause(route: route, hops: hops, verb: verb, objects: object.map { [($0, card)] } ?? [], from: from, order: order))
            }
        }
        return causes.enumerated().sorted { ($0.element.order, $0.offset) < ($1.element.order, $1.offset) }.map(\.element).map { cause in
            let objects = cause.objects.map { object in
                let text = "<code>\(escapeHTML(object.text))</code>"
                return object.card.map { "<a href=\"#\(escapeHTML($0))\">\(text)</a>" } ?? text
            }
            var action = escapeHTML(cause.verb)
            if !objects.isEmpty { action += " " + Self.list(objects) }
            if let from = cause.from { action += " from <code>\(escapeHTML(from))</code>" }
            guard !cause.route.isEmpty else { return objects.isEmpty ? action : "it " + action }
            let names = cause.route.map { "<strong>\(escapeHTML($0))</strong>" }
            guard !objects.isEmpty else {
                // A built-in check's own words: "A links B: …".
                return names.indices.dropFirst().reduce(names[0]) { $0 + " \(cause.hops[$1]) " + names[$1] } + ": " + action
            }
            var sentence = names[0]
            for position in names.indices.dropFirst() { sentence += " \(cause.hops[position]) \(names[position]), which" }
            return sentence + " " + action
        }
    }

    /// What `finding` (an image's own) does: a verb, what it acts on, and
    /// the calling function. `api` is the API as a transitive finding's
    /// chain names it.
    func action(_ finding: Finding, api: String?) -> (verb: String, object: String?, from: String?) {
        let rule = report.rules[finding.rule]
        let name = api ?? finding.api ?? finding.demangled ?? finding.symbol ?? rule?.api ?? finding.rule
        let callers = finding.callSites.map(\.label).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        let from = callers.first.map { callers.count > 1 ? "\($0) and \(callers.count - 1) more" : $0 }
        switch finding.kind {
        case .importedSymbol, .staticCall:
            return from == nil ? ("imports", name, nil) : ("calls", name, from)
        case .objcReference:
            return from == nil ? ("references", name, nil) : ("calls", name, from)
        case .objcByName:
            return ("calls by name", name, from)
        case .stringLiteral:
            return ("holds the string", finding.symbol ?? name, nil)
        case .neededLibrary:
            return ("links", finding.symbol ?? name, nil)
        case .loadedLibrary:
            return ("loads", finding.symbol ?? name, from)
        default:
            return (Self.detail(finding, rule: rule), nil, nil)
        }
    }

    /// A finding's message without the rule's message that built-in
    /// findings end with (`this armv7 image is 32-bit (ELFCLASS32)`).
    static func detail(_ finding: Finding, rule: Rule?) -> String {
        guard let rule, let range = finding.message.range(of: ": " + rule.message) else { return finding.message }
        return String(finding.message[..<range.lowerBound])
    }

    /// `a`, `a and b`, `a, b and c`.
    static func list(_ items: [String]) -> String {
        guard items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " and " + items.last!
    }

    /// Images as small named chips with their verdicts.
    func chips(_ images: [ImageReport]) -> String {
        images.map { image in
            "<span class=\"chip \(image.verdict.rawValue)\" data-image=\"\(escapeHTML(image.name))\">\(escapeHTML(labels[image.name])) <small>\(image.verdict.rawValue)</small></span>"
        }.joined(separator: " ")
    }
}
