/// The formats one command prints its report in: the values of its
/// `--format` option (``CheckFormat``, ``GraphFormat``). The cases, in the
/// order the help lists them and the default first, are what `--format`
/// accepts and what its help names; each case gives its renderer.
public protocol OutputFormat: CaseIterable, RawRepresentable, Sendable where RawValue == String, AllCases == [Self] {
    /// The standard or program the format is written for, as the help
    /// names it (`SARIF 2.1.0`, `Graphviz`); `nil` for linkcheck's own.
    var standard: String? { get }
}

extension OutputFormat {
    /// The format without `--format`: the first case.
    public static var fallback: Self { allCases[0] }

    /// The values `--format` accepts, as a message lists them: `text, json,
    /// sarif or html`.
    public static var names: String { list(allCases.map(\.rawValue)) }

    /// `--format`'s help: each value with its standard, the default marked
    /// (`text (default), json, sarif (SARIF 2.1.0) or html.`).
    public static var help: String {
        list(
            allCases.map { format in
                let notes = [format.standard, format == fallback ? "default" : nil].compactMap(\.self)
                return format.rawValue + (notes.isEmpty ? "" : " (\(notes.joined(separator: ", ")))")
            }) + "."
    }

    /// `a, b or c`.
    private static func list(_ items: [String]) -> String {
        items.count < 2 ? items.joined() : items.dropLast().joined(separator: ", ") + " or " + items.last!
    }
}
