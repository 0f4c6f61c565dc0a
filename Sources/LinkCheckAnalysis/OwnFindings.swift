import LinkCheckCodeIndex
import LinkCheckImage
import LinkCheckRules

/// The findings one image makes by itself, before anything propagates:
/// its imports, read-only strings, Objective-C references and dependencies
/// matched against the rules; what it provides (``ProvidedAPIs``) and calls
/// into linked-in copies (``staticCallFindings()``); its loader calls
/// without a version check (``versionCheckFindings()``); and what could not
/// be read of it. Calls made from the toolchain's own code (``ToolchainCode``)
/// are not the image's: a finding made only of them is left out, and one
/// with some loses them (``withoutToolchainCalls(_:)``).
struct OwnFindings {
    let index: Int
    let image: BinaryImage
    /// The image's ``Policy/names(of:)``.
    let names: Set<String>
    let matches: SymbolMatches
    let rules: RuleSet
    let severity: SeverityPolicy
    let locator: CallLocator
    /// The image's call sites, when they were analysed.
    let code: CodeIndex?
    /// Why its call sites could not be analysed, when they were asked for
    /// and failed.
    let codeFailure: String?
    /// Why the calls inside the image cannot be seen, when they cannot
    /// (``Analyzer/unseenCalls(_:)``).
    let unseenCalls: UnseenCalls?
    /// A remark for findings on an image whose machine call sites are not
    /// analysed for, in a run that analyses them; `nil` otherwise.
    let unanalysedMachine: FindingRemark?
    /// The functions of ``code`` that are the toolchain's
    /// (``ToolchainCode/functions(in:of:)``), by index.
    let toolchain: [Int: ToolchainCode.Origin]

    func all() -> [Finding] {
        var findings: [Finding] = []
        if let codeFailure {
            findings.append(
                Finding(
                    builtIn: BuiltInRules.partialInspection, kind: .partialInspection, image: image.name,
                    detail: .callSitesNotAnalysed(reason: codeFailure), severity: severity.completenessSeverity(index)))
        }
        findings += importFindings()
        let byName = objcByNameFindings()
        findings += objcFindings() + byName
        if code != nil {
            findings += staticCallFindings() + versionCheckFindings()
        }
        findings += providedAPIFindings()
        for warning in image.warnings {
            findings.append(
                Finding(
                    builtIn: BuiltInRules.partialInspection, kind: .partialInspection, image: image.name, detail: .readInPart(warning),
                    severity: severity.completenessSeverity(index)))
        }
        findings += stringFindings(sentByName: Set(byName.compactMap { $0.symbol.flatMap(ObjCName.init)?.selector }))
        for dependency in image.dependencies {
            for match in rules.rules(matchingLibrary: dependency.name) {
                findings.append(
                    finding(
                        match, kind: .neededLibrary, subject: dependency.name, demangled: nil,
                        detail: .links(library: dependency.name, format: image.format)))
            }
        }
        for position in findings.indices { severity.applyByNamePolicy(to: &findings[position], on: index) }
        return withoutToolchainCalls(findings)
    }

    /// A finding per rule an imported symbol matches, with the calls to
    /// it as call sites; an Objective-C class's import
    /// (`OBJC_CLASS_$_X`, `OBJC_METACLASS_$_X`) is the class reference's
    /// finding already (``objcFindings()``).
    func importFindings() -> [Finding] {
        let classesReferenced = Set(
            matches.objc.flatMap { match -> [ClassImport] in
                guard case .objc(let name) = match.matcher, name.selector == nil else { return [] }
                return ["OBJC_CLASS_$_", "OBJC_METACLASS_$_"].map { ClassImport(rule: match.rule.id, symbol: $0 + name.className) }
            })
        return matches.imports.flatMap { symbol, symbolMatches in
            symbolMatches.filter { !classesReferenced.contains(ClassImport(rule: $0.rule.id, symbol: symbol.name)) }.map { match in
                let demangled = rules.demangler.any(symbol.name)
                var finding = finding(
                    match, kind: .importedSymbol, subject: symbol.name, demangled: demangled,
                    detail: .imports(symbol: symbol.name, demangled: demangled))
                if let unanalysedMachine { finding.remark(unanalysedMachine) }
                if let code {
                    locator.locate(&finding, sites: code.callsToImport[symbol.name] ?? [], in: code, api: finding.api ?? symbol.name)
                }
                return finding
            }
        }
    }

    /// A rule's Objective-C class and one of the class's import symbols.
    struct ClassImport: Hashable {
        var rule: RuleID
        var symbol: String
    }

    /// `findings` without the calls made from the toolchain's own code
    /// (``toolchain``): a finding all of whose call sites are in it is left
    /// out, one with some keeps the others (and its call path is found
    /// again from them, when every one is a call); a finding without call
    /// sites stays.
    func withoutToolchainCalls(_ findings: [Finding]) -> [Finding] {
        guard let code, !toolchain.isEmpty else { return findings }
        let names = Set(toolchain.keys.map { code.functions[$0].name })
        let inToolchain = { (site: FindingCallSite) in site.function.map(names.contains) ?? false }
        guard findings.contains(where: { $0.callSites.contains(where: inToolchain) }) else { return findings }
        let sites: [CallSite] =
            code.callsToImport.values.flatMap { $0 } + code.callsToSelector.values.flatMap { $0 }
            + code.callsToFunction.values.flatMap { $0 }
        let byAddress = Dictionary(sites.map { ($0.address, $0) }, uniquingKeysWith: { first, _ in first })
        return findings.compactMap { finding in
            guard finding.callSites.contains(where: inToolchain) else { return finding }
            let remaining = finding.callSites.filter { !inToolchain($0) }
            guard !remaining.isEmpty else { return nil }
            let kept = remaining.compactMap { byAddress[$0.address] }
            guard kept.count == remaining.count else {
                // A site that is no call (a load of a literal or of a
                // selector reference) is kept as it was found, never lost.
                var trimmed = finding
                trimmed.callSites = remaining
                return trimmed
            }
            var located = finding
            located.callSites = []
            located.path = []
            locator.locate(
                &located, sites: kept, in: code, api: finding.path.last ?? finding.api ?? finding.symbol ?? finding.rule.rawValue)
            return located
        }
    }

    /// A finding of `match` on this image, with the severity its role and
    /// SDK give it, saying `detail`; the reasons for that severity
    /// (``SeverityPolicy/severity(of:on:usedBy:)``) are its first remarks.
    func finding(_ match: RuleMatch, kind: Finding.Kind, subject: String, demangled: String?, detail: FindingDetail) -> Finding {
        let (severity, remarks, lifted) = severity.severity(of: match.rule, on: index, usedBy: image)
        var finding = Finding(
            rule: match.rule.id, severity: severity, category: match.rule.category, kind: kind,
            image: image.name, symbol: subject, demangled: demangled,
            statement: .detail(detail, ruleMessage: match.rule.message), fixit: match.rule.fixit, source: match.rule.source)
        finding.remarks = remarks
        finding.markingLifted = lifted
        finding.api = Self.label(match, symbol: subject, demangled: demangled)
        if isUseByName(kind: kind, subject: subject) { finding.byName = ByNameUse() }
        return finding
    }

    /// Whether a finding of `kind` about `subject` shows a use by name
    /// (``ByNameUse``): a class's method reached by name, or, in a Mach-O
    /// image, the name of a selector an `objc` rule names held as a string
    /// (a selector the code sends is a selector reference there; in ELF an
    /// Objective-C send leaves the selector's name as a string, which is no
    /// use by name). A macOS image's selector string is none either: AppKit
    /// has selectors of the same names (`-[NSApplication sharedApplication]`,
    /// `-[NSWorkspace openURL:]`).
    func isUseByName(kind: Finding.Kind, subject: String) -> Bool {
        switch kind {
        case .objcByName: true
        case .stringLiteral:
            SymbolMatches.selectorStringsMayBeUsesByName(in: image) && rules.objcMethodNames.selectors.contains(subject)
        default: false
        }
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

    /// ``SwiftDeclarationPath/owningModule(ofMangled:demangled:)`` of a
    /// symbol, demangled through the rule set's demangler.
    func owningModule(_ symbol: String) -> String? {
        SwiftDeclarationPath.owningModule(ofMangled: symbol, demangled: rules.demangler.any(symbol))
    }
}
