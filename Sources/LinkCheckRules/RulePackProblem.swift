/// One thing wrong with a rule pack, located by file and JSON path
/// (`$.rules[3].match[0].glob`).
public struct RulePackProblem: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The file could not be read; `reason` is the system's message.
        case unreadable(reason: String)
        /// The file is not valid JSON; `reason` is the parser's message.
        case invalidJSON(reason: String)
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
        case duplicateID(String, firstSeen: String)
        /// A glob that cannot be a valid `fnmatch(3)` pattern.
        case badGlob(String, reason: String)
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

    public var description: String {
        let what: String
        switch kind {
        case .unreadable(let reason): what = "cannot read: \(reason)"
        case .invalidJSON(let reason): what = "invalid JSON: \(reason)"
        case .unsupportedFormat(let format): what = "unsupported format \(format) (this linkcheck reads format 1)"
        case .unknownKey(let key): what = "unknown key '\(key)'"
        case .duplicateKey(let duplicate): what = duplicate.problem
        case .missingField(let key): what = "missing required field '\(key)'"
        case .wrongType(let expected): what = "expected \(expected)"
        case .invalidValue(let reason): what = reason
        case .duplicateID(let id, let first): what = "duplicate rule id '\(id)' (first defined in \(first))"
        case .badGlob(let pattern, let reason): what = "bad glob '\(pattern)': \(reason)"
        }
        return "\(file): \(jsonPath): \(what)"
    }
}
