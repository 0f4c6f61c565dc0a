import LinkCheckCodeIndex
import LinkCheckImage
import LinkCheckInspection
import LinkCheckRules

/// What the scanned images load at run time, and whether it is safe
/// (`DLOP001`–`DLOP003`).
struct LoadedLibraries {
    let graph: LinkGraph
    let code: [Int: CodeIndex]
    let severity: SeverityPolicy
    let locator: CallLocator

    /// A finding per library an image loads: an error when it is unsafe and
    /// the loader has to be extension-safe (``SeverityPolicy/mustBeExtensionSafe(_:)``),
    /// a note when it is safe (or only the app can run the loader), a
    /// warning when it is not found. A library that could be
    /// read only in part (`incompleteImages`: its own `INSP001`, or one of
    /// what it links) is never called safe: the loader gets `INSP001`, an
    /// error wherever the loader has to be safe.
    ///
    /// `DLOP002` ("extension-safe") is said only of a library whose
    /// verdict (`verdict`, from its findings other than those of what it
    /// loads) is `extension-safe`: one unsafe for another reason than an
    /// API (`BNDL003`, `ARCH001`…) gets `DLOP001` naming the rules, one
    /// that needs review `DLOP003` (linkcheck cannot tell).
    func findings(
        unsafeImages: Set<Int>, incompleteImages: Set<Int>, verdict: (Int) -> (verdict: Verdict, rules: [RuleID])
    ) -> (findings: [Finding], passedThrough: Set<Int>) {
        let images = graph.images
        var findings: [Finding] = []
        var passedThrough = Set<Int>()
        for (index, edges) in graph.loads where index < graph.scannedCount {
            // The loader must be safe: an extension, what one links or
            // loads, a framework nothing links (roles given), any framework
            // (no roles); else only the app runs it.
            let inExtensionScope = severity.mustBeExtensionSafe(index)
            for edge in edges where edge.isKnown {
                let site: FindingDetail.LoadSite? =
                    edge.callSite.map { site in
                        .call(
                            function: site.caller.flatMap { code[index]?.functions[$0].name }.map(locator.displayName),
                            address: site.address)
                    } ?? (edge.source == .note ? .dlopenNote : nil)
                let rule: Rule
                let outcome: FindingDetail.LoadOutcome
                let level: Severity
                var remark: FindingRemark? = nil
                var ruleMessage: String? = nil
                if let target = edge.target {
                    passedThrough.insert(target)
                    let found = images[target].name
                    let known = verdict(target)
                    if unsafeImages.contains(target) {
                        rule = BuiltInRules.unsafeLoad
                        level = inExtensionScope ? .error : .note
                        remark = inExtensionScope ? nil : .onlyContainingAppRuns
                        outcome = .found(image: found)
                    } else if incompleteImages.contains(target) {
                        rule = BuiltInRules.partialInspection
                        level = severity.completenessSeverity(index)
                        outcome = .foundReadInPart(image: found)
                    } else if known.verdict == .unsafe {
                        rule = BuiltInRules.unsafeLoad
                        level = inExtensionScope ? .error : .note
                        remark = inExtensionScope ? nil : .onlyContainingAppRuns
                        outcome = .foundWithVerdict(image: found, verdict: known.verdict, rules: known.rules)
                        ruleMessage = BuiltInRules.unsafeVerdictLoadMessage
                    } else if known.verdict != .extensionSafe {
                        rule = BuiltInRules.missingLoad
                        level = rule.severity
                        outcome = .foundWithVerdict(image: found, verdict: known.verdict, rules: known.rules)
                    } else {
                        rule = BuiltInRules.safeLoad
                        level = rule.severity
                        outcome = .found(image: found)
                    }
                } else {
                    rule = BuiltInRules.missingLoad
                    level = rule.severity
                    outcome = .notFound(
                        searched: edge.searchedInVain.map { $0.map { severity.bundles.displayPath(of: BundleLayout.lexicallyNormal($0)) } })
                }
                var finding = Finding(
                    builtIn: rule, kind: .loadedLibrary, image: images[index].name, symbol: edge.name,
                    chain: [images[index].shortName, edge.name], detail: .loads(library: edge.name, site: site, outcome: outcome),
                    ruleMessage: ruleMessage, severity: level)
                if let remark { finding.remark(remark) }
                if let site = edge.callSite, let code = code[index] {
                    locator.locate(&finding, sites: [site], in: code, api: edge.name)
                }
                findings.append(finding)
            }
        }
        return (findings, passedThrough)
    }
}
