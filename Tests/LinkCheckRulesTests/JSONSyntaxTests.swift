import Foundation
import LinkCheckRules
import Testing

/// The strict JSON syntax check the readers of rule packs, `linkcheck.json`
/// and symbol graphs share: RFC 8259 exactly, errors with line and column.
@Suite struct JSONSyntaxTests {
    static func error(_ text: String) -> JSONSyntaxError? {
        do {
            _ = try JSONSyntax.check(Data(text.utf8))
            return nil
        } catch {
            return error
        }
    }

    @Test func trailingCommasAreRejectedThoughJSONSerializationTakesThem() throws {
        // The reason for the check: Foundation reads both without a word.
        #expect(try JSONSerialization.jsonObject(with: Data(#"{"a": [1, 2,],}"#.utf8)) is [String: Any])
        #expect(
            Self.error("{\"a\": [1, 2,]}")
                == JSONSyntaxError(
                    line: 1, column: 12, reason: "trailing comma: JSON allows no comma after the last element of an array"))
        #expect(
            Self.error("{\n  \"a\": 1,\n}")
                == JSONSyntaxError(
                    line: 2, column: 9, reason: "trailing comma: JSON allows no comma after the last member of an object"))
    }

    @Test(
        arguments: [
            ("", 1, 1, "the file is empty: expected a JSON value"),
            ("{\"a\": 01}", 1, 7, "a number cannot start with 0 unless it is 0 (no leading zeros in JSON)"),
            ("{'a': 1}", 1, 2, "expected a key in double quotes, found \"'\" (strings and keys need double quotes)"),
            ("{\"a\": 1} // note", 1, 10, "unexpected '/' after the JSON value: a JSON file holds one value (JSON has no comments)"),
            ("{\"a\": True}", 1, 7, "unknown word 'True': JSON's words are true, false and null, and strings need double quotes"),
            ("{\"a\" 1}", 1, 6, "expected ':' after the key \"a\", found '1'"),
            ("[\"tab\there\"]", 1, 6, "a control character (U+0009) in a string: write it as an escape such as \\n, \\t or \\u0009"),
            ("[\"\\x\"]", 1, 3, "invalid escape '\\x' (JSON has \\\", \\\\, \\/, \\b, \\f, \\n, \\r, \\t and \\uXXXX)"),
            ("[\"\\udc00\"]", 1, 3, "\\uDC00 is the second half of a surrogate pair without a first half"),
            ("{\"a\": [1 2]}", 1, 10, "expected ',' or ']' after $.a[0], found '2'"),
            ("{\"a\": {\"b\": 1 \"c\": 2}}", 1, 15, "expected ',' or '}' after the value of $.a.b, found '\"'"),
            ("[1,\n 2", 2, 3, "unexpected end of file: expected ',' or ']'"),
            ("{\"é\": \"é\", \"b\": }", 1, 17, "expected a value, found '}'"),
            ("[\"never closed]", 1, 2, "unterminated string (it starts here)"),
            ("[-]", 1, 3, "expected a digit after '-'"),
            ("[1.]", 1, 4, "expected a digit after the decimal point"),
        ] as [(String, Int, Int, String)])
    func everySyntaxErrorHasALineColumnAndAPlainReason(text: String, line: Int, column: Int, reason: String) {
        #expect(Self.error(text) == JSONSyntaxError(line: line, column: column, reason: reason))
    }

    @Test func validTextPassesAndItsDuplicateKeysAreFound() throws {
        let text = #"{"a": [1, -0.5e+3, true, false, null, "\u00e9\ud83d\ude00\n"], "b": {}, "c": [], "a": {"x": 1, "\u0078": 2}}"#
        #expect(
            try JSONSyntax.check(Data(text.utf8)) == [
                JSONDuplicateKeys.Duplicate(key: "a", jsonPath: "$.a"),
                JSONDuplicateKeys.Duplicate(key: "x", jsonPath: "$.a.x"),
            ])
        // A byte order mark and a scalar at the top are fine.
        #expect(try JSONSyntax.parse(Data([0xEF, 0xBB, 0xBF] + Array(#""text""#.utf8))).document as? String == "text")
    }

    @Test func deepNestingIsAnErrorNotACrash() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(Self.error(deep) == JSONSyntaxError(line: 1, column: 513, reason: "arrays and objects nest more than 512 levels deep"))
        let fine = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(Self.error(fine) == nil)
    }

    @Test func textThatIsNotUTF8() {
        var bytes = Array("[\"ab".utf8) + [0xC3] + Array("\"]".utf8)
        #expect(throws: JSONSyntaxError(line: 1, column: 5, reason: "the text is not valid UTF-8 here")) {
            try JSONSyntax.check(Data(bytes))
        }
        bytes = [0xFF]
        #expect(throws: JSONSyntaxError(line: 1, column: 1, reason: "expected a value, found byte 0xFF")) {
            try JSONSyntax.check(Data(bytes))
        }
    }
}
