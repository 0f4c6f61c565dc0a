/// Escapes text for HTML element content and double-quoted attribute values
/// (`&`, `<`, `>`, `"`, `'`). Every string that came from a binary or a
/// configuration goes through it.
func escapeHTML(_ text: String) -> String {
    var result = ""
    result.reserveCapacity(text.utf8.count)
    for character in text.unicodeScalars {
        switch character {
        case "&": result += "&amp;"
        case "<": result += "&lt;"
        case ">": result += "&gt;"
        case "\"": result += "&quot;"
        case "'": result += "&#39;"
        case "\u{0}"..."\u{8}", "\u{B}", "\u{C}", "\u{E}"..."\u{1F}", "\u{7F}":
            // Control characters are not allowed in HTML text.
            result += "\u{FFFD}"
        default: result.unicodeScalars.append(character)
        }
    }
    return result
}
