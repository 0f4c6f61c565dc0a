import LinkCheckAnalysis
import LinkCheckRules

/// A finding's typed detail (``FindingDetail``) in words: the one place the
/// reports (JSON `message`, text lines, SARIF, HTML) get what a finding
/// says from.
extension FindingDetail {
    /// What the image does, as the finding's message starts: `imports
    /// 'UIApplication.shared' ($s…)`, `read-only data holds the string
    /// "openURL:"`, `links libShareKit.so (DT_NEEDED)`.
    public var words: String {
        switch self {
        case .imports(let symbol, let demangled):
            "imports \(Self.quoted(symbol, demangled))"
        case .callsLinkedInCopy(let function, let demangled):
            "calls \(Self.quoted(function, demangled)), whose code is linked into this image"
        case .holdsString(let string):
            "read-only data holds the string \"\(string)\""
        case .links(let library, let format):
            "links \(library) (\(format.dependencyTerm))"
        }
    }

    /// `'demangled' (raw)`, or `'raw'` when demangling changes nothing.
    static func quoted(_ symbol: String, _ demangled: String?) -> String {
        guard let demangled, demangled != symbol else { return "'\(symbol)'" }
        return "'\(demangled)' (\(symbol))"
    }
}

extension Finding {
    /// What is wrong, in full: what the image does (its detail's words, or
    /// its own words), then `: ` and the rule's message, then the reasons
    /// after it.
    public var message: String {
        switch statement {
        case .words(let words): words
        case .detail(let detail, let ruleMessage, let remarks): "\(detail.words): \(ruleMessage)\(remarks)"
        }
    }

    /// What the image does, without the rule's message and what follows it:
    /// the detail's words, or the finding's own (``Finding/detail(rule:)``).
    func ownWords(rule: Rule?) -> String {
        switch statement {
        case .words: detail(rule: rule) ?? message
        case .detail(let detail, _, _): detail.words
        }
    }
}
