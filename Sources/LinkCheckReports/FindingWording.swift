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
            "imports \(CallLocator.quoted(symbol, demangled))"
        case .callsLinkedInCopy(let function, let demangled):
            "calls \(CallLocator.quoted(function, demangled)), whose code is linked into this image"
        case .references(let name, let subclasses):
            "references \(name) (\(Self.referenced(name, subclasses: subclasses)))"
        case .looksUpByName(let className, let selector, let lookUps, let selectorMakers):
            "looks up \(className) by name (\(lookUps.joined(separator: ", "))) and sends \(selector)"
                + " (\(selectorMakers?.joined(separator: ", ") ?? "a selector reference"))"
        case .mayLookUpByName(let className, let selector, let selectorHeldAsString, let lookUps, let unknownBecause, let namesUnused):
            (selectorHeldAsString
                ? "holds the strings \"\(className)\" and \"\(selector)\""
                : "holds the string \"\(className)\", references the selector \(selector)")
                + " and imports \(lookUps.joined(separator: ", ")), so it may look up \(className) by name"
                + " and send \(selector); a warning at most, since \(unknownBecause)"
                + (namesUnused ? "; no code that uses these names was found" : "")
        case .holdsString(let string):
            "read-only data holds the string \"\(string)\""
        case .links(let library, let format):
            "links \(library) (\(format.dependencyTerm))"
        }
    }

    /// What of `name` an image references: `the class UIApplication and the
    /// selector sharedApplication`, `the class MyApp, a subclass of
    /// UIApplication, and the selector sharedApplication`, `the selector
    /// openURL: of the protocol UIApplicationDelegate`.
    static func referenced(_ name: ObjCName, subclasses: [String]) -> String {
        let theClass =
            subclasses.isEmpty
            ? "the class \(name.className)"
            : "the class\(subclasses.count > 1 ? "es" : "") \(subclasses.joined(separator: ", ")), "
                + "\(subclasses.count > 1 ? "subclasses" : "a subclass") of \(name.className)"
        guard let selector = name.selector else { return theClass }
        return name.isProtocolMethod
            ? "the selector \(selector) of the protocol \(name.className)"
            : "\(theClass)\(subclasses.isEmpty ? "" : ",") and the selector \(selector)"
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
