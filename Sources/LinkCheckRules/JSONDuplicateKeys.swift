import Foundation

/// Keys that occur twice in one object of a JSON document.
/// `JSONSerialization` accepts such a document and keeps one of the values,
/// so a rule pack or configuration with, say, two `severity` keys would
/// silently lose one; RFC 8259 §4 leaves the behaviour to the parser.
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

    /// The repeated keys of `data`, in document order. Meant for a document
    /// `JSONSerialization` has accepted: text that is not JSON gives no
    /// meaningful answer (but never a crash). Keys are compared after their
    /// escapes are decoded (`"a"` and `"\u0061"` are one key).
    public static func find(in data: Data) -> [Duplicate] {
        var scanner = Scanner(bytes: [UInt8](data))
        return scanner.run()
    }

    private enum Container {
        case object(path: String, keys: Set<String>, key: String?, expectingKey: Bool)
        case array(path: String, index: Int)
    }

    private struct Scanner {
        let bytes: [UInt8]
        var position = 0
        var stack: [Container] = []
        var duplicates: [Duplicate] = []

        init(bytes: [UInt8]) {
            self.bytes = bytes
        }

        /// The path of the value that starts here.
        var valuePath: String {
            switch stack.last {
            case .object(let path, _, let key, _): "\(path).\(key ?? "")"
            case .array(let path, let index): "\(path)[\(index)]"
            case nil: "$"
            }
        }

        mutating func run() -> [Duplicate] {
            while position < bytes.count {
                let byte = bytes[position]
                switch byte {
                case UInt8(ascii: "{"):
                    stack.append(.object(path: valuePath, keys: [], key: nil, expectingKey: true))
                case UInt8(ascii: "["):
                    stack.append(.array(path: valuePath, index: 0))
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    _ = stack.popLast()
                case UInt8(ascii: ","):
                    switch stack.last {
                    case .object(let path, let keys, _, _): stack[stack.count - 1] = .object(path: path, keys: keys, key: nil, expectingKey: true)
                    case .array(let path, let index): stack[stack.count - 1] = .array(path: path, index: index + 1)
                    case nil: break
                    }
                case UInt8(ascii: "\""):
                    let text = string()
                    if case .object(let path, var keys, _, true) = stack.last {
                        if !keys.insert(text).inserted { duplicates.append(Duplicate(key: text, jsonPath: "\(path).\(text)")) }
                        stack[stack.count - 1] = .object(path: path, keys: keys, key: text, expectingKey: false)
                    }
                    continue
                default:
                    break
                }
                position += 1
            }
            return duplicates
        }

        /// Reads the string literal at `position` (its opening quote) and
        /// moves past it; escapes are decoded by `JSONSerialization`.
        mutating func string() -> String {
            let start = position
            position += 1
            var escaped = false
            while position < bytes.count && bytes[position] != UInt8(ascii: "\"") {
                if bytes[position] == UInt8(ascii: "\\") {
                    escaped = true
                    position += 1
                }
                position += 1
            }
            position += 1
            let literal = bytes[start..<min(position, bytes.count)]
            guard escaped else { return String(decoding: literal.dropFirst().dropLast(), as: UTF8.self) }
            let decoded = try? JSONSerialization.jsonObject(with: Data(literal), options: .fragmentsAllowed)
            return decoded as? String ?? String(decoding: literal, as: UTF8.self)
        }
    }
}
