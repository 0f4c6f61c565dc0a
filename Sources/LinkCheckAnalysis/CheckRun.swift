import Foundation
import LinkCheckInspection
import LinkCheckRules

/// The whole `check` pipeline: discovery → inspection (parallel) →
/// analysis → ``Report``.
public enum CheckRun {
    /// Checks every ELF file under `paths`.
    ///
    /// - Parameters:
    ///   - paths: files and directories (walked recursively).
    ///   - rules: the rule set (default packs and `--rules` files).
    ///   - policy: roles, extension types, required architectures.
    ///   - jobs: how many files to inspect at once (≥ 1).
    /// - Returns: the report; unreadable and malformed files are in its
    ///   `errors`, non-ELF files in `skipped`.
    ///   - resolver: how DT_NEEDED (and what code loads) is followed outside
    ///     the scanned paths.
    ///   - callSites: analyse call sites (x86_64, aarch64) of the images
    ///     that have findings, and what they load at run time.
    public static func check(
        paths: [String], rules: RuleSet, policy: Policy, resolver: LinkResolver = LinkResolver(),
        callSites: Bool = true, jobs: Int
    ) -> Report {
        check(Discovery(paths: paths), rules: rules, policy: policy, resolver: resolver, callSites: callSites, jobs: jobs)
    }

    /// Checks the files `discovery` found (its ``Discovery/paths`` are the
    /// report's inputs; what it passed over is in the report's `skipped`),
    /// as ``check(paths:rules:policy:resolver:callSites:jobs:)`` does.
    public static func check(
        _ discovery: Discovery, rules: RuleSet, policy: Policy, resolver: LinkResolver = LinkResolver(),
        callSites: Bool = true, jobs: Int
    ) -> Report {
        let paths = discovery.paths
        let patterns = rules.stringPatterns
        let symbols = symbolSelection(rules)
        let outcomes = inspect(discovery.files, strings: patterns, symbols: symbols, jobs: jobs)
        var images: [BinaryImage] = []
        var errors = discovery.errors
        var skipped = discovery.skipped
        for outcome in outcomes {
            switch outcome {
            case .success(let image) where image.fileType == .core:
                skipped.append(SkippedEntry(path: image.path, reason: "a core dump, not a linkable image"))
            case .success(let image): images.append(image)
            case .failure(.notELF(let path)): skipped.append(SkippedEntry(path: path, reason: "not an ELF file"))
            case .failure(let error): errors.append(error)
            }
        }
        let inspect: @Sendable (String) -> LibraryInspection = { path in
            Result { () throws(InspectionError) in try ImageInspector.inspect(path: path, strings: patterns, symbols: symbols) }
        }
        var session = LinkResolver.Session(resolver: resolver, scanned: images)
        let code = callSites ? analyzeCode(images, rules: rules, jobs: jobs) : nil
        var loads: [Int: [LoadEdge]] = [:]
        for (index, analysis) in code ?? [:] {
            var seen = Set<String>()
            for site in LoaderCalls.libraryLoaders.sorted().flatMap({ analysis.callsToImport[$0] ?? [] }).sorted(by: { $0.address < $1.address }) {
                // A name the code computes at run time is listed as unknown.
                guard let name = LoaderCalls.loadedName(site) else {
                    loads[index, default: []].append(LoadEdge(name: LoadEdge.unknownName, target: nil, callSite: site, source: "call"))
                    continue
                }
                guard seen.insert("\(name)\u{0}\(site.caller ?? -1)").inserted else { continue }
                let target: Int? = if case .found(let found) = session.locate(name, for: index, inspect: inspect) { found } else { nil }
                loads[index, default: []].append(LoadEdge(name: name, target: target, callSite: site, source: "call"))
            }
        }
        for (index, image) in images.enumerated() {
            for declared in image.declaredLoads {
                var target: Int?
                for name in declared.sonames where target == nil {
                    if case .found(let found) = session.locate(name, for: index, inspect: inspect) { target = found }
                }
                loads[index, default: []].append(LoadEdge(name: declared.sonames[0], target: target, callSite: nil, source: "note"))
            }
        }
        let graph = session.resolveNeeded(jobs: jobs, inspect: inspect)
        let outcome = Analyzer(
            images: session.images, rules: rules, policy: policy, graph: graph, scannedCount: images.count,
            code: code, loads: loads
        ).run(jobs: jobs)
        var notices = outcome.notices
        let allNames = images.map(Policy.names(of:))
        for name in policy.extensions.keys.sorted() + policy.apps.sorted() + policy.frameworks.sorted()
        where !allNames.contains(where: { $0.contains(name) }) {
            let suggestion = NameSuggestions.question(NameSuggestions.closest(to: name, among: allNames.joined()))
            notices.append("role name '\(name)' matches no scanned image" + (suggestion.map { "; \($0)" } ?? ""))
        }
        var report = Report(
            inputs: paths,
            rulePacks: rules.packs.map { RulePackSummary(name: $0.name, version: $0.version, path: $0.path) },
            rules: Dictionary((rules.rules + BuiltInRules.all).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first }),
            images: outcome.images.sorted { $0.path < $1.path },
            findings: outcome.findings,
            errors: errors.sorted { $0.path < $1.path },
            skipped: skipped.sorted { $0.path < $1.path },
            notices: notices)
        report.baselined = outcome.baselined
        return report
    }

    /// Call sites of the images that need them (``Analyzer/needsCodeAnalysis(_:rules:)``)
    /// and whose machine is supported, analysed in parallel and indexed at
    /// once (keeping the calls to functions an unsafe rule matches), so
    /// that no image's full call-site list outlives its analysis.
    static func analyzeCode(_ images: [BinaryImage], rules: RuleSet, jobs: Int) -> [Int: CodeIndex] {
        let candidates = images.indices.filter { index in
            CallSiteAnalyzer.supports(images[index].machine, images[index].elfClass)
                && Analyzer.needsCodeAnalysis(images[index], rules: rules)
        }
        let analyses = parallelMap(candidates, jobs: jobs) { index -> CodeIndex? in
            do {
                return try CodeIndex.analyze(path: images[index].path) { !rules.rules(matchingSymbol: $0.name, unsafeOnly: true).isEmpty }
            } catch {
                // The image inspected fine but cannot be read again (changed
                // or removed meanwhile): its findings go on without call sites.
                return CodeIndex(failure: "\(error)")
            }
        }
        var code: [Int: CodeIndex] = [:]
        for (index, analysis) in zip(candidates, analyses) { code[index] = analysis }
        return code
    }

    /// Inspects `files` with `jobs` workers, looking for the literals
    /// `strings` and keeping the `symbols` selected; results in the order
    /// of `files`.
    public static func inspect(
        _ files: [String], strings: [String] = [], symbols: SymbolSelection = .all, jobs: Int
    ) -> [Result<BinaryImage, InspectionError>] {
        parallelMap(files, jobs: jobs) { path in
            Result { () throws(InspectionError) in try ImageInspector.inspect(path: path, strings: strings, symbols: symbols) }
        }
    }

    /// The symbols findings can come from: those a rule may match
    /// (``RuleSet/mayMatchSymbol(_:)``) and the C loader functions an image
    /// may interpose. (Call-site analysis reads the functions it needs
    /// from the file again.)
    static func symbolSelection(_ rules: RuleSet) -> SymbolSelection {
        .only { name in rules.mayMatchSymbol(name) || BuiltInRules.isLoaderFunction(name) }
    }
}
