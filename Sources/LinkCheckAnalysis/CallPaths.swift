import LinkCheckInspection
import LinkCheckRules

/// The call sites of one image, indexed for findings: the calls to each
/// import, and who calls each function (for the shortest path from an
/// exported function).
struct CodeIndex: Sendable {
    let analysis: CodeAnalysis
    /// Imported name → the call sites that reach it.
    let callsToImport: [String: [CallSite]]
    /// Function → the call sites that reach it.
    let callsToFunction: [Int: [CallSite]]
    /// Function → the functions that call it.
    let callers: [Int: [Int]]

    init(_ analysis: CodeAnalysis) {
        self.analysis = analysis
        var imports: [String: [CallSite]] = [:]
        var functions: [Int: [CallSite]] = [:]
        var callers: [Int: [Int]] = [:]
        for site in analysis.callSites {
            switch site.callee {
            case .imported(let name): imports[name, default: []].append(site)
            case .function(let callee):
                functions[callee, default: []].append(site)
                if let caller = site.caller, caller != callee { callers[callee, default: []].append(caller) }
            }
        }
        callsToImport = imports
        callsToFunction = functions
        self.callers = callers
    }

    /// The shortest chain of functions from an entry point down to
    /// `function` (both included), breadth-first over the callers. An entry
    /// point is an exported function nothing in the image calls (debug
    /// builds export internal Swift functions too, so "exported" alone would
    /// stop at the helper); failing that, any exported function; failing
    /// that, `[function]`.
    func pathFromExported(to function: Int) -> [Int] {
        var previous: [Int: Int] = [function: function]
        var queue = [function]
        var head = 0
        var firstExported: Int?
        func path(from start: Int) -> [Int] {
            var path = [start]
            while let next = previous[path.last!], next != path.last! { path.append(next) }
            return path
        }
        while head < queue.count {
            let current = queue[head]
            head += 1
            if analysis.functions[current].isExported {
                if (callers[current] ?? []).isEmpty { return path(from: current) }
                if firstExported == nil { firstExported = current }
            }
            for caller in callers[current] ?? [] where previous[caller] == nil {
                previous[caller] = current
                queue.append(caller)
            }
        }
        return firstExported.map(path(from:)) ?? [function]
    }

    /// The functions `function` calls, directly or through at most `depth`
    /// levels, with the names of the imports they call.
    func importsReached(from function: Int, depth: Int) -> Set<String> {
        var names = Set<String>()
        var frontier: Set<Int> = [function]
        var seen = frontier
        for _ in 0...depth {
            var next = Set<Int>()
            for site in analysis.callSites where site.caller.map(frontier.contains) == true {
                switch site.callee {
                case .imported(let name): names.insert(name)
                case .function(let callee): if seen.insert(callee).inserted { next.insert(callee) }
                }
            }
            frontier = next
        }
        return names
    }
}

extension Analyzer {
    /// `ShareKit.Sharer.openInApp(photoID: Swift.String)` for a function
    /// symbol: demangled, without the result type and `static`.
    func displayName(_ symbol: String) -> String {
        guard var text = rules.demangler.any(symbol) else { return symbol }
        if let arrow = text.range(of: " -> ", options: .backwards) { text = String(text[..<arrow.lowerBound]) }
        if let colon = text.range(of: " : ") { text = String(text[..<colon.lowerBound]) }
        if text.hasPrefix("static ") { text.removeFirst("static ".count) }
        return text
    }

    /// The finding's call sites and path, from `sites` in image `index`; the
    /// path ends with `api`.
    func locate(_ finding: inout Finding, sites: [CallSite], in code: CodeIndex, api: String) {
        guard !sites.isEmpty else { return }
        finding.callSites = sites.map { site in
            let name = site.caller.map { code.analysis.functions[$0].name }
            return FindingCallSite(
                function: name, demangled: name.flatMap { rules.demangler.any($0) }, address: site.address,
                fileOffset: site.fileOffset)
        }
        let paths = sites.compactMap(\.caller).map(code.pathFromExported)
        if let shortest = paths.min(by: { $0.count < $1.count }) {
            finding.path = shortest.map { displayName(code.analysis.functions[$0].name) } + [api]
        }
        let first = finding.callSites[0]
        let more = sites.count > 1 ? " and \(sites.count - 1) more" : ""
        let caller = first.function.map(displayName) ?? "code no symbol covers"
        finding.message += " [called from \(caller) at 0x\(String(first.address, radix: 16))\(more)"
        finding.message += finding.path.count > 1 ? "; path: \(finding.path.joined(separator: " → "))]" : "]"
    }

    /// Calls to a function this image defines that matches an unsafe rule,
    /// when the image is not the API's own module: the API's code was linked
    /// in statically (SwiftPM links same-package targets into each product),
    /// so no import shows it. C and glob rules count only internal (not
    /// exported) copies, since an image that exports the symbol provides it.
    func staticCallFindings(_ index: Int, code: CodeIndex) -> [Finding] {
        let image = images[index]
        let module = Policy.moduleName(of: image.fileName)
        var findings: [Finding] = []
        for (position, function) in code.analysis.functions.enumerated() {
            let matches = rules.rules(matchingSymbol: function.name, unsafeOnly: true).filter { match in
                if case .swift(let path) = match.matcher { return SwiftDeclarationPath.module(of: path) != module }
                return !function.isExported
            }
            let sites = (code.callsToFunction[position] ?? []).filter { $0.caller != position }
            guard !matches.isEmpty, !sites.isEmpty else { continue }
            let demangled = rules.demangler.any(function.name)
            for match in matches {
                var finding = finding(
                    match, image: index, kind: .staticCall, subject: function.name, demangled: demangled,
                    detail: "calls \(Self.quoted(function.name, demangled)), whose code is linked into this image")
                locate(&finding, sites: sites, in: code, api: Self.label(match, symbol: function.name, demangled: demangled))
                findings.append(finding)
            }
        }
        return findings
    }

    /// What a path or chain ends with: the Swift or C++ path the rule
    /// matched, else the demangled symbol, else the raw one.
    static func label(_ match: RuleMatch, symbol: String, demangled: String?) -> String {
        switch match.matcher {
        case .swift(let path): path
        case .cxx(let name): name
        default: demangled ?? symbol
        }
    }
}
