import Foundation
import LinkCheckAnalysis
import LinkCheckRules
import LinkCheckSourceLines

/// A ``FindingCard`` as HTML: the problem, who it reaches, each finding
/// with its call sites (and where each was written, when the debug
/// information says) and path, the fix-it, the source and a link to the
/// card; with the report's images and rules to name them.
struct HTMLCard {
    let report: Report
    let images: ImagesByName
    let labels: ImageLabels
    /// The folder source paths are shown relative to (``SourceRoot``).
    let sourceRoot: SourceRoot?
    /// The source lines the call sites were written on.
    let excerpts: SourceExcerpts
    let inlined = InlinedCallWords()

    init(report: Report, sourceRoot: SourceRoot? = nil) {
        self.report = report
        self.sourceRoot = sourceRoot
        images = ImagesByName(report.images)
        labels = ImageLabels(report.images)
        excerpts = SourceExcerpts(report)
    }

    /// How many symbols, call sites and the like a card shows before the
    /// rest is collapsed.
    static let shown = 3

    func name(_ image: String) -> String { labels[image] }

    /// One card: the problem, who it reaches, each use with its call sites
    /// and path, then the fix-it, the source and a link to the card.
    func html(_ card: FindingCard) -> String {
        let rule = report.rules[card.rule]
        let findings = card.findings.enumerated().sorted { ($1.element.severity, $0.offset) < ($0.element.severity, $1.offset) }.map(
            \.element)
        let image = images[card.image]
        let role =
            image.map { image in
                image.role == .framework
                    ? ""
                    : " <span class=\"role\">(\(escapeHTML(image.extensionType.map { "\($0) extension" } ?? image.role.rawValue)))</span>"
            } ?? ""
        var parts = [
            "<article class=\"card \(card.severity.rawValue)\" id=\"\(escapeHTML(card.id))\" data-severity=\"\(card.severity.rawValue)\" data-rule=\"\(escapeHTML(card.rule.rawValue))\" data-image=\"\(escapeHTML(card.image))\" data-category=\"\(card.category.rawValue)\">",
            "<h3><span class=\"severity\">\(card.severity.rawValue)</span> <span class=\"rule\">\(escapeHTML(card.rule.rawValue))</span> \(escapeHTML(rule?.api ?? "")) <span class=\"in\">in</span> <span class=\"image\" title=\"\(escapeHTML(card.image))\">\(escapeHTML(FileGrouping.place(name(card.image), slices: card.slices)))</span>\(role)</h3>",
        ]
        if !card.reached.isEmpty { parts.append(reach(card)) }
        let lead = rule.flatMap { rule in findings.contains { $0.message.contains(rule.message) } ? rule.message : nil }
        if let lead { parts.append("<p class=\"message\">\(escapeHTML(lead))</p>") }
        let mixed = Set(findings.map(\.severity)).count > 1
        let uses = findings.map { use($0, rule: lead == nil ? nil : rule, showingSeverity: mixed, cardSlices: card.slices) }
        parts.append("<ul class=\"uses\">\(uses.prefix(Self.shown).joined())</ul>")
        if uses.count > Self.shown {
            parts.append(
                "<details class=\"more\"><summary>\(uses.count - Self.shown) more</summary><ul class=\"uses\">\(uses.dropFirst(Self.shown).joined())</ul></details>"
            )
        }
        if let fixit = rule?.fixit ?? findings.first?.fixit, !fixit.isEmpty {
            parts.append("<p class=\"fixit\"><strong>Fix:</strong> \(escapeHTML(fixit))</p>")
        }
        var source: [String] = []
        if let text = rule?.source ?? findings.first?.source, !text.isEmpty { source.append("Source: \(escapeHTML(text))") }
        if let sdk = rule?.sdk { source.append("Marked in SDKs: \(escapeHTML(sdk.description))") }
        source.append("<a class=\"permalink\" href=\"#\(escapeHTML(card.id))\">#\(escapeHTML(card.id))</a>")
        parts.append("<p class=\"source\">\(source.joined(separator: " · "))</p>")
        return parts.joined(separator: "\n") + "\n</article>"
    }

    /// The images a card's problem travels to, with the severity it has on
    /// each and the images it goes through.
    func reach(_ card: FindingCard) -> String {
        // Extensions first, then by severity.
        let severity = { (image: String) in card.reached.filter { $0.image == image }.map(\.severity).max() ?? .note }
        let order = card.reachedImages.enumerated().sorted { lhs, rhs in
            let (left, right) = (images[lhs.element]?.role == .extension, images[rhs.element]?.role == .extension)
            if left != right { return left }
            let (first, second) = (severity(lhs.element), severity(rhs.element))
            return first != second ? first > second : lhs.offset < rhs.offset
        }.map(\.element)
        let chips = order.map { target -> String in
            let copies = card.reached.filter { $0.image == target }
            let level = severity(target)
            let reached = images[target]
            let role =
                reached.map { image in
                    image.role == .framework ? "" : " (\(image.extensionType.map { "\($0) extension" } ?? image.role.rawValue))"
                } ?? ""
            let through =
                copies.first.map { copy in
                    copy.chainImages.dropFirst().dropLast().map { images[$0]?.shortName ?? $0 }
                } ?? []
            let via = through.isEmpty ? "" : " through \(through.map(escapeHTML).joined(separator: " → "))"
            return
                "<span class=\"reach \(level.rawValue)\" data-image=\"\(escapeHTML(target))\"><strong>\(escapeHTML(name(target)))</strong>\(escapeHTML(role))\(via) <small>\(level.rawValue)</small></span>"
        }
        return "<p class=\"reaches\">Reaches \(chips.joined(separator: " "))</p>"
    }

    /// One finding on a card: what it is (its message without the rule's,
    /// which the card gives once), where it is called from and the path;
    /// its severity too when the card's findings differ in it, and the
    /// slices that hold it when they are not all the card's.
    func use(_ finding: Finding, rule: Rule?, showingSeverity: Bool, cardSlices: [String] = []) -> String {
        var text = finding.message
        if let rule, let range = text.range(of: ": " + rule.message) ?? text.range(of: rule.message) {
            text.removeSubrange(range)
        }
        if text.trimmingCharacters(in: .whitespaces).isEmpty { text = finding.demangled ?? finding.symbol ?? finding.message }
        var html = "<li class=\"use \(finding.severity.rawValue)\">"
        if showingSeverity { html += "<span class=\"level \(finding.severity.rawValue)\">\(finding.severity.rawValue)</span> " }
        if !finding.slices.isEmpty && finding.slices != cardSlices {
            html += "<span class=\"slices\">in \(escapeHTML(finding.slices.joined(separator: ", ")))</span> "
        }
        html += "<span class=\"what\"\(finding.symbol.map { " title=\"\(escapeHTML($0))\"" } ?? "")>\(escapeHTML(text))</span>"
        if !finding.callSites.isEmpty {
            let sites = finding.callSites.map { site in
                "<code title=\"\(escapeHTML(site.function ?? ""))\">\(escapeHTML(site.label))</code> at <code>0x\(String(site.address, radix: 16))</code>"
                    + (site.source.map(source) ?? "")
            }
            var calls = "<br><span class=\"label\">Called from</span> " + FindingAction.list(Array(sites.prefix(Self.shown)))
            if sites.count > Self.shown {
                calls =
                    "<br><span class=\"label\">Called from</span> " + sites.prefix(Self.shown).joined(separator: ", ")
                    + " <details class=\"more inline\"><summary>and \(sites.count - Self.shown) more</summary>\(sites.dropFirst(Self.shown).joined(separator: ", "))</details>"
            }
            html += calls
        }
        if !finding.path.isEmpty {
            html +=
                "<br><span class=\"label\">Path</span> " + finding.path.map { "<code>\(escapeHTML($0))</code>" }.joined(separator: " → ")
        }
        return html + "</li>"
    }

    /// Where a call was written: ` <span class="at">in <code
    /// class="place">FILE:LINE:COLUMN</code> <code class="line">the line,
    /// trimmed</code></span>` (the line when its file could be read), the
    /// file relative to ``sourceRoot``; for an inlined call, what it was
    /// inlined into (``InlinedCallWords``).
    func source(_ source: AddressSource) -> String {
        let place = { (position: SourcePosition) in SourceRoot.place(position, relativeTo: sourceRoot) }
        var html = " <span class=\"at\">in <code class=\"place\">\(escapeHTML(place(source.location)))</code>"
        if let line = excerpts.line(at: source.location) { html += " <code class=\"line\">\(escapeHTML(line))</code>" }
        if let inlining = inlined.words(source, place: place) { html += " <span class=\"inlined\">(\(escapeHTML(inlining)))</span>" }
        return html + "</span>"
    }
}
