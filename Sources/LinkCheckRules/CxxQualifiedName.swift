/// C++ qualified names as `__cxa_demangle` prints them.
public enum CxxQualifiedName {
    /// Phrases `__cxa_demangle` puts before special symbols' names.
    private static let specialPrefixes = [
        "vtable for ", "VTT for ", "typeinfo for ", "typeinfo name for ", "guard variable for ",
        "non-virtual thunk to ", "virtual thunk to ", "construction vtable for ",
    ]

    /// The qualified name of a demangled C++ symbol without its return type,
    /// template arguments, parameters and qualifiers:
    /// `void ns::Box<int>::put(int) const` → `ns::Box::put`.
    public static func of(demangled: String) -> String {
        var text = Substring(demangled)
        for prefix in specialPrefixes where text.hasPrefix(prefix) {
            text = text.dropFirst(prefix.count)
        }
        var result = ""
        var depth = 0
        for character in text {
            switch character {
            case "<": depth += 1
            case ">": depth = max(depth - 1, 0)
            case "(" where depth == 0:
                return result
            case " " where depth == 0:
                // A space outside template arguments ends a return type.
                if !result.hasSuffix("operator") { result = "" }
            default:
                if depth == 0 { result.append(character) }
            }
        }
        return result
    }

    /// Whether the demangled symbol belongs to `name`: the same qualified
    /// name, or a member of it (`ns::Class` covers `ns::Class::method`).
    public static func matches(demangled: String, name: String) -> Bool {
        let qualified = of(demangled: demangled)
        return qualified == name || qualified.hasPrefix(name + "::")
    }

    /// The length-prefixed source name (`6Widget`) that must occur in the
    /// mangled form of any symbol `name` covers; a cheap pre-filter before
    /// demangling.
    public static func mangledFragment(of name: String) -> String {
        let last = name.split(separator: ":").last.map(String.init) ?? name
        return "\(last.utf8.count)\(last)"
    }
}
