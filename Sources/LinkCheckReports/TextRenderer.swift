import LinkCheckAnalysis
import LinkCheckImage
import LinkCheckInspection
import LinkCheckRules

/// Renders a ``Report`` as compiler-style diagnostics: first what each
/// bundle among the inputs holds (``BundleSummary/line``: `Photos.app: 1
/// app, 1 extension (PhotosShare, share), 6 embedded frameworks`), then one
/// line per finding (`PATH: SEVERITY: [RULE-ID] MESSAGE`, as clang and
/// swiftc print them, so editors and Xcode pick them up), then one line per
/// file that could not be inspected, per notice, what was passed over, and
/// a summary line.
public struct TextRenderer {
    /// Colour the severities with ANSI escapes (only for a terminal, and
    /// never when `NO_COLOR` is set: the caller decides).
    public var color: Bool
    /// Name every file skipped and every symbolic link not followed
    /// (`--verbose`); otherwise the summary counts them.
    public var verbose: Bool

    public init(color: Bool = false, verbose: Bool = false) {
        self.color = color
        self.verbose = verbose
    }

    public func render(_ report: Report) -> String {
        var lines = report.bundles.map { Self.oneLine($0.line) }
        for finding in report.findings {
            lines.append("\(Self.oneLine(finding.image)): \(label(finding.severity)) [\(finding.rule)] \(Self.oneLine(finding.message + Self.location(finding)))")
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
        lines.append(Self.summary(report))
        return lines.joined(separator: "\n") + "\n"
    }

    /// `1 rule`, `3 rules`: `number` and the English `noun`, plural unless
    /// it is 1.
    public static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }

    /// `linkcheck: 9 images (1 needs review, 1 incomplete), 3 errors, 1
    /// warning, 5 notes; 2 files skipped, 0 files failed`, then `, 3 links
    /// not followed` and `; 4 findings in the baseline` when there are any.
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
            lines.append("linkcheck: \(label(.note)) passed over \(Self.count(paths.count, "folder")) \(reason)\(consequence): \(paths.joined(separator: ", "))")
        }
        return lines
    }

    /// Where the finding's calls are: ` [called from F at 0x… and N more;
    /// path: A → B → API]`, or for a transitive finding the path inside the
    /// image that uses the API: ` [in libShareKit.so: A → B → API]`.
    static func location(_ finding: Finding) -> String {
        if finding.kind == .transitive {
            guard finding.path.count > 1, finding.chain.count >= 2 else { return "" }
            return " [in \(finding.chain[finding.chain.count - 2]): \(finding.path.joined(separator: " → "))]"
        }
        guard let first = finding.callSites.first else { return "" }
        let address = "0x" + String(first.address, radix: 16)
        let caller = first.function == nil ? "code at \(address) that no symbol covers" : "\(first.label) at \(address)"
        let more = finding.callSites.count > 1 ? " and \(finding.callSites.count - 1) more" : ""
        let path = finding.path.count > 1 ? "; path: \(finding.path.joined(separator: " → "))" : ""
        return " [called from \(caller)\(more)\(path)]"
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
        let code = switch severity {
        case .error: "1;31"
        case .warning: "1;35"
        case .note: "1;36"
        }
        return "\u{1B}[\(code)m\(text)\u{1B}[0m"
    }
}
