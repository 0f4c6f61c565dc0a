import LinkCheckImage
import LinkCheckRules

/// An image's verdict from the findings the report lists for it
/// (``Verdict``): `unsafe` exactly when one of them is an error other than
/// a completeness one; `incomplete` when it, or an image it links, could be
/// read only in part; `app-only` when it has unsafe findings that its role
/// made notes (only the containing app runs it); `needs-review` when a
/// warning about a use by name is listed for it (``Finding/needsReview``);
/// else `extension-safe`.
enum Verdicts {
    static func verdict(findings: [Finding], appOnly: Bool) -> Verdict {
        if findings.contains(where: { $0.severity == .error && !BuiltInRules.isCompleteness($0.rule) }) { return .unsafe }
        if findings.contains(where: { BuiltInRules.isCompleteness($0.rule) }) { return .incomplete }
        let usesUnsafeAPI = findings.contains { $0.rule == BuiltInRules.unsafeLoad.id || $0.showsUnavailableAPIUse }
        if usesUnsafeAPI && appOnly { return .appOnly }
        return findings.contains(where: \.needsReview) ? .needsReview : .extensionSafe
    }
}
