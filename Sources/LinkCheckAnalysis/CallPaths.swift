import LinkCheckInspection
import LinkCheckRules

/// The call sites of one image, indexed for findings and kept small: the
/// calls to each import (with their addresses and literals), the calls to
/// the functions that matter (denylisted copies), and the internal call
/// graph as deduplicated function-to-function edges.
public struct CodeIndex: Sendable {
    public let functions: [FunctionSymbol]
    /// Imported name → the call sites that reach it.
    let callsToImport: [String: [CallSite]]
    /// Function → the call sites that reach it, for the functions kept.
    let callsToFunction: [Int: [CallSite]]
    /// Function → the functions that call it.
    let callers: [Int32: [Int32]]
    /// Function → the functions it calls.
    let callees: [Int32: [Int32]]
    /// Function → the imports it calls.
    let importsCalled: [Int32: Set<String>]
    /// Why the image's code could not be analysed, when it could not.
    public let failure: String?

    /// An image whose code analysis failed for `reason`.
    public init(failure reason: String) {
        functions = []
        callsToImport = [:]
        callsToFunction = [:]
        callers = [:]
        callees = [:]
        importsCalled = [:]
        failure = reason
    }

    /// Analyses the code of the ELF file at `path` and indexes its call
    /// sites as they are found (``CallSiteAnalyzer/scan(path:sinkFor:)``),
    /// never holding them all, keeping the call sites of the functions for
    /// which `keepCallsTo` is true.
    ///
    /// - Returns: `nil` when the machine is not x86_64 or aarch64.
    /// - Throws: ``InspectionError`` when the file cannot be read or changed
    ///   while it was read.
    public static func analyze(path: String, keepCallsTo: @escaping (FunctionSymbol) -> Bool) throws(InspectionError) -> CodeIndex? {
        var builder: Builder?
        let scanned = try CallSiteAnalyzer.scan(path: path) { functions in
            let made = Builder(functions: functions, keepCallsTo: keepCallsTo)
            builder = made
            return made.add
        }
        guard scanned != nil, let builder else { return nil }
        return builder.index()
    }

    private init(
        functions: [FunctionSymbol], callsToImport: [String: [CallSite]], callsToFunction: [Int: [CallSite]],
        callers: [Int32: [Int32]], callees: [Int32: [Int32]], importsCalled: [Int32: Set<String>]
    ) {
        self.functions = functions
        self.callsToImport = callsToImport
        self.callsToFunction = callsToFunction
        self.callers = callers
        self.callees = callees
        self.importsCalled = importsCalled
        failure = nil
    }

    /// Takes an image's call sites one at a time and makes the index.
    private final class Builder {
        let functions: [FunctionSymbol]
        let kept: Set<Int>
        var imports: [String: [CallSite]] = [:]
        var toFunction: [Int: [CallSite]] = [:]
        /// Caller and callee, as `caller << 32 | callee`.
        var edges = Set<Int64>()
        var importsCalled: [Int32: Set<String>] = [:]

        init(functions: [FunctionSymbol], keepCallsTo: (FunctionSymbol) -> Bool) {
            self.functions = functions
            kept = Set(functions.indices.filter { keepCallsTo(functions[$0]) })
        }

        func add(_ site: CallSite) {
            switch site.callee {
            case .imported(let name):
                imports[name, default: []].append(site)
                if let caller = site.caller { importsCalled[Int32(caller), default: []].insert(name) }
            case .function(let callee):
                if kept.contains(callee) { toFunction[callee, default: []].append(site) }
                if let caller = site.caller, caller != callee { edges.insert(Int64(caller) << 32 | Int64(callee)) }
            }
        }

        func index() -> CodeIndex {
            var callers: [Int32: [Int32]] = [:]
            var callees: [Int32: [Int32]] = [:]
            for edge in edges.sorted() {
                let (caller, callee) = (Int32(edge >> 32), Int32(truncatingIfNeeded: edge))
                callers[callee, default: []].append(caller)
                callees[caller, default: []].append(callee)
            }
            return CodeIndex(
                functions: functions, callsToImport: imports, callsToFunction: toFunction,
                callers: callers, callees: callees, importsCalled: importsCalled)
        }
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
            if functions[current].isExported {
                if (callers[Int32(current)] ?? []).isEmpty { return path(from: current) }
                if firstExported == nil { firstExported = current }
            }
            for caller in (callers[Int32(current)] ?? []).map(Int.init) where previous[caller] == nil {
                previous[caller] = current
                queue.append(caller)
            }
        }
        return firstExported.map(path(from:)) ?? [function]
    }

    /// The imports that `function` calls, directly or through at most
    /// `depth` levels of the functions it calls.
    func importsReached(from function: Int, depth: Int) -> Set<String> {
        var names = Set<String>()
        var frontier: Set<Int32> = [Int32(function)]
        var seen = frontier
        for _ in 0...depth {
            var next = Set<Int32>()
            for current in frontier {
                names.formUnion(importsCalled[current] ?? [])
                for callee in callees[current] ?? [] where seen.insert(callee).inserted { next.insert(callee) }
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
            let name = site.caller.map { code.functions[$0].name }
            return FindingCallSite(
                function: name, demangled: name.flatMap { rules.demangler.any($0) }, displayName: name.map(displayName),
                address: site.address, fileOffset: site.fileOffset)
        }
        let paths = sites.compactMap(\.caller).map(code.pathFromExported)
        if let shortest = paths.min(by: { $0.count < $1.count }) {
            finding.path = shortest.map { displayName(code.functions[$0].name) } + [api]
        }
    }

    /// Calls to a function this image defines that an unsafe rule matches,
    /// from code that is not the API's own: the API's code was linked in
    /// statically (SwiftPM links the targets of a package into each of its
    /// products), so no import shows the call. One image can hold both the
    /// API and its callers, so this is decided per call:
    ///
    /// - Swift rules: a call is a finding unless the calling function belongs
    ///   to the module that defines the API
    ///   (``SwiftDeclarationPath/owningModule(ofMangled:demangled:)``, which
    ///   counts the API's closures and thunks as its own, and a member of an
    ///   extension another module declares as that module's). A call from
    ///   code no symbol names (a stripped image) counts as another module's
    ///   unless the image is named after the API's module
    ///   (`libAnalytics.so` for `Analytics`).
    /// - C, C++ and glob rules: every call to an internal (not exported)
    ///   copy. C names carry no module, and an image that exports the symbol
    ///   is taken as its provider.
    ///
    /// The definitions themselves are the provider's
    /// (``exportFindings(_:)``), never a finding here.
    func staticCallFindings(_ index: Int, code: CodeIndex) -> [Finding] {
        var findings: [Finding] = []
        for (position, function) in code.functions.enumerated() {
            let sites = (code.callsToFunction[position] ?? []).filter { $0.caller != position }
            guard !sites.isEmpty else { continue }
            let matches = rules.rules(matchingSymbol: function.name, unsafeOnly: true)
            guard !matches.isEmpty else { continue }
            let demangled = rules.demangler.any(function.name)
            let apiModule = owningModule(function.name)
            let imageIsTheModule = apiModule.map(Policy.names(of: images[index]).contains) ?? false
            for match in matches {
                let calls: [CallSite]
                if case .swift = match.matcher {
                    calls = sites.filter { site in
                        guard let caller = site.caller else { return !imageIsTheModule }
                        return owningModule(code.functions[caller].name) != apiModule
                    }
                } else {
                    calls = function.isExported ? [] : sites
                }
                guard !calls.isEmpty else { continue }
                var finding = finding(
                    match, image: index, kind: .staticCall, subject: function.name, demangled: demangled,
                    detail: "calls \(Self.quoted(function.name, demangled)), whose code is linked into this image")
                locate(&finding, sites: calls, in: code, api: finding.api ?? function.name)
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
