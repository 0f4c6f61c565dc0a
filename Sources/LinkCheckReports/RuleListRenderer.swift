import LinkCheckRules

/// Renders rules for `linkcheck rules list`: one line per rule, then its
/// matchers and SDK range, and with `examples` its examples, grouped by
/// pack.
public enum RuleListRenderer {
    public static func text(packs: [(name: String, version: String, rules: [Rule])], examples: Bool = false) -> String {
        var lines: [String] = []
        for pack in packs {
            lines.append("\(pack.name) \(pack.version) (\(TextRenderer.count(pack.rules.count, "rule")))")
            for rule in pack.rules {
                let allowed = rule.allowedIn.isEmpty ? "" : "  allowed in: \(rule.allowedIn.map(\.rawValue).joined(separator: ", "))"
                lines.append("  \(rule.id)  \(rule.severity.rawValue)  \(rule.category.rawValue)  \(rule.api)\(allowed)")
                for matcher in rule.matchers {
                    lines.append("      \(matcher)")
                }
                if let sdk = rule.sdk {
                    lines.append("      marked in SDKs: \(sdk)")
                }
                guard examples else { continue }
                for (heading, list) in [("triggers", rule.examples.triggering), ("does not trigger", rule.examples.nonTriggering)] {
                    for example in list {
                        lines.append("      \(heading) (\(example.summary)):")
                        lines += example.code.split(separator: "\n", omittingEmptySubsequences: false).map {
                            $0.isEmpty ? "" : "          \($0)"
                        }
                    }
                }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
