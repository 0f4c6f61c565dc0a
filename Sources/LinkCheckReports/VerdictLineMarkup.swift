import LinkCheckAnalysis

/// How one output writes an answer's line (``ReportAnswer/Line``): the
/// text output and the HTML report say the same, `WHO: VERDICT — WHY` (the
/// image's label with its kind and note, its verdict, then what was read
/// only in part and its causes, joined by `; `, or else what it is safe
/// of), each in its own markup.
struct VerdictLineMarkup {
    /// Words as they are (the text output), or escaped (HTML).
    var words: (String) -> String
    /// The image's label (``ImageLabels``).
    var label: (String) -> String
    /// Why the image is answered for (``ReportAnswer/Line/note``), in
    /// parentheses.
    var note: (String) -> String
    var verdict: (Verdict) -> String
    /// The line's causes, or `nil` when there are none.
    var causes: ([Cause]) -> String?

    /// `line` in this markup; `label` is its image's label.
    func write(_ line: ReportAnswer.Line, label: String) -> String {
        let who = self.label(label) + (line.kind.map { " (\(words($0)))" } ?? "") + (line.note.map { " " + note($0) } ?? "")
        let why = [line.partial.map(words), causes(line.causes)].compactMap(\.self)
        return "\(who): \(verdict(line.image.verdict)) — \(why.isEmpty ? words(line.safeText) : why.joined(separator: "; "))"
    }
}
