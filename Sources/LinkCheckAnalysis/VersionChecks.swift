import LinkCheckCodeIndex
import LinkCheckImage
import LinkCheckRules

extension OwnFindings {
    /// For each function that loads code (``LoaderCalls/loadingAPIs``): a
    /// note when the function (or what it calls, two levels down) queries
    /// the OS version, or every function that calls it does
    /// (`-[PHAppDelegate application:didFinishLaunchingWithOptions:]` reads
    /// `-[UIDevice systemVersion]`, then calls `load_capture_plugin`, which
    /// calls `dlopen`); a warning otherwise (the guide: conditional loading
    /// belongs behind a run-time version check).
    func versionCheckFindings() -> [Finding] {
        guard let code else { return [] }
        var findings: [Finding] = []
        let loaders = code.callsToImport.keys.filter { LoaderCalls.loadsCode($0, rules: rules) }
        for loader in loaders.sorted() {
            let byFunction = Dictionary(grouping: code.callsToImport[loader] ?? [], by: \.caller)
            for (function, sites) in byFunction.sorted(by: { ($0.key ?? -1) < ($1.key ?? -1) }) {
                let checked = function.map { versionQueries(before: $0, in: code) } ?? []
                let rule = checked.isEmpty ? BuiltInRules.unguardedLoad : BuiltInRules.guardedLoad
                let caller =
                    function.map { FindingDetail.Caller.function(locator.displayName(code.functions[$0].name)) }
                    ?? .uncoveredCode(addresses: sites.map(\.address))
                let detail = FindingDetail.loaderCall(
                    caller: caller, loader: loader,
                    versionChecks: checked.sorted { ($0.query, $0.caller ?? "") < ($1.query, $1.caller ?? "") })
                // Only the containing app runs this code: the guide's advice,
                // not a reason to stop a release.
                let level = rule.severity == .warning && severity.isAppOnly(index) ? Severity.note : rule.severity
                var finding = Finding(
                    builtIn: rule, kind: .versionCheck, image: image.name, symbol: loader, detail: detail, severity: level)
                locator.locate(&finding, sites: sites, in: code, api: loader)
                findings.append(finding)
            }
        }
        return findings
    }

    /// The OS version queries that guard `function`'s loads: the imports
    /// (``LoaderCalls/isVersionQuery(_:)``) and Objective-C selectors
    /// (``LoaderCalls/versionQuerySelectors``) that `function` calls or
    /// sends, itself or ``LoaderCalls/versionCheckDepth`` levels of callees
    /// down; failing those, the ones its callers make themselves, when every
    /// caller makes one (a caller that loads without a check leaves the
    /// load unguarded) and `function` is called only from the image (no
    /// library's export, no Objective-C method), each with that caller. Names as
    /// ``CallLocator/displayName(_:)`` gives them. Which comes first in a
    /// function, the query or the call, is not told apart.
    private func versionQueries(before function: Int, in code: CodeIndex) -> Set<FindingDetail.VersionQuery> {
        let own = queries(in: code.functionsReached(from: function, depth: LoaderCalls.versionCheckDepth), code: code)
        guard own.isEmpty else { return own }
        // A library's exported function, or an Objective-C method, is called from outside the image too, unseen.
        let symbol = code.functions[function]
        guard !(symbol.isExported && image.fileType != .executable), !(symbol.name.hasPrefix("-[") || symbol.name.hasPrefix("+[")) else {
            return []
        }
        let callers = code.callers(of: function).filter { $0 != function }
        let byCaller = callers.map { caller in (caller, queries(in: [caller], code: code)) }
        guard !byCaller.isEmpty, byCaller.allSatisfy({ !$0.1.isEmpty }) else { return [] }
        return Set(
            byCaller.flatMap { caller, found in
                found.map { FindingDetail.VersionQuery(query: $0.query, caller: locator.displayName(code.functions[caller].name)) }
            })
    }

    /// The version queries the functions `functions` make themselves, and
    /// compiler-rt's availability check among them (``ToolchainCode``:
    /// `@available` calls `__isPlatformVersionAtLeast`, linked into the
    /// image, not imported).
    private func queries(in functions: Set<Int>, code: CodeIndex) -> Set<FindingDetail.VersionQuery> {
        var found = Set<String>(
            functions.flatMap { code.importsReached(from: $0, depth: 0) }.filter(LoaderCalls.isVersionQuery).map(locator.displayName))
        found.formUnion(functions.map { code.functions[$0].name }.filter(ToolchainCode.availabilityCheckEntryPoints.contains))
        for selector in LoaderCalls.versionQuerySelectors
        where (code.callsToSelector[selector] ?? []).contains(where: { $0.caller.map(functions.contains) == true }) {
            found.insert(selector)
        }
        return Set(found.map { FindingDetail.VersionQuery(query: $0) })
    }
}
