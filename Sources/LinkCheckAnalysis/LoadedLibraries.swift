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
                let from =
                    edge.callSite.map { site in
                        let function = site.caller.flatMap { code[index]?.functions[$0].name }
                        return " (from "
                            + (function.map { "\(locator.displayName($0)) at 0x\(String(site.address, radix: 16))" }
                                ?? "code at 0x\(String(site.address, radix: 16)) that no symbol covers") + ")"
                    } ?? (edge.source == .note ? " (declared in .note.dlopen)" : "")
                let rule: Rule
                let detail: String
                let level: Severity
                var context = ""
                var ruleMessage: String? = nil
                if let target = edge.target {
                    passedThrough.insert(target)
                    let where_ = "\(edge.name) → \(images[target].name)"
                    let known = verdict(target)
                    if unsafeImages.contains(target) {
                        rule = BuiltInRules.unsafeLoad
                        level = inExtensionScope ? .error : .note
                        context = inExtensionScope ? "" : " (only the containing app runs this code)"
                        detail = "loads \(where_)\(from)"
                    } else if incompleteImages.contains(target) {
                        rule = BuiltInRules.partialInspection
                        level = severity.completenessSeverity(index)
                        detail = "loads \(where_)\(from), which could be read only in part"
                    } else if known.verdict == .unsafe {
                        rule = BuiltInRules.unsafeLoad
                        level = inExtensionScope ? .error : .note
                        context = inExtensionScope ? "" : " (only the containing app runs this code)"
                        detail = "loads \(where_)\(from), whose verdict is unsafe (\(known.rules.map(\.rawValue).joined(separator: ", ")))"
                        ruleMessage = "the loaded library is not extension-safe"
                    } else if known.verdict != .extensionSafe {
                        rule = BuiltInRules.missingLoad
                        level = rule.severity
                        detail =
                            "loads \(where_)\(from), whose verdict is \(known.verdict.rawValue) (\(known.rules.map(\.rawValue).joined(separator: ", ")))"
                    } else {
                        rule = BuiltInRules.safeLoad
                        level = rule.severity
                        detail = "loads \(where_)\(from)"
                    }
                } else {
                    rule = BuiltInRules.missingLoad
                    level = rule.severity
                    let searched =
                        edge.searchedInVain.map {
                            " (dyld looks in \($0.map { severity.bundles.displayPath(of: BundleLayout.lexicallyNormal($0)) }.joined(separator: ", ")))"
                        } ?? ""
                    detail = "loads \(edge.name)\(from), which is not found where the loader would look\(searched)"
                }
                var finding = Finding(
                    builtIn: rule, kind: .loadedLibrary, image: images[index].name, symbol: edge.name,
                    chain: [images[index].shortName, edge.name], detail: detail, severity: level)
                if let ruleMessage { finding.statement = .words("\(detail): \(ruleMessage)") }
                finding.remark(context)
                if let site = edge.callSite, let code = code[index] {
                    locator.locate(&finding, sites: [site], in: code, api: edge.name)
                }
                findings.append(finding)
            }
        }
        return (findings, passedThrough)
    }
}
