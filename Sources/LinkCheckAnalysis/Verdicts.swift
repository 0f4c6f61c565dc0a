import LinkCheckImage
import LinkCheckRules

/// An image's verdict from the findings the report lists for it
/// (``Verdict``): `unsafe` exactly when one of them is an error other than
/// a completeness one; `incomplete` when it, or an image it links, could be
/// read only in part; `app-only` when it has unsafe findings that its role
/// made notes (only the containing app runs it); `needs-review` when a
/// warning about a use by name is listed for it
/// (``Finding/APIUseEvidence/review``);
/// else `extension-safe`.
enum Verdicts {
    static func verdict(findings: [Finding], appOnly: Bool) -> Verdict {
        if findings.contains(where: { $0.severity == .error && !BuiltInRules.isCompleteness($0.rule) }) { return .unsafe }
        if findings.contains(where: { BuiltInRules.isCompleteness($0.rule) }) { return .incomplete }
        let usesUnsafeAPI = findings.contains { $0.rule == BuiltInRules.unsafeLoad.id || $0.apiUse == .use }
        if usesUnsafeAPI && appOnly { return .appOnly }
        return findings.contains { $0.apiUse == .review } ? .needsReview : .extensionSafe
    }

    /// `reports` with each extension that a bundle error (BNDL001…) of an
    /// image it links or loads (``ImageReport/reachedBy``) would stop at
    /// launch made `unsafe`, whatever its own findings: dyld does not run
    /// it. (The extension's own bundle errors make it unsafe already.)
    static func launchBlocked(_ reports: [ImageReport], findings: [Finding]) -> [ImageReport] {
        let blocking = Set(findings.filter { $0.category == .bundle && $0.severity == .error }.map(\.image))
        let blocked = Set(reports.filter { blocking.contains($0.name) }.flatMap(\.reachedBy))
        return reports.map { report in
            var report = report
            if report.role == .extension, blocked.contains(report.name) { report.verdict = .unsafe }
            return report
        }
    }
}
