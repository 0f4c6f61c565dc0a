import Foundation

/// Writes a ``RulePack`` in rule-pack format 1 (`Rules/README.md`), so that
/// ``RulePackLoader`` reads back the same pack.
public enum RulePackWriter {
    public static func json(_ pack: RulePack) -> Data {
        var document: [String: Any] = ["format": pack.format, "name": pack.name, "version": pack.version]
        document["description"] = pack.description
        document["rules"] = pack.rules.map { rule -> [String: Any] in
            var entry: [String: Any] = [
                "id": rule.id, "api": rule.api, "category": rule.category.rawValue, "severity": rule.severity.rawValue,
                "match": rule.matchers.map { [$0.kind: $0.pattern] }, "message": rule.message, "fixit": rule.fixit,
                "source": rule.source,
            ]
            if !rule.allowedIn.isEmpty { entry["allowedIn"] = rule.allowedIn }
            entry["sdk"] = rule.sdk
            return entry
        }
        let data = (try? JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return data + Data("\n".utf8)
    }
}
