import LinkCheckAnalysis
import LinkCheckInspection
import LinkCheckRules

/// Renders a ``Report`` as compiler-style diagnostics, one line per finding
/// (`PATH: SEVERITY: [RULE-ID] MESSAGE`, as clang and swiftc print them, so
/// editors and Xcode pick them up), then one line per file that could not be
/// inspected, per notice, and a summary line.
public struct TextRenderer {
    /// Colour the severities with ANSI escapes (only for a terminal, and
    /// never when `NO_COLOR` is set: the caller decides).
    public var color: Bool

    public init(color: Bool = false) {
        self.color = color
    }

    public func render(_ report: Report) -> String {
        var lines: [String] = []
        for finding in report.findings {
            lines.append("\(finding.image): \(label(finding.severity)) [\(finding.rule)] \(finding.message)")
        }
        for error in report.errors {
            lines.append("\(error.path): \(label(.error)) cannot inspect: \(Self.reason(error))")
        }
        for notice in report.notices {
            lines.append("linkcheck: \(label(.warning)) \(notice)")
        }
        for remark in report.remarks {
            lines.append("linkcheck: \(label(.note)) \(remark)")
        }
        lines.append(Self.summary(report))
        return lines.joined(separator: "\n") + "\n"
    }

    /// `linkcheck: 9 images, 3 errors, 1 warning, 5 notes; 2 files skipped, 0 files failed`.
    public static func summary(_ report: Report) -> String {
        func count(_ number: Int, _ noun: String) -> String {
            "\(number) \(noun)\(number == 1 ? "" : "s")"
        }
        return "linkcheck: \(count(report.images.count, "image")), "
            + "\(count(report.count(.error), "error")), \(count(report.count(.warning), "warning")), "
            + "\(count(report.count(.note), "note")); "
            + "\(count(report.skipped.count, "file")) skipped, \(count(report.errors.count, "file")) failed"
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
