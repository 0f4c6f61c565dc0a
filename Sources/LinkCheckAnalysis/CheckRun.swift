import Foundation
import LinkCheckCodeIndex
import LinkCheckImage
import LinkCheckInspection
import LinkCheckRules

/// The whole `check` pipeline, as a plain sequence of stages, each a value
/// in and a value out:
///
/// discover → inspect (parallel) → index code (the images whose symbols a
/// rule matches) → resolve every edge (dependencies, and what code loads)
/// → analyse → ``Report``.
public enum CheckRun {
    /// Checks every image under `paths`.
    ///
    /// - Parameters:
    ///   - paths: files and directories (walked recursively).
    ///   - rules: the rule set (default packs and `--rules` files).
    ///   - policy: roles, extension types, required architectures,
    ///     suppressions, baseline.
    ///   - resolver: how dependencies (and what code loads) are followed
    ///     outside the scanned paths.
    ///   - callSites: how to analyse call sites (x86_64, arm64/aarch64) of
    ///     the images that have findings, and what they load at run time;
    ///     `nil`: not at all.
    ///   - jobs: how many files to inspect at once (≥ 1).
    /// - Returns: the report; unreadable and malformed files are in its
    ///   `errors`, what was passed over in `skipped`.
    public static func check(
        paths: [String], rules: RuleSet, policy: Policy, resolver: LinkResolver = LinkResolver(),
        callSites: CallSiteMode? = .targeted, jobs: Int
    ) -> Report {
        let discovery = Discovery(paths: paths)
        defer { discovery.removeUnpackedFiles() }
        return check(discovery, rules: rules, policy: policy, resolver: resolver, callSites: callSites, jobs: jobs)
    }

    /// Checks the files `discovery` found (its ``Discovery/paths`` are the
    /// report's inputs; what it passed over is in the report's `skipped`),
    /// as ``check(paths:rules:policy:resolver:callSites:jobs:)`` does. The
    /// roles the bundles give (``Discovery/bundles``) come after those of
    /// `policy`. The files of archives it unpacked are read again during
    /// the run: the caller removes them afterwards
    /// (``Discovery/removeUnpackedFiles()``).
    public static func check(
        _ discovery: Discovery, rules: RuleSet, policy: Policy, resolver: LinkResolver = LinkResolver(),
        callSites: CallSiteMode? = .targeted, jobs: Int
    ) -> Report {
        var policy = policy
        policy.bundles = discovery.bundles
        policy.inputs = discovery.paths
        let options = Inspection.Options(strings: rules.stringPatterns, objcNames: rules.objcLiterals, symbols: symbolSelection(rules))
        let inspected = Inspection.inspect(discovery, options: options, jobs: jobs)
        let scanned = inspected.images
        let matches = parallelMap(scanned, jobs: jobs) { SymbolMatches($0, rules: rules) }
        let code = callSites.map { indexCode(scanned, matches: matches, rules: rules, mode: $0, jobs: jobs) }
        var loads: [Int: [LoadRequest]] = [:]
        for (index, analysis) in code ?? [:] where analysis.failure == nil {
            loads[index] = LoaderCalls.requests(in: analysis, of: scanned[index])
        }
        let graph = resolver.resolve(scanned, loads: loads, jobs: jobs) { path in
            Result { () throws(InspectionError) in
                try ImageInspector.inspect(path: path, options: options).map(discovery.named)
            }
        }
        let outcome = Analyzer(
            graph: graph, rules: rules, policy: policy, code: code,
            matches: Dictionary(uniqueKeysWithValues: matches.enumerated().map { ($0, $1) })
        ).run(jobs: jobs)
        var report = Report(
            inputs: discovery.paths,
            rulePacks: rules.packs.map { RulePackSummary(name: $0.name, version: $0.version, path: $0.path) },
            rules: Dictionary((rules.rules + BuiltInRules.all).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first }),
            images: outcome.images.sorted { $0.identity < $1.identity },
            findings: outcome.findings,
            errors: inspected.errors.sorted { $0.path < $1.path },
            skipped: inspected.skipped.sorted { $0.path < $1.path },
            notices: outcome.notices + RoleNotices.conflictingNames(policy) + RoleNotices.unmatchedNames(policy, scanned)
                + RoleNotices.bundleRolesOverridden(policy, scanned))
        report.baselined = outcome.baselined
        report.remarks = outcome.remarks
        report.filesRead = Set(graph.images.map(\.path) + graph.missing.flatMap(\.unreadable).map(\.path)
            + inspected.errors.map(\.path)).sorted()
        report.bundles = BundleSummary.summaries(of: report.images)
        report.archives = discovery.archives.map(\.archive)
        return report
    }

    /// Call sites of the images that need them (``SymbolMatches/needCallSites``)
    /// and whose architecture is supported, analysed in parallel and indexed
    /// at once (keeping what ``callSiteInterest(_:rules:)`` asks for), so
    /// that no image's full call-site list outlives its analysis. The
    /// largest files go first, so that the last one left is a small one
    /// rather than a 100 MB library started when the others are done.
    static func indexCode(
        _ images: [BinaryImage], matches: [SymbolMatches], rules: RuleSet, mode: CallSiteMode, jobs: Int
    ) -> [Int: CodeIndex] {
        let candidates = images.indices.filter { CodeIndex.supports(images[$0]) && matches[$0].needCallSites }
        let analyses = parallelMapLargestFirst(candidates, path: { images[$0].path }, jobs: jobs) { index -> CodeIndex? in
            do {
                return try CodeIndex.analyze(images[index], interest: callSiteInterest(matches[index], rules: rules), mode: mode)
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

    /// What the findings of an image whose symbols made `matches` take from
    /// its code: the calls to the imports a rule matches, to the library
    /// loaders (``LoaderCalls/libraryLoaders``, what code loads) and to the
    /// functions that name a class or selector by a string
    /// (``ObjCByName/classLookUps``, ``ObjCByName/selectorMakers``), the
    /// message sends of the selectors its Objective-C matches name, the
    /// calls to its functions an unsafe rule matches (linked-in copies),
    /// and the OS version queries (``LoaderCalls/isVersionQuery(_:)``) the
    /// callers of code-loading APIs reach (``LoaderCalls/versionCheckDepth``
    /// levels down) or the functions on their call paths make, with the
    /// sends of the version selectors (``LoaderCalls/versionQuerySelectors``);
    /// for an image that looks classes up by name, the sends and selector
    /// reference loads of the selectors the rules' methods have, and the
    /// loads of their class names as literals (the code that uses a name,
    /// ``ObjCByName``); for every image, the key-value coding sends
    /// (``ObjCByName/keyValueSelectors``) and the loads of those selectors'
    /// names as literals (what code does with a selector name held as a
    /// string, ``OwnFindings/stringFindings(sentByName:)``).
    public static func callSiteInterest(_ matches: SymbolMatches, rules: RuleSet) -> CallSiteInterest {
        let byName = matches.looksUpClassesByName ? rules.objcMethodNames : (classes: [], selectors: [])
        let selectors = Set(matches.objc.compactMap { match -> String? in
            guard case .objc(let name) = match.matcher else { return nil }
            return name.selector
        }).union(byName.selectors).union(ObjCByName.keyValueSelectors)
        return CallSiteInterest(
            imports: { name in
                rules.mayMatchSymbol(name) && !rules.rules(matchingSymbol: name).isEmpty || LoaderCalls.libraryLoaders.contains(name)
                    || ObjCByName.classLookUps.contains(name) || ObjCByName.selectorMakers.contains(name)
            },
            selectors: { selectors.contains($0) || LoaderCalls.versionQuerySelectors.contains($0) },
            functions: { name in
                rules.mayMatchSymbol(name) && !rules.rules(matchingSymbol: String(decoding: name, as: UTF8.self), unsafeOnly: true).isEmpty
            },
            reached: LoaderCalls.isVersionQuery,
            reachedFrom: { LoaderCalls.loadsCode($0, rules: rules) },
            reachDepth: LoaderCalls.versionCheckDepth,
            literals: byName.classes.union(rules.objcMethodNames.selectors))
    }

    /// The symbols findings can come from: those a rule may match
    /// (``RuleSet/mayMatchSymbol(_:)``), the C loader functions an image
    /// may interpose, and the functions that look an Objective-C class up by
    /// name (``ObjCByName/classLookUps``). (Call-site analysis reads the
    /// functions it needs from the file again.)
    static func symbolSelection(_ rules: RuleSet) -> SymbolSelection {
        let leads = rules.symbolLeads(including: BuiltInRules.cLoaderFunctions.union(ObjCByName.classLookUps))
        return .only(leads: leads) { name in
            rules.mayMatchSymbol(name) || BuiltInRules.isLoaderFunction(name) || ObjCByName.isClassLookUp(name)
        }
    }
}
