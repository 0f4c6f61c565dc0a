import LinkCheckImage
import LinkCheckRules

/// Transitive findings: an image that links or loads, directly or not, an
/// image with an unsafe finding gets that finding too, with the chain of
/// images from it down to the one that uses the API (a hop made by loading
/// at run time is marked `(dlopen)`); one that links an image read only in
/// part is incomplete too.
struct Propagation {
    let graph: LinkGraph
    let rules: RuleSet
    let severity: SeverityPolicy

    /// The transitive findings of the scanned images (with the index of the
    /// image each is on), made from `own` (each image's own findings, by
    /// index), and every image index their chains pass through.
    func findings(own: [[Finding]]) -> (findings: [(image: Int, finding: Finding)], passedThrough: Set<Int>) {
        let images = graph.images
        var findings: [(image: Int, finding: Finding)] = []
        var passedThrough = Set<Int>()
        for (origin, originFindings) in own.enumerated() {
            // A use by name travels as a use does, a selector string too
            // (what links the image runs it).
            let unsafe = originFindings.filter { finding in
                finding.kind != .providedSymbol && (finding.category.makesUnsafe || finding.byName != nil)
            }
            let partial = originFindings.contains { $0.kind == .partialInspection }
            guard !unsafe.isEmpty || partial else { continue }
            // An image that loads the origin itself has DLOP001 for that
            // hop (``LoadedLibraries``); what links it gets the chain.
            for (dependent, chain) in graph.dependents(of: origin)
            where dependent < graph.scannedCount && !graph.loadsOnly(from: chain[0], to: chain[1]) {
                passedThrough.formUnion(chain)
                let names = chain.indices.map { position in
                    position > 0 && graph.loadsOnly(from: chain[position - 1], to: chain[position])
                        ? images[chain[position]].shortName + " (dlopen)" : images[chain[position]].shortName
                }
                let imageNames = chain.map { images[$0].name }
                if partial {
                    // What a linked library holds is part of what its
                    // dependents run: one it could not read in full leaves
                    // them incomplete too.
                    var finding = Finding(
                        builtIn: BuiltInRules.partialInspection, kind: .transitive, image: images[dependent].name,
                        symbol: images[origin].shortName, chain: names,
                        detail: .linksReadInPart(chain: names),
                        severity: severity.completenessSeverity(dependent))
                    finding.chainImages = imageNames
                    findings.append((dependent, finding))
                }
                for source in unsafe {
                    guard let rule = rules.rule(withID: source.rule) else { continue }
                    let api = source.api ?? source.symbol ?? rule.api
                    var (level, remarks, lifted) = severity.severity(of: rule, on: dependent, usedBy: images[origin])
                    if source.unconfirmed {
                        level = min(level, .warning)
                        remarks.append(.byNameToldFromStrings(of: images[origin].shortName))
                    }
                    var finding = Finding(
                        rule: rule.id, severity: level, category: rule.category, kind: .transitive,
                        image: images[dependent].name, symbol: source.symbol, demangled: source.demangled,
                        chain: names + [api],
                        statement: .detail(.reachedThrough(path: names + [api]), ruleMessage: rule.message),
                        fixit: rule.fixit, source: rule.source)
                    finding.remarks = remarks
                    finding.callSites = source.callSites
                    finding.path = source.path
                    finding.chainImages = imageNames
                    finding.markingLifted = lifted
                    finding.unconfirmed = source.unconfirmed
                    finding.byName = source.byName
                    severity.applyByNamePolicy(to: &finding, on: dependent)
                    findings.append((dependent, finding))
                }
            }
        }
        return (findings, passedThrough)
    }
}
