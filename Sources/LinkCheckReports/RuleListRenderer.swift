import LinkCheckRules

/// Renders rules for `linkcheck rules list`: one line per rule, then its
/// matchers, grouped by pack.
public enum RuleListRenderer {
    public static func text(packs: [(name: String, version: String, rules: [Rule])]) -> String {
        var lines: [String] = []
        for pack in packs {
            lines.append("\(pack.name) \(pack.version) (\(TextRenderer.count(pack.rules.count, "rule")))")
            for rule in pack.rules {
                let allowed = rule.allowedIn.isEmpty ? "" : "  allowed in: \(rule.allowedIn.joined(separator: ", "))"
                lines.append("  \(rule.id)  \(rule.severity.rawValue)  \(rule.category.rawValue)  \(rule.api)\(allowed)")
                for matcher in rule.matchers {
                    lines.append("      \(matcher)")
                }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
