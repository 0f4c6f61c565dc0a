import Foundation
import LinkCheckCodeIndex
import LinkCheckImage
import LinkCheckInspection
import LinkCheckRules

/// The whole `check` pipeline, as a plain sequence of stages, each a value
/// in and a value out, the values between them keyed by image identity
/// (``ImageIdentity``):
///
/// discover (``Discovery``) → inspect (``Inspection``, parallel) → match
/// (``RuleMatching``) → index code (``CodeIndex``, the images whose
/// matches need call sites) → what that code loads (``LoaderCalls``) →
/// resolve (``LinkResolver`` → ``LinkGraph``, reading the libraries it
/// finds with the inspect stage's ``Inspection/Reader``) → match the
/// libraries found → analyse (``Analyzer``) → ``Report`` → the source lines
/// of the call sites it shows (``CallSiteSources``; not for a run that
/// shows none).
public enum CheckRun {
    /// Checks every image under `paths`, as
    /// ``check(_:rules:policy:resolver:callSites:invocation:jobs:)`` does,
    /// removing the archives it unpacked once done.
    public static func check(
        paths: [String], rules: RuleSet, policy: Policy, resolver: LinkResolver = LinkResolver(),
        callSites: CallSiteMode? = .targeted, sourceLines: Bool = true, jobs: Int
    ) -> Report {
        Discovery.withUnpackedInputs(paths: paths) { discovered in
            check(discovered, rules: rules, policy: policy, resolver: resolver, callSites: callSites, sourceLines: sourceLines, jobs: jobs)
        }
    }

    /// Checks the files discovery found (its ``Discovery/paths`` are the
    /// report's inputs; what it passed over is in the report's `skipped`;
    /// the roles its ``Discovery/bundles`` give come after those of
    /// `policy`). The files of the archives it unpacked are read again
    /// during the run.
    ///
    /// - Parameters:
    ///   - rules: the rule set (default packs and `--rules` files).
    ///   - policy: what the user configured: roles, extension types,
    ///     required architectures, suppressions, baseline.
    ///   - resolver: how dependencies (and what code loads) are followed
    ///     outside the scanned paths.
    ///   - callSites: how to analyse call sites (x86_64, arm64/aarch64) of
    ///     the images that have findings, and what they load at run time;
    ///     `nil`: not at all.
    ///   - sourceLines: look up the source of the call sites the findings
    ///     show (``CallSiteSources``); `false` for a run whose output shows
    ///     no call site (`linkcheck graph`).
    ///   - invocation: the command line the run was made with, for the
    ///     report to say how to reproduce it.
    ///   - dsyms: where to look first for the dSYMs of Mach-O images
    ///     (`--dsym`: `.dSYM` bundles, folders of them, DWARF files), for
    ///     the source lines of call sites (``CallSiteSources``).
    ///   - jobs: how many files to inspect at once (≥ 1).
    /// - Returns: the report; unreadable and malformed files are in its
    ///   `errors`, what was passed over in `skipped`.
    public static func check(
        _ discovered: Discovery, rules: RuleSet, policy: Policy, resolver: LinkResolver = LinkResolver(),
        callSites: CallSiteMode? = .targeted, sourceLines: Bool = true, invocation: Invocation? = nil, dsyms: [String] = [],
        jobs: Int
    ) -> Report {
        let reader = Inspection.Reader(options: inspectionOptions(rules), bundles: discovered.bundles)
        let inspected = Inspection.inspect(discovered, options: reader.options, jobs: jobs)
        let matched = RuleMatching.matches(of: inspected.images, rules: rules, jobs: jobs)
        let code = callSites.map { indexCode(inspected.images, matches: matched, rules: rules, mode: $0, jobs: jobs) }
        let loads = loadRequests(inspected.images, code: code ?? [:])
        let graph = resolver.resolve(inspected.images, loads: loads, bundles: discovered.bundles, reader: reader, jobs: jobs)
        let found = RuleMatching.matches(of: graph.images[graph.scannedCount...], rules: rules, jobs: jobs)
        let analysed = Analyzer(
            graph: graph, rules: rules, policy: policy, bundles: discovered.bundles, inputs: discovered.paths, code: code,
            matches: matched.merging(found) { first, _ in first }
        ).run(jobs: jobs)
        let reported = report(
            of: analysed, discovered: discovered, inspected: inspected, graph: graph, rules: rules, invocation: invocation)
        return sourceLines ? CallSiteSources.located(reported, jobs: jobs, dsyms: dsyms) : reported
    }

    /// What the inspect stage's readers look for: the rules' literals, and
    /// the symbols ``symbolSelection(_:)`` keeps.
    static func inspectionOptions(_ rules: RuleSet) -> Inspection.Options {
        Inspection.Options(strings: rules.stringPatterns, objcNames: rules.objcLiterals, symbols: symbolSelection(rules))
    }

    /// What the code of each image whose code was indexed asks the loader
    /// for (``LoaderCalls/requests(in:of:)``), by image.
    static func loadRequests(_ images: [BinaryImage], code: [ImageIdentity: CodeIndex]) -> [ImageIdentity: [LoadRequest]] {
        var loads: [ImageIdentity: [LoadRequest]] = [:]
        for image in images {
            guard let analysis = code[image.identity], analysis.failure == nil, loads[image.identity] == nil else { continue }
            loads[image.identity] = LoaderCalls.requests(in: analysis, of: image)
        }
        return loads
    }

    /// The report of a run: what `analysed` found, with what discovery,
    /// inspection and resolution read, the rules, and the command line.
    static func report(
        of analysed: Analyzer.Outcome, discovered: Discovery, inspected: Inspection.Outcome, graph: LinkGraph, rules: RuleSet,
        invocation: Invocation?
    ) -> Report {
        var report = Report(
            inputs: discovered.paths,
            rulePacks: rules.packs.map { RulePackSummary(name: $0.name, version: $0.version, path: $0.path) },
            rules: Dictionary((rules.rules + BuiltInRules.all).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first }),
            images: analysed.images.sorted { $0.identity < $1.identity },
            findings: analysed.findings,
            errors: inspected.errors.sorted { $0.path < $1.path },
            skipped: inspected.skipped.sorted { $0.path < $1.path },
            notices: analysed.notices)
        report.baselined = analysed.baselined
        report.remarks = analysed.remarks
        report.filesRead = Set(
            graph.images.map(\.path) + graph.missing.flatMap(\.unreadable).map(\.path)
                + inspected.errors.map(\.path)
        ).sorted()
        report.bundles = BundleSummary.summaries(of: report.images)
        report.archives = discovered.archives.map(\.archive)
        report.invocation = invocation
        return report
    }

    /// Call sites of the images that need them (``SymbolMatches/needCallSites``)
    /// and whose architecture is supported, analysed in parallel and indexed
    /// at once (keeping what ``callSiteInterest(_:rules:strings:)`` asks for), so
    /// that no image's full call-site list outlives its analysis. The
    /// largest files go first, so that the last one left is a small one
    /// rather than a 100 MB library started when the others are done.
    ///
    /// The code index reads each file again rather than taking the bytes
    /// inspection read: inspection keeps of an image only what the rules
    /// may match (``symbolSelection(_:)``: not the code, nor the function
    /// table), so that a run over thousands of files holds their models,
    /// not their contents. Keeping every file mapped from inspection until
    /// its code is indexed would hold all scanned files at once (hundreds
    /// of megabytes for a system folder) for the few whose matches need
    /// call sites; reading those few again costs less.
    static func indexCode(
        _ images: [BinaryImage], matches: [ImageIdentity: SymbolMatches], rules: RuleSet, mode: CallSiteMode, jobs: Int
    ) -> [ImageIdentity: CodeIndex] {
        let candidates = images.filter { CodeIndex.supports($0) && matches[$0.identity]!.needCallSites }
        let analyses = parallelMapLargestFirst(candidates, path: \.path, jobs: jobs) { image -> CodeIndex? in
            do {
                let interest = callSiteInterest(matches[image.identity]!, rules: rules, strings: image.stringLiterals)
                return try CodeIndex.analyze(image, interest: interest, mode: mode)
            } catch {
                // The image inspected fine but cannot be read again (changed
                // or removed meanwhile): its findings go on without call sites.
                return CodeIndex(failure: "\(error)")
            }
        }
        var code: [ImageIdentity: CodeIndex] = [:]
        for (image, analysis) in zip(candidates, analyses) where code[image.identity] == nil { code[image.identity] = analysis }
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
    /// string, ``OwnFindings/stringFindings(sentByName:)``). The literals
    /// are those of the image's `strings` (``BinaryImage/stringLiterals``):
    /// the findings look up the loads of no other (an image holding none
    /// has its read-only data searched once, by inspection).
    public static func callSiteInterest(_ matches: SymbolMatches, rules: RuleSet, strings: [String]) -> CallSiteInterest {
        let byName = matches.looksUpClassesByName ? rules.objcMethodNames : (classes: [], selectors: [])
        let selectors = Set(
            matches.objc.compactMap { match -> String? in
                guard case .objc(let name) = match.matcher else { return nil }
                return name.selector
            }
        ).union(byName.selectors).union(ObjCByName.keyValueSelectors)
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
            literals: byName.classes.union(rules.objcMethodNames.selectors).intersection(strings))
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
