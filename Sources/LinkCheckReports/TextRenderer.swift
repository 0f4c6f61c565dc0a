import LinkCheckAnalysis
import LinkCheckImage
import LinkCheckInspection
import LinkCheckRules

/// Renders a ``Report`` as compiler-style diagnostics: first what each
/// bundle among the inputs holds (``BundleSummary/line``: `Photos.app: 1
/// app, 1 extension (PhotosShare, share), 6 embedded frameworks`), then the
/// answer (``ReportAnswer``): for an app App Store Connect would refuse,
/// `Photos.app: would be rejected on upload: ITMS-90087 (below)`, then one
/// verdict line per extension (and per
/// image that is not extension-safe without roles): `PhotosShare.appex
/// (share extension): unsafe — SyncKit.framework links Uploader.framework,
/// which calls +[UIApplication sharedApplication] from present_login; 1
/// more cause`; then one short line per finding (``FindingLine``: `PATH:
/// SEVERITY: [RULE-ID] WHAT FROM WHY`, as clang and swiftc print them, so
/// editors and Xcode pick them up; when the image's debug information gives
/// the call's source, `FILE:LINE:COLUMN: SEVERITY: [RULE-ID] WHAT FROM WHY
/// (in PATH)`), one line per file that could not be
/// inspected, per notice, what was passed over, each cited rule's
/// explanation and fix-it once (`note: [AEX001] …; fix: …`), and a summary
/// line. A fat file is one image (``FileGrouping/collapsed(_:)``): one
/// verdict line, and one line per finding with the slices that hold it
/// (`…/SVProgressHUD (arm64, armv7, i386, x86_64): error: [AEX001] …`).
public struct TextRenderer: ReportRenderer {
    /// Colour the severities with ANSI escapes (only for a terminal, and
    /// never when `NO_COLOR` is set: the caller decides).
    public var color: Bool
    /// Name every file skipped and every symbolic link not followed
    /// (`--verbose`); otherwise the summary counts them.
    public var verbose: Bool
    /// The folder source paths are shown relative to, when they lie inside
    /// it (`--source-root`; the CLI's default: the current directory);
    /// `nil`: as the debug information gives them.
    public var sourceRoot: SourceRoot?

    public init(color: Bool = false, verbose: Bool = false, sourceRoot: SourceRoot? = nil) {
        self.color = color
        self.verbose = verbose
        self.sourceRoot = sourceRoot
    }

    public func render(_ report: Report) -> String {
        let report = FileGrouping(report).collapsed(report)
        var lines = report.bundles.map { Self.oneLine($0.line) }
        let answer = ReportAnswer(report)
        // Only verdict lines name images by label: a report without any
        // does not need the labels.
        lazy var labels = ImageLabels(report.images)
        for group in answer.groups {
            let refusals = answer.uploadRefusals(for: group.images)
            if !refusals.isEmpty {
                lines.append(
                    Self.oneLine("\(group.bundle ?? "linkcheck"): \(Self.rejectedOnUpload) \(refusals.joined(separator: ", ")) (below)"))
            } else if let bundle = group.bundle, answer.passesBundleChecks(group.images) {
                lines.append(Self.oneLine("\(bundle): \(Self.passesBundleChecks)"))
            }
            // The bundle checks alone match no API: no verdict is theirs.
            guard report.scope == .all else { continue }
            lines += answer.lines(for: group.images).map { Self.oneLine(Self.verdictLine($0, label: labels[$0.image.name])) }
        }
        let findingLines = FindingLine(report, answer: answer)
        for finding in FileGrouping.foldingPartialInspection(report.findings) {
            let (severity, text, place) = (label(finding.severity), findingLines.text(finding), findingLines.place(finding))
            if let source = findingLines.source(finding, relativeTo: sourceRoot) {
                lines.append("\(source): \(severity) \(text) (in \(place))")
            } else {
                lines.append("\(place): \(severity) \(text)")
            }
        }
        for error in report.errors {
            lines.append(Self.errorLine(error, label: label(.error)))
        }
        for notice in report.notices {
            lines.append("linkcheck: \(label(.warning)) \(notice)")
        }
        for remark in report.remarks {
            lines.append("linkcheck: \(label(.note)) \(remark)")
        }
        lines += passedOver(report.skipped, failing: true)
        lines += ruleNotes(report)
        lines.append(Self.summary(report))
        return lines.joined(separator: "\n") + "\n"
    }

    /// What the answer says, before the extensions' verdicts, of an app App
    /// Store Connect would refuse, followed by the codes:
    /// `Shop.app: would be rejected on upload: ITMS-90087, ITMS-90685`.
    static let rejectedOnUpload = "would be rejected on upload:"

    /// What the answer of `--only bundle` says of a bundle with no upload
    /// refusal, in a run that read every input whole.
    static let passesBundleChecks = "passes the bundle checks (--only bundle: no API was checked)"

    /// `1 rule`, `3 rules`: `number` and the English `noun`, plural unless
    /// it is 1.
    public static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }

    /// `linkcheck: 9 images (1 needs review, 1 incomplete), 3 errors, 1
    /// warning, 5 notes; 2 files skipped, 0 files failed`, then `, 3 links
    /// not followed` and `; 4 findings in the baseline` when there are any.
    /// Of a collapsed report (``FileGrouping/collapsed(_:)``), as the text
    /// and HTML outputs give it, a fat file counts as one image and a
    /// finding as one, whatever the slices that hold it.
    public static func summary(_ report: Report) -> String {
        let verdicts = [(report.count(.needsReview), "needs review"), (report.count(.incomplete), "incomplete")]
            .filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }
        let links = report.skipped(.link).count
        return "linkcheck: \(count(report.images.count, "image"))\(verdicts.isEmpty ? "" : " (\(verdicts.joined(separator: ", ")))"), "
            + "\(count(report.count(.error), "error")), \(count(report.count(.warning), "warning")), "
            + "\(count(report.count(.note), "note")); "
            + "\(count(report.skipped(.file).count, "file")) skipped, \(count(report.errors.count, "file")) failed"
            + (links == 0 ? "" : ", \(count(links, "link")) not followed")
            + (report.baselined.isEmpty ? "" : "; \(count(report.baselined.count, "finding")) in the baseline")
    }

    /// What was passed over, for the lines before the summary: with
    /// ``verbose``, each file skipped and each link not followed
    /// (`d/root: note: not followed: a symbolic link to /, outside the
    /// given paths`); always one line per reason naming the folders not
    /// walked (`linkcheck: note: passed over 2 folders nested deeper than
    /// 64 directories: a/…, b/…`); for a check's report (`failing`), which
    /// those folders make exit with status 2, the line says so
    /// (`… 64 directories, whose files are not read (exit status 2): a/…`).
    public func passedOver(_ skipped: [SkippedEntry], failing: Bool = false) -> [String] {
        var lines: [String] = []
        if verbose {
            for entry in skipped where entry.kind != .folder {
                let what = entry.kind == .link ? "not followed" : "skipped"
                lines.append("\(Self.oneLine(entry.path)): \(label(.note)) \(what): \(Self.oneLine(entry.reason))")
            }
        }
        let folders = skipped.filter { $0.kind == .folder }
        var reasons: [String] = []
        for folder in folders where !reasons.contains(folder.reason) { reasons.append(folder.reason) }
        for reason in reasons {
            let paths = folders.filter { $0.reason == reason }.map { Self.oneLine($0.path) }
            let consequence = failing ? ", whose files are not read (exit status 2)" : ""
            lines.append(
                "linkcheck: \(label(.note)) passed over \(Self.count(paths.count, "folder")) \(reason)\(consequence): \(paths.joined(separator: ", "))"
            )
        }
        return lines
    }

    /// An answer's line: `PhotosShare.appex (share extension): unsafe —
    /// SyncKit.framework links Uploader.framework, which calls
    /// +[UIApplication sharedApplication] from present_login; 1 more
    /// cause`, after what an incomplete image could not be read of
    /// (``ReportAnswer/Line/partial``), or for an image without either
    /// what it is safe of. `label`
    /// is the image's (``ImageLabels``); the verdict is
    /// ``Verdict``'s raw value.
    static func verdictLine(_ line: ReportAnswer.Line, label: String) -> String {
        VerdictLineMarkup(
            words: { $0 }, label: { $0 }, note: { "(\($0))" }, verdict: \.rawValue,
            causes: { causes in
                causes.first.map {
                    $0.sentence() + (causes.count > 1 ? "; \(count(causes.count - 1, "more cause"))" : "")
                }
            }
        ).write(line, label: label)
    }

    /// Each rule the findings cite, once, in id order, with its
    /// explanation and fix-it, as clang's notes follow its diagnostics:
    /// `note: [AEX001] UIApplication.shared is unavailable in app
    /// extensions, because …; fix: …`.
    func ruleNotes(_ report: Report) -> [String] {
        Set(report.findings.map(\.rule)).sorted().compactMap { id in
            report.rules[id].map { "\(label(.note)) \(Self.oneLine(Self.explanation($0)))" }
        }
    }

    /// `[AEX001] MESSAGE; fix: FIXIT`: a rule's explanation on one line
    /// (the message without its final full stop).
    public static func explanation(_ rule: Rule) -> String {
        let message = rule.message.hasSuffix(".") ? String(rule.message.dropLast()) : rule.message
        return "[\(rule.id)] \(message); fix: \(rule.fixit)"
    }

    /// A diagnostic kept on one line: control characters in paths or names
    /// (a newline in a file name) are written as escapes.
    static func oneLine(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f }) else { return text }
        return text.unicodeScalars.map { scalar in
            scalar.value < 0x20 || scalar.value == 0x7f ? "\\u{\(String(scalar.value, radix: 16))}" : String(scalar)
        }.joined()
    }

    /// `path: error: cannot inspect: reason`, on one line, for a file that
    /// could not be inspected (as `render` lists it; `label` is the
    /// possibly coloured `error:`).
    public static func errorLine(_ error: InspectionError, label: String = "error:") -> String {
        "\(oneLine(error.path)): \(label) cannot inspect: \(oneLine(reason(error)))"
    }

    /// The error's text without the leading path.
    static func reason(_ error: InspectionError) -> String {
        let text = error.description
        let prefix = error.path + ": "
        return text.hasPrefix(prefix) ? String(text.dropFirst(prefix.count)) : text
    }

    private func label(_ severity: Severity) -> String {
        let text = "\(severity.rawValue):"
        guard color else { return text }
        let code =
            switch severity {
            case .error: "1;31"
            case .warning: "1;35"
            case .note: "1;36"
            }
        return "\u{1B}[\(code)m\(text)\u{1B}[0m"
    }
}
