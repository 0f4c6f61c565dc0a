import Foundation

/// The strict reading of the JSON files people write for linkcheck (rule
/// packs, `linkcheck.json`, baselines; symbol graphs too): exactly the
/// grammar of RFC 8259, checked before Foundation's `JSONSerialization`
/// parses the text, because `JSONSerialization` also accepts a comma after
/// the last element (`[1, 2,]`) and reports its errors without a line.
///
/// The check reads UTF-8 (after an optional byte order mark) and rejects
/// what RFC 8259 does not allow: trailing commas, comments, single quotes,
/// unquoted keys, control characters in strings, bad escapes and lone
/// surrogates, leading zeros and other malformed numbers, words other than
/// `true`, `false` and `null`, text after the value, and nesting deeper than
/// ``maximumDepth``. It also finds the keys that occur twice in one object
/// (``JSONDuplicateKeys``), which the grammar allows and the readers reject.
public enum JSONSyntax {
    /// How deeply arrays and objects may nest.
    public static let maximumDepth = 512

    /// Checks that `data` is one JSON text.
    ///
    /// - Returns: the keys repeated in an object, in document order.
    /// - Throws: ``JSONSyntaxError`` at the first place the text leaves the
    ///   grammar.
    public static func check(_ data: Data) throws(JSONSyntaxError) -> [JSONDuplicateKeys.Duplicate] {
        var scanner = Scanner(bytes: [UInt8](data))
        try scanner.document()
        return scanner.duplicates
    }

    /// Checks `data` (``check(_:)``), then parses it with `JSONSerialization`
    /// (a scalar at the top is allowed: the readers then say what they
    /// expected at `$`).
    ///
    /// - Returns: the document (`[String: Any]`, `[Any]`, `String`,
    ///   `NSNumber`, `NSNull`) and the repeated keys.
    /// - Throws: ``JSONSyntaxError``.
    public static func parse(_ data: Data) throws(JSONSyntaxError) -> (document: Any, duplicates: [JSONDuplicateKeys.Duplicate]) {
        let duplicates = try check(data)
        do {
            return (try JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed), duplicates)
        } catch {
            // Text the grammar allows and Foundation still refuses (a number
            // out of range): its own words, at the start.
            let reason = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
            throw JSONSyntaxError(line: 1, column: 1, reason: reason)
        }
    }

    /// An array or object being read. Its path is not kept: the stack of
    /// containers spells it (``Scanner/valuePath``), and it is only spelt
    /// for a message.
    private struct Container {
        var isObject: Bool
        /// An object's keys so far (mutated in place on the stack, never
        /// copied), and the last one.
        var keys: Set<String> = []
        var key = ""
        /// An array's index of the element being read.
        var index = 0

        var closing: UInt8 { isObject ? UInt8(ascii: "}") : UInt8(ascii: "]") }
    }

    private struct Scanner {
        let bytes: [UInt8]
        var position = 0
        var stack: [Container] = []
        var duplicates: [JSONDuplicateKeys.Duplicate] = []

        init(bytes: [UInt8]) {
            self.bytes = bytes
        }

        var current: UInt8? { position < bytes.count ? bytes[position] : nil }

        /// The JSON path of the value that starts here.
        var valuePath: String {
            stack.reduce(into: "$") { path, container in
                path += container.isObject ? ".\(container.key)" : "[\(container.index)]"
            }
        }

        func failure(_ reason: String, at offset: Int? = nil) -> JSONSyntaxError {
            let offset = min(offset ?? position, bytes.count)
            var line = 1
            var lineStart = 0
            for index in 0..<offset where bytes[index] == UInt8(ascii: "\n") {
                line += 1
                lineStart = index + 1
            }
            // Columns count characters: every byte but UTF-8 continuation bytes.
            let column = 1 + bytes[lineStart..<offset].filter { $0 & 0xC0 != 0x80 }.count
            return JSONSyntaxError(line: line, column: column, reason: reason)
        }

        mutating func skipWhitespace() {
            while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { position += 1 }
        }

        mutating func document() throws(JSONSyntaxError) {
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
            skipWhitespace()
            guard current != nil else { throw failure("the file is empty: expected a JSON value") }
            try values()
            skipWhitespace()
            if let byte = current {
                throw failure("unexpected \(describe(byte)) after the JSON value: a JSON file holds one value\(hint(byte))")
            }
        }

        /// Reads one value, and everything in it when it is an array or an
        /// object (with an explicit stack, so nesting costs no recursion).
        mutating func values() throws(JSONSyntaxError) {
            var opened = try value()
            while let container = stack.last {
                skipWhitespace()
                let inObject = container.isObject
                if opened, current == container.closing {
                    position += 1
                    stack.removeLast()
                    opened = false
                    continue
                }
                if opened {
                    opened = inObject ? try key() : try value()
                    continue
                }
                // A value is complete: a comma or the container's end follows.
                guard let byte = current else {
                    throw failure("unexpected end of file: expected ',' or '\(Character(Unicode.Scalar(container.closing)))'")
                }
                if byte == container.closing {
                    position += 1
                    stack.removeLast()
                    continue
                }
                guard byte == UInt8(ascii: ",") else {
                    throw failure(
                        inObject
                            ? "expected ',' or '}' after the value of \(valuePath), found \(describe(byte))\(hint(byte))"
                            : "expected ',' or ']' after \(valuePath), found \(describe(byte))\(hint(byte))")
                }
                let comma = position
                position += 1
                skipWhitespace()
                if current == container.closing {
                    throw failure(
                        "trailing comma: JSON allows no comma after the last \(inObject ? "member of an object" : "element of an array")",
                        at: comma)
                }
                if inObject {
                    opened = try key()
                } else {
                    stack[stack.count - 1].index += 1
                    opened = try value()
                }
            }
        }

        /// Reads the value at `position`; an array or object is only opened.
        ///
        /// - Returns: whether it opened an array or object.
        mutating func value() throws(JSONSyntaxError) -> Bool {
            skipWhitespace()
            guard let byte = current else { throw failure("unexpected end of file: expected a value") }
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                guard stack.count < JSONSyntax.maximumDepth else {
                    throw failure("arrays and objects nest more than \(JSONSyntax.maximumDepth) levels deep")
                }
                position += 1
                stack.append(Container(isObject: byte == UInt8(ascii: "{")))
                return true
            case UInt8(ascii: "\""):
                _ = try string(decoding: false)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                try number()
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
                try word()
            default:
                throw failure("expected a value, found \(describe(byte))\(hint(byte))")
            }
            return false
        }

        /// Reads an object's key, the `:` after it and its value
        /// (``value()``).
        mutating func key() throws(JSONSyntaxError) -> Bool {
            skipWhitespace()
            guard let byte = current else { throw failure("unexpected end of file: expected a key in double quotes") }
            guard byte == UInt8(ascii: "\"") else {
                throw failure("expected a key in double quotes, found \(describe(byte))\(hint(byte))")
            }
            let key = try string(decoding: true)
            guard stack.last?.isObject == true else { return false }
            stack[stack.count - 1].key = key
            if !stack[stack.count - 1].keys.insert(key).inserted {
                duplicates.append(JSONDuplicateKeys.Duplicate(key: key, jsonPath: valuePath))
            }
            skipWhitespace()
            guard current == UInt8(ascii: ":") else {
                throw failure(
                    current.map { "expected ':' after the key \"\(key)\", found \(describe($0))" }
                        ?? "unexpected end of file: expected ':' after the key \"\(key)\"")
            }
            position += 1
            return try value()
        }

        /// Reads the string at `position` (its opening quote); its text when
        /// `decoding`, else "".
        mutating func string(decoding: Bool) throws(JSONSyntaxError) -> String {
            let start = position
            position += 1
            var text = String.UnicodeScalarView()
            while true {
                guard let byte = current else { throw failure("unterminated string (it starts here)", at: start) }
                switch byte {
                case UInt8(ascii: "\""):
                    position += 1
                    return String(text)
                case UInt8(ascii: "\\"):
                    let scalar = try escape()
                    if decoding { text.append(scalar) }
                case 0..<0x20:
                    throw failure(
                        "a control character (U+\(hex(UInt32(byte), width: 4))) in a string: write it as an escape such as \\n, \\t or \\u00\(hex(UInt32(byte), width: 2))"
                    )
                case 0x80...:
                    let scalar = try utf8Scalar()
                    if decoding { text.append(scalar) }
                default:
                    position += 1
                    if decoding { text.append(Unicode.Scalar(byte)) }
                }
            }
        }

        /// Reads the escape at `position` (its backslash).
        mutating func escape() throws(JSONSyntaxError) -> Unicode.Scalar {
            let start = position
            position += 1
            guard let byte = current else { throw failure("unterminated string: it ends in a backslash", at: start) }
            position += 1
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): return Unicode.Scalar(byte)
            case UInt8(ascii: "b"): return "\u{8}"
            case UInt8(ascii: "f"): return "\u{C}"
            case UInt8(ascii: "n"): return "\n"
            case UInt8(ascii: "r"): return "\r"
            case UInt8(ascii: "t"): return "\t"
            case UInt8(ascii: "u"):
                let unit = try hexUnit(start)
                switch unit {
                case 0xD800...0xDBFF:
                    guard bytes[position...].starts(with: [UInt8(ascii: "\\"), UInt8(ascii: "u")]) else {
                        throw failure(
                            "\\u\(hex(unit, width: 4)) is the first half of a surrogate pair, and the second half (\\uDC00–\\uDFFF) does not follow",
                            at: start)
                    }
                    let second = position
                    position += 2
                    let low = try hexUnit(second)
                    guard (0xDC00...0xDFFF).contains(low) else {
                        throw failure(
                            "\\u\(hex(unit, width: 4)) is the first half of a surrogate pair, and \\u\(hex(low, width: 4)) is not a second half (\\uDC00–\\uDFFF)",
                            at: second)
                    }
                    return Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))!
                case 0xDC00...0xDFFF:
                    throw failure("\\u\(hex(unit, width: 4)) is the second half of a surrogate pair without a first half", at: start)
                default:
                    return Unicode.Scalar(unit)!
                }
            default:
                throw failure(
                    "invalid escape '\\\(describeCharacter(byte))' (JSON has \\\", \\\\, \\/, \\b, \\f, \\n, \\r, \\t and \\uXXXX)",
                    at: start)
            }
        }

        /// The four hex digits after `\u` (the escape starts at `start`).
        mutating func hexUnit(_ start: Int) throws(JSONSyntaxError) -> UInt32 {
            var unit: UInt32 = 0
            for _ in 0..<4 {
                guard let byte = current, let digit = hexDigit(byte) else {
                    throw failure("\\u needs four hexadecimal digits", at: start)
                }
                unit = unit << 4 | digit
                position += 1
            }
            return unit
        }

        /// Reads one UTF-8 encoded scalar (not ASCII) at `position`.
        mutating func utf8Scalar() throws(JSONSyntaxError) -> Unicode.Scalar {
            let lead = bytes[position]
            let (length, minimum): (Int, UInt32) =
                switch lead {
                case 0xC2...0xDF: (2, 0x80)
                case 0xE0...0xEF: (3, 0x800)
                case 0xF0...0xF4: (4, 0x10000)
                default: (0, 0)
                }
            var value = UInt32(lead) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
            for offset in 1..<max(length, 1) {
                guard position + offset < bytes.count, bytes[position + offset] & 0xC0 == 0x80 else {
                    throw failure("the text is not valid UTF-8 here")
                }
                value = value << 6 | UInt32(bytes[position + offset] & 0x3F)
            }
            guard length > 0, value >= minimum, let scalar = Unicode.Scalar(value) else {
                throw failure("the text is not valid UTF-8 here")
            }
            position += length
            return scalar
        }

        /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
        mutating func number() throws(JSONSyntaxError) {
            let start = position
            if current == UInt8(ascii: "-") { position += 1 }
            guard let first = current, isDigit(first) else { throw failure("expected a digit after '-'") }
            position += 1
            if first == UInt8(ascii: "0"), let next = current, isDigit(next) {
                throw failure("a number cannot start with 0 unless it is 0 (no leading zeros in JSON)", at: start)
            }
            while let byte = current, isDigit(byte) { position += 1 }
            if current == UInt8(ascii: ".") {
                position += 1
                guard let byte = current, isDigit(byte) else { throw failure("expected a digit after the decimal point") }
                while let byte = current, isDigit(byte) { position += 1 }
            }
            if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
                position += 1
                if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
                guard let byte = current, isDigit(byte) else { throw failure("expected a digit in the exponent") }
                while let byte = current, isDigit(byte) { position += 1 }
            }
        }

        /// `true`, `false` or `null`.
        mutating func word() throws(JSONSyntaxError) {
            let start = position
            while let byte = current, isWordByte(byte) { position += 1 }
            let word = String(decoding: bytes[start..<position], as: UTF8.self)
            guard ["true", "false", "null"].contains(word) else {
                throw failure("unknown word '\(word)': JSON's words are true, false and null, and strings need double quotes", at: start)
            }
        }

        /// How to fix the usual slips at `byte`.
        func hint(_ byte: UInt8) -> String {
            switch byte {
            case UInt8(ascii: "'"): " (strings and keys need double quotes)"
            case UInt8(ascii: "/"), UInt8(ascii: "#"): " (JSON has no comments)"
            case UInt8(ascii: "+"), UInt8(ascii: "."): " (a number starts with '-' or a digit)"
            default: ""
            }
        }

        func describe(_ byte: UInt8) -> String {
            if byte == UInt8(ascii: "'") { return "\"'\"" }
            return (0x21..<0x7F).contains(byte) ? "'\(describeCharacter(byte))'" : "byte 0x\(hex(UInt32(byte), width: 2))"
        }

        func describeCharacter(_ byte: UInt8) -> String {
            (0x21..<0x7F).contains(byte) ? String(UnicodeScalar(byte)) : "\\x\(hex(UInt32(byte), width: 2))"
        }
    }
}

private func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

private func isWordByte(_ byte: UInt8) -> Bool {
    isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
        || byte == UInt8(ascii: "_")
}

private func hexDigit(_ byte: UInt8) -> UInt32? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
    case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
    default: nil
    }
}

private func hex(_ value: UInt32, width: Int) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
}

/// Where JSON text leaves the grammar: 1-based line and column (columns
/// count characters, not bytes) and the reason in words.
public struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public var reason: String

    public init(line: Int, column: Int, reason: String) {
        self.line = line
        self.column = column
        self.reason = reason
    }

    /// `line 3, column 14: trailing comma: …`.
    public var description: String { "line \(line), column \(column): \(reason)" }
}

/// `value` as an integer when JSON spelled it as one: not a boolean (which
/// Foundation also bridges to `Int`), not a fraction.
func jsonInteger(_ value: Any) -> Int? {
    guard let number = value as? NSNumber, !["c", "d", "f"].contains(String(cString: number.objCType)) else { return nil }
    return value as? Int
}

/// `value` as a boolean when JSON spelled it `true` or `false` (not `1`).
func jsonBoolean(_ value: Any) -> Bool? {
    guard let number = value as? NSNumber, String(cString: number.objCType) == "c" else { return nil }
    return number.boolValue
}
