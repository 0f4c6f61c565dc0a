import LinkCheckAnalysis
import LinkCheckRules

/// One finding as a line of the text output, short enough to read at a
/// glance: `PLACE: SEVERITY: [ID] WHAT FROM WHY`, as
/// `…/Uploader.framework/Uploader: error: [AEX001] calls +[UIApplication
/// sharedApplication] from -[UPUploader retry:] → present_login (linked by
/// PhotosShare)`. What the rule explains and how to fix it is said once per
/// rule (``TextRenderer``'s notes, `linkcheck rules explain`), and the JSON
/// document keeps the finding's full message.
struct FindingLine {
    let report: Report
    let answer: ReportAnswer
    let inlined = InlinedCallWords()

    init(_ report: Report, answer: ReportAnswer? = nil) {
        self.report = report
        self.answer = answer ?? ReportAnswer(report)
    }

    /// Where the finding is: the file of its image (``Finding/image``, with
    /// the slice and member), and for a finding of a collapsed report the
    /// slices of the fat file that hold it (``Finding/slices``:
    /// `…/SVProgressHUD (arm64, armv7, i386, x86_64)`). The one place a
    /// line names its file.
    func place(_ finding: Finding) -> String {
        TextRenderer.oneLine(FileGrouping.place(finding.image, slices: finding.slices))
    }

    /// Where in the source the finding is (``Finding/sourceCallSite``):
    /// `path:line:column` (`path:line` without a column), the path relative
    /// to `root` when it lies inside it; `nil` when the finding has no
    /// source.
    func source(_ finding: Finding, relativeTo root: SourceRoot?) -> String? {
        guard let position = finding.sourceCallSite?.source?.location else { return nil }
        return TextRenderer.oneLine(SourceRoot.place(position, relativeTo: root))
    }

    /// The line after the severity: `[AEX001]`, what the image does (the
    /// API it uses, or the finding's own words), where (``calls(_:)``; for
    /// a transitive finding whose origin is listed, the images on the way
    /// instead, as the origin's line names the calls) and why it matters
    /// (what follows the rule's message in the finding's, and the
    /// extensions that link the image); when the call the finding is placed
    /// at (``Finding/sourceCallSite``) was inlined, what it was inlined
    /// into (``InlinedCallWords``: `(written in load_plugin, inlined into
    /// start at loader.c:8:20)`).
    func text(_ finding: Finding) -> String {
        let rule = report.rules[finding.rule]
        let origin = answer.origin(of: finding)
        let action = answer.action(of: finding)
        let detail = finding.ownWords(rule: rule)
        var what = detail + calls(finding, unlessNamedIn: detail)
        var usesAPI = false
        if let object = action.object, !finding.unconfirmed {
            usesAPI = true
            let shown =
                switch (origin ?? finding).kind {
                case .stringLiteral: "\"\(object)\""
                case .staticCall: "\(object) (a copy linked into \(origin == nil ? "this image" : "it"))"
                default: object
                }
            what = "\(action.verb.words) \(shown)"
            // A copy names the images on the way; its origin's own line
            // names the calls.
            if origin != nil, finding.chain.count > 2 {
                what = "links \(finding.chain.dropFirst().dropLast().joined(separator: " → ")), which \(what)"
            } else {
                what += calls(finding)
            }
        }
        var why = finding.remarkWords
        if usesAPI, finding.severity != .note, let image = answer.images[finding.image], image.role == .framework {
            let extensions = image.reachedBy.compactMap { answer.images[$0] }.filter { $0.role == .extension }.map(\.shortName)
            if !extensions.isEmpty { why += " (linked by \(FindingAction.list(extensions)))" }
        }
        if let source = finding.sourceCallSite?.source, let inlining = inlined.words(source) { why += " (\(inlining))" }
        return "[\(finding.rule)] " + TextRenderer.oneLine(what + why)
    }

    /// The code that makes the finding: ` from A → B → C`, the call path
    /// from an exported function to the calling function, or the calling
    /// function alone; then how many other functions call too (` and 1
    /// more caller`). Empty without call sites, and when the calling
    /// function alone would be said and `words` name it already
    /// (`pluginhost_load_decoder calls dlopen without a run-time OS version
    /// check`).
    func calls(_ finding: Finding, unlessNamedIn words: String = "") -> String {
        let callers = finding.callingFunctions.map { site in
            site.function == nil ? "code at 0x\(String(site.address, radix: 16)) that no symbol covers" : site.label
        }
        guard let first = callers.first else { return "" }
        let functions = finding.path.count > 1 ? Array(finding.path.dropLast()) : [first]
        // callingFunctions puts the path's caller first; two functions of
        // one name (a static helper in each of two files) are two callers.
        let others = callers.count - (first == functions.last ? 1 : 0)
        if functions.count == 1, others == 0, words.contains(first) { return "" }
        return " from " + functions.joined(separator: " → ") + (others > 0 ? " and \(TextRenderer.count(others, "more caller"))" : "")
    }
}
