import LinkCheckCodeIndex
import LinkCheckImage
import LinkCheckRules

extension OwnFindings {
    /// For each function that loads code (``LoaderCalls/loadingAPIs``): a
    /// note when the function (or
    /// what it calls, two levels down) queries the OS version first, a
    /// warning when it does not (the guide: conditional loading belongs
    /// behind a run-time version check).
    func versionCheckFindings() -> [Finding] {
        guard let code else { return [] }
        var findings: [Finding] = []
        let loaders = code.callsToImport.keys.filter { LoaderCalls.loadsCode($0, rules: rules) }
        for loader in loaders.sorted() {
            let byFunction = Dictionary(grouping: code.callsToImport[loader] ?? [], by: \.caller)
            for (function, sites) in byFunction.sorted(by: { ($0.key ?? -1) < ($1.key ?? -1) }) {
                let checked = function.map { code.importsReached(from: $0, depth: LoaderCalls.versionCheckDepth).filter(LoaderCalls.isVersionQuery) } ?? []
                let rule = checked.isEmpty ? BuiltInRules.unguardedLoad : BuiltInRules.guardedLoad
                let caller = function.map { locator.displayName(code.functions[$0].name) } ?? CallLocator.uncoveredCode(sites)
                let detail = checked.isEmpty
                    ? "\(caller) calls \(loader) without a run-time OS version check"
                    : "\(caller) calls \(loader) after a run-time OS version check (\(checked.sorted().map(locator.displayName).joined(separator: ", ")))"
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
}
