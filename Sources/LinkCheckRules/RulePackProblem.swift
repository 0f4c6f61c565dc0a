/// One thing wrong with a rule pack, located by file and JSON path
/// (`$.rules[3].match[0].glob`), or by file, line and column for text that
/// is not JSON.
public struct RulePackProblem: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The file could not be read; `reason` is the system's message.
        case unreadable(reason: String)
        /// The file is not valid JSON (``JSONSyntax``): where, and why.
        case invalidJSON(JSONSyntaxError)
        /// A rule pack that a configuration names (the problem's `file`
        /// and `jsonPath`) could not be read; `reason` is the system's
        /// message.
        case unreadablePack(path: String, reason: String)
        /// `format` is not a version this linkcheck reads.
        case unsupportedFormat(Int)
        /// A key the format does not define.
        case unknownKey(String)
        /// A key that occurs twice in one object (``JSONDuplicateKeys``).
        case duplicateKey(JSONDuplicateKeys.Duplicate)
        /// A required key is absent.
        case missingField(String)
        /// A value of the wrong JSON type; `expected` names the right one.
        case wrongType(expected: String)
        /// A value outside the allowed set or shape.
        case invalidValue(String)
        /// The rule id is used twice; `firstSeen` is the file that used it
        /// first.
        case duplicateID(RuleID, firstSeen: String)
        /// A glob that cannot be a valid `fnmatch(3)` pattern.
        case badGlob(String, reason: String)
        /// The rule has no example of these kinds (`triggering`,
        /// `nonTriggering`) (``RulePack/exampleProblems``).
        case missingExamples(rule: RuleID, [String])
    }

    /// The rule-pack file.
    public var file: String
    /// Where in the document: `$` is the root.
    public var jsonPath: String
    public var kind: Kind

    public init(file: String, jsonPath: String, kind: Kind) {
        self.file = file
        self.jsonPath = jsonPath
        self.kind = kind
    }

    /// `FILE: JSONPATH: what is wrong`, or `FILE:LINE:COLUMN: invalid JSON: …`.
    public var description: String {
        if case .invalidJSON(let error) = kind { return "\(file):\(error.line):\(error.column): \(problem)" }
        return "\(file): \(jsonPath): \(problem)"
    }

    /// The problem as an error line: `FILE: error: JSONPATH: what is wrong`,
    /// or `FILE:LINE:COLUMN: error: invalid JSON: …` (as compilers write
    /// them, so editors jump there).
    public var errorLine: String {
        if case .invalidJSON(let error) = kind { return "\(file):\(error.line):\(error.column): error: \(problem)" }
        return "\(file): error: \(jsonPath): \(problem)"
    }

    /// The problem as a warning line: `FILE: warning: JSONPATH: what is wrong`.
    public var warningLine: String {
        "\(file): warning: \(jsonPath): \(problem)"
    }

    /// What is wrong, without the location.
    public var problem: String {
        switch kind {
        case .unreadable(let reason): "cannot read: \(reason)"
        case .invalidJSON(let error): "invalid JSON: \(error.reason)"
        case .unreadablePack(let path, let reason): "cannot read the rule pack \(path): \(reason)"
        case .unsupportedFormat(let format): "unsupported format \(format) (this linkcheck reads format 1)"
        case .unknownKey(let key): "unknown key '\(key)'"
        case .duplicateKey(let duplicate): duplicate.problem
        case .missingField(let key): "missing required field '\(key)'"
        case .wrongType(let expected): "expected \(expected)"
        case .invalidValue(let reason): reason
        case .duplicateID(let id, let first): "duplicate rule id '\(id)' (first defined in \(first))"
        case .badGlob(let pattern, let reason): "bad glob '\(pattern)': \(reason)"
        case .missingExamples(let rule, let kinds):
            "rule \(rule) has no \(kinds.joined(separator: " and no ")) example: examples show what the rule finds and what it leaves alone, and the shipped packs' are tests"
        }
    }
}
