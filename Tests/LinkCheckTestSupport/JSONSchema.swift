import Foundation

/// JSON documents checked against a JSON Schema with Python's
/// `jsonschema`: the schemas in `Documentation/`
/// (`check-report.schema.json`, `linkcheck-config.schema.json`) and
/// SARIF's.
public enum JSONSchema {
    /// Python's `jsonschema` can be imported (the tests that validate are
    /// skipped without it).
    public static var isAvailable: Bool {
        (try? Command.capture("python3", ["-c", "import jsonschema"]).status) == 0
    }

    /// The path of the schema `Documentation/<name>`.
    public static func documented(_ name: String) -> String {
        Fixtures.repositoryRoot.appendingPathComponent("Documentation").appendingPathComponent(name).path
    }

    /// `jsonschema.validate` of the JSON file `document` against the
    /// schema file `schema`: status 0 when it matches, else non-zero with
    /// the reason on standard error.
    public static func validate(_ document: String, against schema: String) throws -> CommandOutput {
        try Command.capture(
            "python3",
            [
                "-c",
                """
                import json, sys, jsonschema
                jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])))
                """, document, schema,
            ])
    }
}
