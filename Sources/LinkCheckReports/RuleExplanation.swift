import LinkCheckRules

/// Renders a rule for `linkcheck rules explain ID`: the line the text
/// output ends with for it (``TextRenderer/explanation(_:)``: `[AEX001]
/// MESSAGE; fix: FIXIT`), then what the rule is (its API, severity,
/// category and pack), where the restriction comes from, the SDKs that
/// mark it and the extension types that allow it anyway.
public enum RuleExplanation {
    /// ```
    /// [AEX001] UIApplication.shared is unavailable in app extensions, …; fix: Pass in …
    ///   api: UIApplication.shared (error, unavailable-api; pack app-extension-unavailable)
    ///   source: UIKit UIApplication.h: …
    ///   marked in SDKs: iOS 9.3 to 26.5
    /// ```
    public static func text(_ rule: Rule) -> String {
        var lines = [
            TextRenderer.explanation(rule),
            "  api: \(rule.api) (\(rule.severity.rawValue), \(rule.category.rawValue)\(rule.pack.isEmpty ? "" : "; pack \(rule.pack)"))",
            "  source: \(rule.source)",
        ]
        if let sdk = rule.sdk { lines.append("  marked in SDKs: \(sdk)") }
        if !rule.allowedIn.isEmpty { lines.append("  allowed in: \(rule.allowedIn.map(\.rawValue).joined(separator: ", ")) extensions") }
        return lines.joined(separator: "\n") + "\n"
    }
}
