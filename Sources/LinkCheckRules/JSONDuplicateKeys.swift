/// Keys that occur twice in one object of a JSON document, as
/// ``JSONSyntax/check(_:)`` finds them. `JSONSerialization` accepts such a
/// document and keeps one of the values, so a rule pack or configuration
/// with, say, two `severity` keys would silently lose one; RFC 8259 §4
/// leaves the behaviour to the parser. Keys are compared after their
/// escapes are decoded (`"a"` and `"\u0061"` are one key).
public enum JSONDuplicateKeys {
    /// One repeated key: its name and the JSON path of its second (or
    /// later) occurrence, `$.rules[2].severity`.
    public struct Duplicate: Sendable, Equatable {
        public var key: String
        public var jsonPath: String

        public init(key: String, jsonPath: String) {
            self.key = key
            self.jsonPath = jsonPath
        }

        /// What is wrong, for a problem report.
        public var problem: String {
            "key '\(key)' appears more than once in this object (only one of the values would be used)"
        }
    }
}
