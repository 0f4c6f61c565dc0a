import Foundation

/// Writes a ``RulePack`` in rule-pack format 1 (`Rules/README.md`), so that
/// ``RulePackLoader`` reads back the same pack.
public enum RulePackWriter {
    public static func json(_ pack: RulePack) -> Data {
        var document: [String: Any] = ["format": pack.format, "name": pack.name, "version": pack.version]
        document["description"] = pack.description
        document["rules"] = pack.rules.map { rule -> [String: Any] in
            var entry: [String: Any] = [
                "id": rule.id.rawValue, "api": rule.api, "category": rule.category.rawValue, "severity": rule.severity.rawValue,
                "match": rule.matchers.map { [$0.kind: $0.pattern] }, "message": rule.message, "fixit": rule.fixit,
                "source": rule.source,
            ]
            if !rule.allowedIn.isEmpty { entry["allowedIn"] = rule.allowedIn.map(\.rawValue) }
            if let sdk = rule.sdk {
                var range = ["platform": sdk.platform.rawValue, "markedFrom": sdk.markedFrom.description]
                range["markedUntil"] = sdk.markedUntil?.description
                range["unmarkedFrom"] = sdk.unmarkedFrom?.description
                entry["sdk"] = range
            }
            if rule.examples != RuleExamples() {
                entry["examples"] = [
                    "triggering": rule.examples.triggering.map(json), "nonTriggering": rule.examples.nonTriggering.map(json),
                ]
            }
            return entry
        }
        let data =
            (try? JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]))
            ?? Data()
        return data + Data("\n".utf8)
    }

    static func json(_ example: RuleExample) -> [String: Any] {
        var entry: [String: Any] = ["language": example.language.rawValue, "format": example.format.rawValue, "code": example.code]
        entry["extension"] = example.extensionType?.rawValue
        if example.appOnly { entry["appOnly"] = true }
        if !example.libraries.isEmpty { entry["libraries"] = example.libraries }
        entry["objcRuntime"] = example.objcRuntime?.rawValue
        entry["platform"] = example.platform?.rawValue
        entry["minimumOS"] = example.minimumOS?.description
        entry["sdk"] = example.sdk?.description
        entry["severity"] = example.severity?.rawValue
        return entry
    }
}
