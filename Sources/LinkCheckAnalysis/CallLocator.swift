import LinkCheckCodeIndex
import LinkCheckImage
import LinkCheckRules

/// Puts call sites and call paths on findings, naming functions as people
/// read them.
public struct CallLocator: Sendable {
    let demangler: Demangler

    /// `ShareKit.Sharer.openInApp(photoID: Swift.String)` for a function
    /// symbol: demangled, without the result type and `static`.
    func displayName(_ symbol: String) -> String {
        Self.displayName(symbol, demangler: demangler)
    }

    /// `symbol` as reports name a calling function
    /// (``FindingCallSite/displayName``): a Swift or C++ symbol demangled
    /// by `demangler`, without the result type and `static`; any other name
    /// as it is.
    public static func displayName(_ symbol: String, demangler: Demangler) -> String {
        guard var text = demangler.any(symbol) else { return symbol }
        if let arrow = text.range(of: " -> ", options: .backwards) { text = String(text[..<arrow.lowerBound]) }
        if let colon = text.range(of: " : ") { text = String(text[..<colon.lowerBound]) }
        if text.hasPrefix("static ") { text.removeFirst("static ".count) }
        return text
    }

    /// The finding's call sites and path, from `sites` in `code` (calls, or
    /// the loads of names); the path ends with `api`.
    func locate(_ finding: inout Finding, sites: [any CodeLocation], in code: CodeIndex, api: String) {
        guard !sites.isEmpty else { return }
        finding.callSites = sites.map { site in
            let function = site.caller.map { code.functions[$0] }
            let name = function?.name
            return FindingCallSite(
                function: name, demangled: name.flatMap { demangler.any($0) }, displayName: name.map(displayName),
                functionAddress: function?.address, address: site.address, fileOffset: site.fileOffset)
        }
        let paths = sites.compactMap(\.caller).map(code.pathFromExported)
        if let shortest = paths.min(by: { $0.count < $1.count }) {
            finding.path = shortest.map { displayName(code.functions[$0].name) } + [api]
        }
    }

    /// `'demangled' (raw)`, or `'raw'` when demangling changes nothing: how
    /// findings' words quote a symbol.
    public static func quoted(_ symbol: String, _ demangled: String?) -> String {
        guard let demangled, demangled != symbol else { return "'\(symbol)'" }
        return "'\(demangled)' (\(symbol))"
    }
}
