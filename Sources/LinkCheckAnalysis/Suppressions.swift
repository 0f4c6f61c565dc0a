import LinkCheckInspection

/// Applies `linkcheck.json`'s suppressions to findings.
public enum Suppressions {
    /// The findings no suppression matches, and one notice per suppression
    /// that matched nothing (an unused suppression is a warning: the code it
    /// excused is gone, or it was mistyped).
    ///
    /// A suppression matches a finding with its rule id, on an image it
    /// names (``Policy/names(of:)``: file name, SONAME, module name), and,
    /// when it gives a symbol, with that raw or demangled symbol.
    public static func apply(
        _ suppressions: [Suppression], file: String, to findings: [Finding], images: [String: Set<String>]
    ) -> (kept: [Finding], notices: [String]) {
        var used = Set<Int>()
        let kept = findings.filter { finding in
            guard let index = suppressions.firstIndex(where: { matches($0, finding, images[finding.image] ?? []) }) else {
                return true
            }
            used.insert(index)
            return false
        }
        let notices = suppressions.enumerated().filter { !used.contains($0.offset) }.map { _, suppression in
            "\(file): \(suppression.jsonPath): unused suppression: no [\(suppression.rule)] finding on '\(suppression.image)'"
                + (suppression.symbol.map { " for '\($0)'" } ?? "")
        }
        return (kept, notices)
    }

    static func matches(_ suppression: Suppression, _ finding: Finding, _ names: Set<String>) -> Bool {
        suppression.rule == finding.rule
            && (names.contains(suppression.image) || finding.image == suppression.image)
            && (suppression.symbol == nil || suppression.symbol == finding.symbol || suppression.symbol == finding.demangled)
    }
}
