import Foundation
import LinkCheckCodeIndex
import LinkCheckImage
import LinkCheckInspection
import LinkCheckRules

/// Rules × policy × link graph → findings and verdicts, in this order:
///
/// 1. each image's own findings (``OwnFindings``): its symbols, strings,
///    Objective-C references and dependencies matched against the rules,
///    what it provides, calls into linked-in copies, loader calls;
/// 2. suppressions, before anything propagates;
/// 3. transitive findings (``Propagation``): an image that links an image
///    with an unsafe finding gets it too, with the chain;
/// 4. what code loads (``LoadedLibraries``), architecture
///    (``ArchitectureChecks``), the app bundle (``BundleChecks``), what App
///    Store Connect would refuse on upload (``UploadChecks``), missing
///    libraries (``MissingLibraries``), and Mach-O frameworks'
///    `MH_APP_EXTENSION_SAFE` against their code (``ExtensionSafeFlagCheck``);
/// 5. the baseline, then verdicts (``Verdicts``) from what remains;
/// 6. warnings about the roles assigned by name (``RoleNotices``).
///
/// Severity by role (``SeverityPolicy``) applies throughout: the containing
/// app, a framework only the app links or loads, and an extension type the
/// rule allows turn unsafe findings into notes.
public struct Analyzer: Sendable {
    let graph: LinkGraph
    let rules: RuleSet
    let policy: Policy
    /// The paths given and the bundles around the files found under them
    /// (``Discovery/paths``, ``Discovery/bundles``).
    let inputs: [String]
    let bundles: BundleLayout
    /// Call sites, for the images whose code was analysed, by index into
    /// the graph's images.
    let code: [Int: CodeIndex]
    /// Whether call sites were analysed at all in this run.
    let callSitesAnalysed: Bool
    /// `matches[i]`: image `i`'s ``SymbolMatches``.
    let matches: [SymbolMatches]
    let severity: SeverityPolicy
    let locator: CallLocator
    let imageIndex: [String: Int]
    /// `names[i]`: image `i`'s ``Policy/names(of:)``, made once: its role,
    /// the suppressions that match its findings and whether it is named
    /// after an API's module all ask for them.
    let names: [Set<String>]

    /// - Parameters:
    ///   - graph: the images (scanned, then libraries found outside them)
    ///     and every edge between them (``LinkResolver``).
    ///   - policy: what the user configured.
    ///   - bundles: the bundles around the scanned files (``Discovery/bundles``):
    ///     the roles they give come after those assigned by name.
    ///   - inputs: the paths given (``Discovery/paths``): a baseline names
    ///     an image outside bundles by its path relative to the one that
    ///     holds it (``Baseline/imageKey(of:placement:inputs:external:)``).
    ///   - code: the indexed call sites of the images that need them;
    ///     `nil` when call sites are not analysed in this run.
    ///   - matches: every image's ``SymbolMatches`` (``RuleMatching/matches(of:rules:jobs:)``);
    ///     one missing is a programming error.
    public init(
        graph: LinkGraph, rules: RuleSet, policy: Policy, bundles: BundleLayout = BundleLayout(), inputs: [String] = [],
        code: [ImageIdentity: CodeIndex]? = nil, matches: [ImageIdentity: SymbolMatches]
    ) {
        self.graph = graph
        self.rules = rules
        self.policy = policy
        self.bundles = bundles
        self.inputs = inputs
        var indexed: [Int: CodeIndex] = [:]
        for (index, image) in graph.images.enumerated() { indexed[index] = code?[image.identity] }
        self.code = indexed
        callSitesAnalysed = code != nil
        self.matches = graph.images.map { image in
            guard let matched = matches[image.identity] else { preconditionFailure("\(image.name) was not matched against the rules") }
            return matched
        }
        names = graph.images.map(Policy.names(of:))
        severity = SeverityPolicy(images: graph.images, names: names, policy: policy, bundles: bundles, graph: graph)
        locator = CallLocator(demangler: rules.demangler)
        imageIndex = Dictionary(graph.images.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Analyses `images` linked among themselves by name only
    /// (``LinkGraph/init(images:loads:)``), outside any bundle.
    public init(images: [BinaryImage], rules: RuleSet, policy: Policy, loads: [ImageIdentity: [LoadRequest]] = [:]) {
        let graph = LinkGraph(images: images, loads: loads)
        self.init(graph: graph, rules: rules, policy: policy, matches: RuleMatching.matches(of: graph.images, rules: rules, jobs: 1))
    }

    /// What ``run(jobs:)`` found.
    public struct Outcome: Sendable {
        /// The reported images, in input order.
        public var images: [ImageReport]
        /// The findings, in report order, without those the baseline
        /// accepted.
        public var findings: [Finding]
        /// The findings ``Policy/baseline`` accepted (not in `findings`).
        public var baselined: [Finding]
        /// Warnings about the run itself (an unused suppression, a role
        /// name that matches no image).
        public var notices: [String]
        /// Information about the run: what the toolchain's own code in the
        /// images calls, left out of the findings (``ToolchainCode``), once
        /// per run; how many findings a baseline read from a file accepted.
        public var remarks: [String] = []
    }

    /// Runs every check and gives every reported image its verdict.
    ///
    /// A library found outside the scanned images is reported, with its own
    /// findings, only when a transitive finding's chain passes through it.
    ///
    /// Suppressed findings (``Policy/suppressions``) are dropped before
    /// they propagate, so accepting a framework's finding also accepts what
    /// it causes in the images that link it; the outcome's `notices` name
    /// every suppression that matched nothing. Findings the baseline
    /// (``Policy/baseline``) holds are then set aside, and verdicts come
    /// last, from the findings that remain: an image is unsafe exactly when
    /// an error finding is listed for it (``Verdict``). Images are matched
    /// against the rules `jobs` at a time.
    public func run(jobs: Int = ProcessInfo.processInfo.activeProcessorCount) -> Outcome {
        let images = graph.images
        var suppressed: [Finding] = []
        let keep = { (finding: Finding) -> Bool in
            let names = self.names[self.imageIndex[finding.image] ?? 0]
            guard policy.suppressions.contains(where: { Suppressions.matches($0, finding, names) }) else { return true }
            suppressed.append(finding)
            return false
        }
        let own = parallelMap(images.indices.map { $0 }, jobs: jobs) { ownFindings($0).all() }.map { $0.filter(keep) }
        let (transitive, passedThrough) = Propagation(graph: graph, rules: rules, severity: severity).findings(own: own)
        let unsafeImages = Set(
            own.indices.filter { index in
                own[index].contains { $0.apiUse == .use }
            }
        ).union(transitive.filter { $0.finding.apiUse == .use }.map(\.image))
        let incompleteImages = Set(own.indices.filter { own[$0].contains { $0.kind == .partialInspection } })
            .union(transitive.filter { $0.finding.rule == BuiltInRules.partialInspection.id }.map(\.image))
        let bundle = BundleChecks(graph: graph, severity: severity, bundles: bundles).findings()
        let checks =
            ArchitectureChecks(graph: graph, policy: policy, unloadable: severity.unloadable).findings() + bundle.findings
            + UploadChecks(graph: graph, bundles: bundles, unloadable: severity.unloadable).findings()
            + MissingLibraries(graph: graph, severity: severity).findings()
            .filter { !bundle.replacedMissing.contains(BundleChecks.Dependency(image: $0.image, installName: $0.symbol ?? "")) }
        // A loaded library's verdict, from all that is known of it but
        // what it loads in turn: only an extension-safe one is called so.
        let known = Dictionary(grouping: own.joined() + transitive.map(\.finding) + checks, by: \.image)
        let loadedVerdict = { (target: Int) -> (verdict: Verdict, rules: [RuleID]) in
            let findings = (known[images[target].name] ?? []).filter { $0.severity != .note }
            return (Verdicts.verdict(findings: findings, appOnly: false), Array(Set(findings.map(\.rule))).sorted())
        }
        let (loaded, loadedImages) = LoadedLibraries(graph: graph, code: code, severity: severity, locator: locator)
            .findings(unsafeImages: unsafeImages, incompleteImages: incompleteImages, verdict: loadedVerdict)
        let unsafeLoaded = unsafeImages.union(
            graph.loads.values.joined().compactMap(\.target).filter { loadedVerdict($0).verdict == .unsafe })
        let reported = Set(0..<graph.scannedCount).union(passedThrough).union(loadedImages)
        var findings = own.enumerated().filter { reported.contains($0.offset) }.flatMap(\.element)
        findings += transitive.filter { reported.contains($0.image) }.map(\.finding)
        findings += loaded + checks
        let flags = ExtensionSafeFlagCheck(graph: graph, severity: severity)
        // The flag is a claim about the code: a use by name, and one that
        // makes the image need review, is evidence against it too.
        let usesAPI = Set(findings.filter { $0.apiUse != .none }.map(\.image))
        let readInPart = Set(findings.filter { BuiltInRules.isCompleteness($0.rule) }.map(\.image))
        var flagCases: [Int: ExtensionSafeFlag] = [:]
        for index in reported {
            flagCases[index] = flags.flagCase(
                index, usesUnavailableAPI: usesAPI.contains(images[index].name), readInPart: readInPart.contains(images[index].name))
        }
        findings += flags.findings(cases: flagCases)
        findings = findings.filter(keep).map { severity.unloadable.capped($0, on: imageIndex[$0.image]) }
        findings.sort(by: Finding.reportOrder)
        let namesByImage =
            policy.suppressions.isEmpty
            ? [:] : Dictionary(zip(images.map(\.name), names), uniquingKeysWith: { first, _ in first })
        let scanned = Array(images[..<graph.scannedCount])
        let notices =
            Suppressions.apply(policy.suppressions, file: policy.suppressionsFile, to: suppressed, images: namesByImage).notices
            + RoleNotices.conflictingNames(policy) + RoleNotices.unmatchedNames(policy, Array(names[..<graph.scannedCount]))
            + RoleNotices.bundleRolesOverridden(policy, scanned, names: names, roles: severity.roles, bundles: bundles)
        var baselined: [Finding] = []
        let keys = Baseline.imageKeys(images, scannedCount: graph.scannedCount, bundles: bundles, inputs: inputs)
        if let baseline = policy.baseline {
            let key = { (name: String) in keys[name] ?? name }
            baselined = baseline.acceptedFindings(findings, key: key)
            findings = baseline.newFindings(findings, key: key)
        }
        let byImage = Dictionary(grouping: findings, by: \.image)
        let blocking = Verdicts.launchBlocking(findings)
        let launchBlocked = Set(reported.filter { blocking.contains(images[$0].name) }.flatMap(reachedBy).map { images[$0].name })
        let reports = reported.sorted().map { index in
            var report = imageReport(
                index, findings: byImage[images[index].name] ?? [], reported: reported, unsafeImages: unsafeLoaded,
                launchBlocked: launchBlocked.contains(images[index].name))
            report.extensionSafeFlag = flagCases[index]
            report.baselineKey = keys[images[index].name] ?? images[index].name
            return report
        }
        let toolchainCalls = reported.sorted().compactMap { index -> (image: String, calls: [ToolchainCode.Origin: Set<String>])? in
            guard let analysed = code[index], analysed.failure == nil else { return nil }
            let calls = ToolchainCode.calls(in: analysed, of: images[index])
            return calls.isEmpty ? nil : (images[index].shortName, calls)
        }
        var outcome = Outcome(images: reports, findings: findings, baselined: baselined, notices: notices)
        outcome.remarks = ToolchainCode.remarks(toolchainCalls) + [policy.baseline?.remark(accepted: baselined.count)].compactMap { $0 }
        return outcome
    }

    /// Image `index`'s own findings, with what they need.
    func ownFindings(_ index: Int) -> OwnFindings {
        let image = graph.images[index]
        let analysed = code[index].flatMap { $0.failure == nil ? $0 : nil }
        let unanalysed =
            callSitesAnalysed && !CodeIndex.supports(image)
            ? FindingRemark.callSitesNotAnalysed(architecture: image.architecture, format: image.format) : nil
        return OwnFindings(
            index: index, image: image, names: names[index], matches: matches[index], rules: rules, severity: severity, locator: locator,
            code: analysed, codeFailure: code[index]?.failure, unseenCalls: unseenCalls(index), unanalysedMachine: unanalysed,
            toolchain: analysed.map { ToolchainCode.functions(in: $0, of: image) } ?? [:])
    }

    /// Why the calls inside image `index` cannot be seen, so that static
    /// calls cannot be decided: call sites are off in this run, not
    /// analysed for the image's machine, their analysis failed, or the image
    /// is a library found outside the scanned paths (whose code is not
    /// analysed); `nil` when its code was analysed.
    func unseenCalls(_ index: Int) -> UnseenCalls? {
        if let code = code[index] { return code.failure.map { .analysisFailed($0) } }
        let image = graph.images[index]
        if !callSitesAnalysed { return .turnedOff }
        if !CodeIndex.supports(image) { return .unsupported(image.architecture) }
        return .notScanned
    }

    /// The extensions and containing apps that link or load image `index`,
    /// directly or not (itself, when it is one).
    func reachedBy(_ index: Int) -> [Int] {
        severity.extensionsReaching[index] + severity.appsReaching[index]
    }

    /// The report of image `index`, with its verdict (``Verdicts``) from
    /// `findings` (those the report lists for it) and whether a bundle
    /// error of what it links or loads blocks it at launch
    /// (`launchBlocked`, for an extension); a library it loads is unsafe
    /// when in `unsafeImages`.
    func imageReport(_ index: Int, findings: [Finding], reported: Set<Int>, unsafeImages: Set<Int>, launchBlocked: Bool) -> ImageReport {
        let images = graph.images
        let image = images[index]
        let verdict = Verdicts.verdict(
            findings: findings, appOnly: severity.isAppOnly(index), notLoaded: severity.unloadable.contains(index),
            launchBlocked: launchBlocked && severity.roles[index].role == .extension)
        var report = ImageReport(
            image: image, role: severity.roles[index], verdict: verdict,
            links: graph.edges[index].filter(reported.contains).map { images[$0].name },
            provides: Array(Set(findings.filter { $0.kind == .providedSymbol }.map(\.rule))).sorted(),
            external: index >= graph.scannedCount)
        report.reachedBy = reachedBy(index).map { images[$0].name }.sorted()
        report.loads = (graph.loads[index] ?? []).map { edge in
            let verdict: LoadVerdict =
                edge.target.map { unsafeImages.contains($0) ? .unsafe : .extensionSafe }
                ?? (edge.isKnown ? .missing : .unknown)
            return LoadReport(
                name: edge.name, image: edge.target.map { images[$0].name }, verdict: verdict,
                function: edge.callSite?.caller.flatMap { code[index]?.functions[$0].name }.map(locator.displayName),
                address: edge.callSite?.address, source: edge.source)
        }
        report.bundle = bundles.placement(ofFile: image.path)
        report.callSites =
            code[index]?.failure != nil
            ? .failed
            : code[index] != nil
                ? .analysed
                : callSitesAnalysed && !CodeIndex.supports(image) ? .unsupported : .notNeeded
        return report
    }
}
