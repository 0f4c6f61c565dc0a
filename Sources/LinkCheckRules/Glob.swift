import SystemInterface

/// `fnmatch(3)` patterns (`*`, `?`, `[...]`, `\` escapes) over symbol and
/// library names.
public enum Glob {
    /// Whether `name` matches `pattern` (`fnmatch` with no flags: `*` also
    /// matches `/` and a leading `.`).
    public static func matches(_ pattern: String, _ name: String) -> Bool {
        fnmatch(pattern, name, 0) == 0
    }

    /// The longest run of literal bytes in `pattern` before its first `[`
    /// or `\` (between `*`s and `?`s): bytes every name it matches holds
    /// in a row, for a substring search that rules out most names before
    /// ``matches(_:_:)``. Empty when there is no such run.
    public static func longestLiteral(in pattern: String) -> [UInt8] {
        let plain = pattern.utf8.prefix { $0 != UInt8(ascii: "[") && $0 != UInt8(ascii: "\\") }
        let runs = plain.split { $0 == UInt8(ascii: "*") || $0 == UInt8(ascii: "?") }
        return runs.max { $0.count < $1.count }.map(Array.init) ?? []
    }

    /// Why `pattern` is not a usable glob, or `nil` when it is: empty, an
    /// unclosed `[` (a `]` right after `[` or `[!` is literal, as in POSIX),
    /// or a trailing `\`.
    /// (`fnmatch` itself treats these as literal text, which silently never
    /// matches what the author meant.)
    public static func problem(in pattern: String) -> String? {
        if pattern.isEmpty { return "empty pattern" }
        let characters = Array(pattern)
        var index = 0
        while index < characters.count {
            switch characters[index] {
            case "\\":
                if index + 1 >= characters.count { return "trailing backslash" }
                index += 2
                continue
            case "[":
                var end = index + 1
                if end < characters.count, characters[end] == "!" || characters[end] == "^" { end += 1 }
                if end < characters.count, characters[end] == "]" { end += 1 }
                while end < characters.count, characters[end] != "]" { end += 1 }
                if end >= characters.count { return "unclosed '[' at offset \(index)" }
                index = end + 1
                continue
            default:
                index += 1
            }
        }
        return nil
    }
}
