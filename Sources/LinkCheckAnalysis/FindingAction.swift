import LinkCheckRules

/// What a finding's image does, in a few words: a verb, what it acts on and
/// the functions that do it (`calls` `+[UIApplication sharedApplication]`
/// from `present_login`). The answer's causes (``Cause``) and the text
/// output's finding lines say a finding so, leaving the rule's explanation
/// to the rule.
public struct FindingAction: Sendable, Equatable {
    /// What the image does to ``object``, or, for a finding that acts on
    /// no object, what its detail says.
    public enum Verb: Sendable, Equatable {
        /// `calls`, `imports`, `references`, `calls by name`, `holds the
        /// string`, `links`, `loads`; for a finding in words (a bundle
        /// finding), its own words (``Finding/detail(rule:)``).
        case word(String)
        /// For a finding of another kind: its detail, which the reports word.
        case detail(FindingDetail)
    }

    public var verb: Verb
    /// The API, string or library acted on; `nil` when ``verb`` says it all.
    public var object: String?
    /// The calling functions (``FindingCallSite/label``), each once, in
    /// the order of ``Finding/callingFunctions``.
    public var callers: [String]

    /// What `finding` (an image's own) does; `api` is the API as a
    /// transitive finding's chain names it, `rule` the finding's rule.
    public init(_ finding: Finding, rule: Rule?, api: String? = nil) {
        let name = api ?? finding.api ?? finding.demangled ?? finding.symbol ?? rule?.api ?? finding.rule.rawValue
        callers = finding.callingFunctions.map(\.label)
        switch finding.kind {
        case .importedSymbol, .staticCall:
            (verb, object) = (.word(callers.isEmpty ? "imports" : "calls"), name)
        case .objcReference:
            (verb, object) = (.word(callers.isEmpty ? "references" : "calls"), name)
        case .objcByName:
            (verb, object) = (.word("calls by name"), name)
        case .stringLiteral:
            (verb, object) = (.word("holds the string"), finding.symbol ?? name)
            callers = []
        case .neededLibrary:
            (verb, object) = (.word("links"), finding.symbol ?? name)
            callers = []
        case .loadedLibrary:
            (verb, object) = (.word("loads"), finding.symbol ?? name)
        default:
            switch finding.statement {
            case .detail(let detail, _): verb = .detail(detail)
            case .words: verb = .word(finding.detail(rule: rule) ?? finding.kind.rawValue)
            }
            object = nil
            callers = []
        }
    }

    /// The first calling function, and how many more there are (`f and 2
    /// more`); `nil` without call sites.
    public var from: String? {
        callers.first.map { callers.count > 1 ? "\($0) and \(callers.count - 1) more" : $0 }
    }

    /// `a`, `a and b`, `a, b and c`.
    public static func list(_ items: [String]) -> String {
        guard items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " and " + items.last!
    }
}

extension Finding {
    /// One call site per calling function (``FindingCallSite/label`` and
    /// ``FindingCallSite/functionAddress``: two functions of one name are
    /// two callers), in
    /// the order reports name them: the function ``path`` ends with first,
    /// then the functions a symbol names, then those only an address names
    /// (`sub_406c` from LC_FUNCTION_STARTS, or code no symbol covers), each
    /// group in call-site order. The answer's causes and the finding lines
    /// both start from the first.
    public var callingFunctions: [FindingCallSite] {
        let pathCaller = path.count > 1 ? path[path.count - 2] : nil
        let rank: (FindingCallSite) -> Int = { site in
            if site.label == pathCaller { return 0 }
            guard let function = site.function, !function.hasPrefix("sub_") else { return 2 }
            return 1
        }
        var seen = Set<CallingFunctionKey>()
        let unique = callSites.filter { seen.insert(CallingFunctionKey(label: $0.label, functionAddress: $0.functionAddress)).inserted }
        return unique.enumerated().sorted { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }.map(\.element)
    }

    /// The call whose source reports place the finding at: the first of
    /// ``callingFunctions``, for an image's own finding (not one repeated
    /// from a library it links, whose calls are the library's), when the
    /// image's debug information gives its source (``FindingCallSite/source``).
    public var sourceCallSite: FindingCallSite? {
        guard chainImages.isEmpty, let site = callingFunctions.first, site.source != nil else { return nil }
        return site
    }

    /// The own words of a finding of a kind ``FindingDetail`` does not
    /// cover (a bundle finding): its words without the rule's message that
    /// follows them after a colon; `nil` for a typed finding, whose words
    /// the reports give.
    public func detail(rule: Rule?) -> String? {
        guard case .words(let message) = statement else { return nil }
        guard let rule, let range = message.range(of: ": " + rule.message) else { return message }
        return String(message[..<range.lowerBound])
    }
}

/// What tells two calling functions of ``Finding/callingFunctions`` apart:
/// the name reports give and the function's address.
private struct CallingFunctionKey: Hashable {
    var label: String
    var functionAddress: UInt64?
}
