/// "Did you mean": the known names closest to one that matched nothing, as
/// swift and SwiftPM suggest a target for a mistyped one.
public enum NameSuggestions {
    /// The names among `candidates` at the smallest edit distance from
    /// `name` (Levenshtein, ignoring case), sorted, when that distance is
    /// at most a third of `name`'s length (and at least 1, so that a
    /// one-letter slip in a short name is still caught); empty when no name
    /// is that close.
    public static func closest(to name: String, among candidates: some Sequence<String>) -> [String] {
        let typed = Array(name.lowercased())
        let limit = max(1, typed.count / 3)
        var best = limit + 1
        var names: Set<String> = []
        for candidate in candidates where candidate != name {
            let distance = editDistance(typed, Array(candidate.lowercased()), limit: limit)
            if distance > limit { continue }
            if distance < best {
                best = distance
                names = [candidate]
            } else if distance == best {
                names.insert(candidate)
            }
        }
        return names.sorted()
    }

    /// `did you mean 'A'?`, `did you mean 'A' or 'B'?`; `nil` without names.
    public static func question(_ names: [String]) -> String? {
        guard let last = names.last else { return nil }
        let quoted = names.dropLast().map { "'\($0)'" }
        return "did you mean \(quoted.isEmpty ? "" : quoted.joined(separator: ", ") + " or ")'\(last)'?"
    }

    /// The Levenshtein distance of `a` and `b` (insertions, deletions and
    /// substitutions of one character), or `limit + 1` as soon as it is
    /// known to exceed `limit`.
    static func editDistance(_ a: [Character], _ b: [Character], limit: Int) -> Int {
        guard abs(a.count - b.count) <= limit else { return limit + 1 }
        guard !a.isEmpty else { return b.count }
        var previous = Array(0...b.count)
        var row = previous
        for i in 1...a.count {
            row[0] = i
            var smallest = i
            for j in stride(from: 1, through: b.count, by: 1) {
                row[j] = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                smallest = min(smallest, row[j])
            }
            if smallest > limit { return limit + 1 }
            swap(&previous, &row)
        }
        return min(previous[b.count], limit + 1)
    }
}
