import LinkCheckCodeIndex
import LinkCheckImage
import LinkCheckRules

extension OwnFindings {
    /// For each function that loads code (``LoaderCalls/loadingAPIs``): a
    /// note when the function (or what it calls, two levels down) queries
    /// the OS version, or a function on the call path down to it does
    /// (`-[PHAppDelegate application:didFinishLaunchingWithOptions:]` reads
    /// `-[UIDevice systemVersion]`, then calls `load_capture_plugin`, which
    /// calls `dlopen`); a warning when none does (the guide: conditional
    /// loading belongs behind a run-time version check).
    func versionCheckFindings() -> [Finding] {
        guard let code else { return [] }
        var findings: [Finding] = []
        let loaders = code.callsToImport.keys.filter { LoaderCalls.loadsCode($0, rules: rules) }
        for loader in loaders.sorted() {
            let byFunction = Dictionary(grouping: code.callsToImport[loader] ?? [], by: \.caller)
            for (function, sites) in byFunction.sorted(by: { ($0.key ?? -1) < ($1.key ?? -1) }) {
                let checked = function.map { versionQueries(before: $0, in: code) } ?? []
                let rule = checked.isEmpty ? BuiltInRules.unguardedLoad : BuiltInRules.guardedLoad
                let caller = function.map { locator.displayName(code.functions[$0].name) } ?? CallLocator.uncoveredCode(sites)
                let detail = checked.isEmpty
                    ? "\(caller) calls \(loader) without a run-time OS version check"
                    : "\(caller) calls \(loader) after a run-time OS version check (\(checked.sorted().joined(separator: ", ")))"
                // Only the containing app runs this code: the guide's advice,
                // not a reason to stop a release.
                let level = rule.severity == .warning && severity.isAppOnly(index) ? Severity.note : rule.severity
                var finding = Finding(builtIn: rule, kind: .versionCheck, image: image.name, symbol: loader, detail: detail, severity: level)
                locator.locate(&finding, sites: sites, in: code, api: loader)
                findings.append(finding)
            }
        }
        return findings
    }

    /// The OS version queries made before `function` loads code: the
    /// imports (``LoaderCalls/isVersionQuery(_:)``) and Objective-C
    /// selectors (``LoaderCalls/versionQuerySelectors``) that `function`
    /// calls or sends, itself or two levels of callees down, and those that
    /// the functions on the call path down to it (``CodeIndex/pathFromExported(to:)``)
    /// call or send themselves; names as ``CallLocator/displayName(_:)``
    /// gives them, a caller's with "in CALLER".
    private func versionQueries(before function: Int, in code: CodeIndex) -> Set<String> {
        let reached = code.functionsReached(from: function, depth: LoaderCalls.versionCheckDepth)
        var queries = Set(code.importsReached(from: function, depth: LoaderCalls.versionCheckDepth).filter(LoaderCalls.isVersionQuery).map(locator.displayName))
        for selector in LoaderCalls.versionQuerySelectors where (code.callsToSelector[selector] ?? []).contains(where: { $0.caller.map(reached.contains) == true }) {
            queries.insert(selector)
        }
        for caller in code.pathFromExported(to: function).dropLast() {
            let own = code.importsReached(from: caller, depth: 0).filter(LoaderCalls.isVersionQuery).map(locator.displayName)
                + LoaderCalls.versionQuerySelectors.filter { selector in (code.callsToSelector[selector] ?? []).contains { $0.caller == caller } }
            for query in own { queries.insert("\(query) in \(locator.displayName(code.functions[caller].name))") }
        }
        return queries
    }
}

