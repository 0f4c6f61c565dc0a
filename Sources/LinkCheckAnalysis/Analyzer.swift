import Foundation
import LinkCheckInspection
import LinkCheckRules

/// Rules × policy × link graph → findings and verdicts.
///
/// 1. Each image's own findings: imports, exports (provider or loader
///    interposition), read-only strings and DT_NEEDED matched against the
///    rules.
/// 2. Transitive findings: an image that links, directly or not, an image
///    with an unsafe finding gets that finding too, with the chain.
/// 3. Severity by role: the containing app, a framework only the app links,
///    and an extension type the rule allows turn unsafe findings into notes.
/// 4. Architecture: 32-bit images, modules missing a required architecture,
///    links across machine, class or data encoding.
public struct Analyzer: Sendable {
    let images: [BinaryImage]
    let rules: RuleSet
    let policy: Policy
    let graph: LinkGraph
    let roles: [AssignedRole]
    /// `extensionsReaching[i]`: the extensions that link image `i` directly
    /// or not (an extension reaches itself).
    let extensionsReaching: [[Int]]
    /// `appReaches[i]`: whether a containing app links image `i`.
    let appReaches: [Bool]
    let imageIndex: [String: Int]
    /// Call sites, for the images whose code was analysed.
    let codeIndex: [Int: CodeIndex]
    /// What each image loads at run time.
    let loads: [Int: [LoadEdge]]
    /// Whether call sites were analysed at all in this run.
    let callSitesAnalysed: Bool

    /// SONAMEs of the C libraries that define the loader functions.
    static let loaderProviders = ["libc.so.*", "libdl.so.*", "libc.musl-*", "ld-musl-*"]

    /// How many of `images` the user gave; the rest are libraries found
    /// outside them (reported only when a finding passes through them).
    let scannedCount: Int

    /// - Parameters:
    ///   - images: the scanned images, then any libraries ``LinkResolver``
    ///     found outside them.
    ///   - graph: the resolved DT_NEEDED graph over `images`; when `nil`,
    ///     DT_NEEDED is resolved among `images` by name only.
    ///   - scannedCount: how many of `images` were scanned (all by default).
    ///   - code: the indexed call sites of the images that need them
    ///     (``needsCodeAnalysis(_:rules:)``), by index; `nil` when call sites
    ///     are not analysed in this run.
    ///   - loads: the libraries each image loads at run time, by index.
    public init(
        images: [BinaryImage], rules: RuleSet, policy: Policy, graph: LinkGraph? = nil, scannedCount: Int? = nil,
        code: [Int: CodeIndex]? = nil, loads: [Int: [LoadEdge]] = [:]
    ) {
        self.images = images
        self.rules = rules
        self.policy = policy
        self.scannedCount = scannedCount ?? images.count
        self.imageIndex = Dictionary(images.enumerated().map { ($1.path, $0) }, uniquingKeysWith: { first, _ in first })
        self.codeIndex = code ?? [:]
        self.callSitesAnalysed = code != nil
        self.loads = loads
        let graph = graph ?? LinkGraph(images: images)
        self.graph = graph
        let roles = images.map(policy.role)
        self.roles = roles
        var extensionsReaching = Array(repeating: [Int](), count: images.count)
        var appReaches = Array(repeating: false, count: images.count)
        // Roles travel along what an image links (DT_NEEDED) and what it
        // loads at run time (dlopen): code only the app loads is app-only.
        var next = graph.edges
        for (index, edges) in loads { next[index] += edges.compactMap(\.target) }
        for (index, assigned) in roles.enumerated() where assigned.role != .framework {
            for reached in LinkGraph.reachable(from: index, over: next) {
                if assigned.role == .extension {
                    extensionsReaching[reached].append(index)
                } else {
                    appReaches[reached] = true
                }
            }
        }
        self.extensionsReaching = extensionsReaching
        self.appReaches = appReaches
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
        /// Warnings about the run itself (an unused suppression).
        public var notices: [String]
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
        var suppressed: [Finding] = []
        let keep = { (finding: Finding) -> Bool in
            guard policy.suppressions.contains(where: { Suppressions.matches($0, finding, Policy.names(of: images[self.index(of: finding.image)])) })
            else { return true }
            suppressed.append(finding)
            return false
        }
        let own = parallelMap(images.indices.map { $0 }, jobs: jobs, ownFindings).map { $0.filter(keep) }
        let (transitive, passedThrough) = transitiveFindings(own: own)
        let unsafeImages = Set(own.indices.filter { index in
            own[index].contains { $0.kind != .providedSymbol && RuleCategory(rawValue: $0.category)?.makesUnsafe == true }
        }).union(transitive.filter { !BuiltInRules.isCompleteness($0.finding.rule) }.map(\.image))
        let (loaded, loadedImages) = loadFindings(unsafeImages: unsafeImages)
        let reported = Set(0..<scannedCount).union(passedThrough).union(loadedImages)
        var findings = own.enumerated().filter { reported.contains($0.offset) }.flatMap(\.element)
        findings += transitive.filter { reported.contains($0.image) }.map(\.finding)
        findings += loaded + architectureFindings() + missingLibraryFindings()
        findings = findings.filter(keep)
        findings.sort(by: Finding.reportOrder)
        let names = Dictionary(images.map { ($0.path, Policy.names(of: $0)) }, uniquingKeysWith: { first, _ in first })
        let notices = Suppressions.apply(policy.suppressions, file: policy.suppressionsFile, to: suppressed, images: names).notices
        var baselined: [Finding] = []
        if let baseline = policy.baseline {
            let linkNames = Dictionary(images.map { ($0.path, $0.linkName) }, uniquingKeysWith: { first, _ in first })
            let linkName = { (path: String) in linkNames[path] ?? path }
            let new = baseline.newFindings(findings, linkName: linkName)
            baselined = baseline.acceptedFindings(findings, linkName: linkName)
            findings = new
        }
        let byImage = Dictionary(grouping: findings, by: \.image)
        let reports = reported.sorted().map { index in
            imageReport(index, findings: byImage[images[index].path] ?? [], reported: reported, unsafeImages: unsafeImages)
        }
        return Outcome(images: reports, findings: findings, baselined: baselined, notices: notices)
    }

    /// The index of the image at `path`.
    func index(of path: String) -> Int {
        imageIndex[path] ?? 0
    }

    // MARK: - Own findings

    func ownFindings(_ index: Int) -> [Finding] {
        let image = images[index]
        var findings: [Finding] = []
        let code = codeIndex[index].flatMap { $0.failure == nil ? $0 : nil }
        if let failure = codeIndex[index]?.failure {
            findings.append(Finding(
                builtIn: BuiltInRules.partialInspection, kind: .partialInspection, image: image.path,
                detail: "call sites could not be analysed (\(failure))", severity: completenessSeverity(index)))
        }
        let unanalysed = callSitesAnalysed && !CallSiteAnalyzer.supports(image.machine, image.elfClass)
            ? " (call sites are not analysed for \(image.machine))" : ""
        for symbol in image.imports {
            for match in rules.rules(matchingSymbol: symbol.name) {
                let demangled = rules.demangler.any(symbol.name)
                var finding = finding(
                    match, image: index, kind: .importedSymbol, subject: symbol.name, demangled: demangled,
                    detail: "imports \(Self.quoted(symbol.name, demangled))")
                finding.message += unanalysed
                if let code {
                    locate(&finding, sites: code.callsToImport[symbol.name] ?? [], in: code, api: finding.api ?? symbol.name)
                }
                findings.append(finding)
            }
        }
        if let code {
            findings += staticCallFindings(index, code: code) + versionCheckFindings(index, code: code)
        }
        findings += exportFindings(index)
        for warning in image.warnings {
            findings.append(Finding(
                builtIn: BuiltInRules.partialInspection, kind: .partialInspection, image: image.path, detail: warning,
                severity: completenessSeverity(index)))
        }
        for text in image.readOnlyStrings {
            for match in rules.rules(matchingString: text) {
                findings.append(finding(
                    match, image: index, kind: .stringLiteral, subject: match.matcher.pattern, demangled: nil,
                    detail: "read-only data holds the string \"\(match.matcher.pattern)\""))
            }
        }
        for needed in image.dynamic.needed {
            for match in rules.rules(matchingLibrary: needed) {
                findings.append(finding(
                    match, image: index, kind: .neededLibrary, subject: needed, demangled: nil,
                    detail: "links \(needed) (DT_NEEDED)"))
            }
        }
        return findings
    }

    /// Provider notes (one per rule) and loader interpositions.
    ///
    /// An image that defines an API is its provider: its definitions are a
    /// note, and calls to them from other modules' code in the same image
    /// are ``staticCallFindings(_:code:)``. When those calls cannot be seen
    /// (``unseenStaticCalls(_:)``) and a Swift API's module is not the
    /// image's own (by file name or SONAME: `libAnalytics.so` is
    /// `Analytics`), the API's code was linked into another module's image,
    /// so the note becomes a warning that says what is unknown rather than
    /// letting the image pass on the note alone.
    func exportFindings(_ index: Int) -> [Finding] {
        let image = images[index]
        // Only what the dynamic linker sees can interpose: a static
        // executable's own copy of libc (.symtab) cannot.
        let isLoaderProvider = image.symbolTable != .dynsym
            || Self.loaderProviders.contains { Glob.matches($0, image.linkName) }
        var provided: [String: (match: RuleMatch, symbols: [String])] = [:]
        var findings: [Finding] = []
        for symbol in image.exports {
            if !isLoaderProvider && symbol.name.utf8.first == UInt8(ascii: "d") && BuiltInRules.cLoaderFunctions.contains(symbol.name) {
                findings.append(Finding(
                    builtIn: BuiltInRules.loaderInterposition, kind: .interposedLoader, image: image.path,
                    symbol: symbol.name, detail: "defines '\(symbol.name)'"))
            }
            for match in rules.rules(matchingSymbol: symbol.name, unsafeOnly: true) {
                provided[match.rule.id, default: (match, [])].symbols.append(symbol.name)
            }
        }
        let unseenCalls = unseenStaticCalls(index)
        let names = Policy.names(of: image)
        for (id, entry) in provided.sorted(by: { $0.key < $1.key }) {
            let first = entry.symbols.min()!
            let others = entry.symbols.count - 1
            let more = others > 0 ? " and \(others) more symbol\(others == 1 ? "" : "s")" : ""
            let provides = "provides \(entry.match.rule.api) (defines \(Self.quoted(first, rules.demangler.any(first)))\(more))"
            var severity = Severity.note
            var message = "\(provides); its own definitions are not violations"
            if let unseenCalls, case .swift = entry.match.matcher,
               let module = entry.symbols.lazy.compactMap(owningModule).first(where: { !names.contains($0) }) {
                severity = effectiveSeverity(entry.match.rule, image: index).0 == .note ? .note : .warning
                message = "\(provides), code of module \(module) linked into this image: whether code of other modules in it calls the API is unknown, since \(unseenCalls)"
            }
            findings.append(Finding(
                rule: id, severity: severity, category: entry.match.rule.category.rawValue, kind: .providedSymbol,
                image: image.path, symbol: first, demangled: rules.demangler.any(first),
                message: message, fixit: nil, source: entry.match.rule.source))
        }
        return findings
    }

    /// Why the calls inside image `index` cannot be seen, so that
    /// ``staticCallFindings(_:code:)`` cannot decide: call sites are off in
    /// this run, not analysed for the image's machine, their analysis failed,
    /// or the image is a library found outside the scanned paths (whose code
    /// is not analysed); `nil` when its code was analysed.
    func unseenStaticCalls(_ index: Int) -> String? {
        if let code = codeIndex[index] { return code.failure.map { "its call sites could not be analysed (\($0))" } }
        let image = images[index]
        if !callSitesAnalysed { return "call sites were not analysed (--no-call-sites)" }
        if !CallSiteAnalyzer.supports(image.machine, image.elfClass) { return "call sites are not analysed for \(image.machine)" }
        return "call sites are analysed only in the scanned images"
    }

    /// ``SwiftDeclarationPath/owningModule(ofMangled:demangled:)`` of a
    /// symbol, demangled through the rule set's demangler.
    func owningModule(_ symbol: String) -> String? {
        SwiftDeclarationPath.owningModule(ofMangled: symbol, demangled: rules.demangler.any(symbol))
    }

    func finding(
        _ match: RuleMatch, image index: Int, kind: Finding.Kind, subject: String, demangled: String?, detail: String
    ) -> Finding {
        let (severity, context) = effectiveSeverity(match.rule, image: index)
        var finding = Finding(
            rule: match.rule.id, severity: severity, category: match.rule.category.rawValue, kind: kind,
            image: images[index].path, symbol: subject, demangled: demangled,
            message: "\(detail): \(match.rule.message)\(context)", fixit: match.rule.fixit, source: match.rule.source)
        finding.api = Self.label(match, symbol: subject, demangled: demangled)
        return finding
    }

    // MARK: - Transitive findings

    /// The transitive findings (with the index of the image they are on),
    /// and every image index their chains pass through.
    func transitiveFindings(own: [[Finding]]) -> ([(image: Int, finding: Finding)], Set<Int>) {
        var findings: [(image: Int, finding: Finding)] = []
        var passedThrough = Set<Int>()
        for (origin, originFindings) in own.enumerated() {
            let unsafe = originFindings.filter { finding in
                finding.kind != .providedSymbol && rules.rule(withID: finding.rule)?.category.makesUnsafe == true
            }
            let partial = originFindings.contains { $0.kind == .partialInspection }
            guard !unsafe.isEmpty || partial else { continue }
            for (dependent, chain) in graph.dependents(of: origin) where dependent < scannedCount {
                passedThrough.formUnion(chain)
                let names = chain.map { images[$0].linkName }
                if partial {
                    // What a linked library holds is part of what its
                    // dependents run: one it could not read in full leaves
                    // them incomplete too.
                    findings.append((dependent, Finding(
                        builtIn: BuiltInRules.partialInspection, kind: .transitive, image: images[dependent].path,
                        symbol: images[origin].linkName, chain: names,
                        detail: "links \(names.joined(separator: " → ")), which could be read only in part",
                        severity: completenessSeverity(dependent))))
                }
                for source in unsafe {
                    guard let rule = rules.rule(withID: source.rule) else { continue }
                    let api = source.api ?? source.symbol ?? rule.api
                    let (severity, context) = effectiveSeverity(rule, image: dependent)
                    let path = (names + [api]).joined(separator: " → ")
                    var finding = Finding(
                        rule: rule.id, severity: severity, category: rule.category.rawValue, kind: .transitive,
                        image: images[dependent].path, symbol: source.symbol, demangled: source.demangled,
                        chain: names + [api],
                        message: "reached through \(path): \(rule.message)\(context)",
                        fixit: rule.fixit, source: rule.source)
                    finding.callSites = source.callSites
                    finding.path = source.path
                    findings.append((dependent, finding))
                }
            }
        }
        return (findings, passedThrough)
    }

    /// Whether call sites matter for `image`: it imports a symbol some rule
    /// matches, or defines one an unsafe rule matches (a statically linked
    /// copy of an API), or declares `.note.dlopen` loads.
    public static func needsCodeAnalysis(_ image: BinaryImage, rules: RuleSet) -> Bool {
        image.imports.contains { !rules.rules(matchingSymbol: $0.name).isEmpty }
            || image.exports.contains { !rules.rules(matchingSymbol: $0.name, unsafeOnly: true).isEmpty }
    }

    // MARK: - Policy

    /// The severity a rule's finding has on image `index`, and a remark on
    /// why it differs from the rule's.
    func effectiveSeverity(_ rule: Rule, image index: Int) -> (Severity, String) {
        guard rule.category.makesUnsafe else { return (rule.severity, "") }
        switch roles[index].role {
        case .app:
            return (.note, " (allowed: the containing app may use it)")
        case .extension:
            if let type = roles[index].extensionType, rule.allowedIn.contains(type) {
                return (.note, " (allowed in \(type) extensions)")
            }
            return (rule.severity, "")
        case .framework:
            let extensions = extensionsReaching[index]
            if extensions.isEmpty {
                if appReaches[index] && policy.assignsRoles {
                    return (.note, " (only the containing app links or loads it)")
                }
                return (rule.severity, "")
            }
            let types = extensions.compactMap { roles[$0].extensionType }
            if types.count == extensions.count, types.allSatisfy(rule.allowedIn.contains) {
                return (.note, " (allowed in the \(Set(types).sorted().joined(separator: ", ")) extensions that link it)")
            }
            return (rule.severity, "")
        }
    }

    /// Whether image `index` has to be extension-safe: an extension, a
    /// framework an extension links or loads, and any framework that is not
    /// the containing app's alone (every framework when no roles are given).
    func mustBeExtensionSafe(_ index: Int) -> Bool {
        switch roles[index].role {
        case .app: false
        case .extension: true
        case .framework: !extensionsReaching[index].isEmpty || !appReaches[index] || !policy.assignsRoles
        }
    }

    /// The severity of a completeness finding (`INSP001`, `LINK002`) on
    /// image `index`: an error where the image has to be safe, since what
    /// could not be read cannot be called safe; a warning elsewhere.
    func completenessSeverity(_ index: Int) -> Severity {
        mustBeExtensionSafe(index) ? .error : .warning
    }

    // MARK: - Architecture

    /// A finding per DT_NEEDED of a scanned image that the loader would not
    /// find: `LINK002` when a file of that name was found but could not be
    /// read (an error where the image has to be safe), else `LINK001`.
    func missingLibraryFindings() -> [Finding] {
        graph.missing.filter { $0.image < scannedCount }.map { missing in
            if !missing.unreadable.isEmpty {
                let found = missing.unreadable.map { "\($0.path) (\(Self.reason($0)))" }.joined(separator: "; ")
                return Finding(
                    builtIn: BuiltInRules.unreadableLibrary, kind: .unreadableLibrary, image: images[missing.image].path,
                    symbol: missing.needed, detail: "needs \(missing.needed), found as \(found)",
                    severity: completenessSeverity(missing.image))
            }
            let searched = missing.searched.isEmpty ? "" : " (searched: \(missing.searched.joined(separator: ", ")))"
            return Finding(
                builtIn: BuiltInRules.missingLibrary, kind: .missingLibrary, image: images[missing.image].path,
                symbol: missing.needed, detail: "needs \(missing.needed), which the dynamic loader would not find\(searched)")
        }
    }

    /// An inspection error's text without the leading path.
    static func reason(_ error: InspectionError) -> String {
        let text = error.description
        let prefix = error.path + ": "
        return text.hasPrefix(prefix) ? String(text.dropFirst(prefix.count)) : text
    }

    func architectureFindings() -> [Finding] {
        var findings: [Finding] = []
        for image in images[..<scannedCount] where image.is32Bit {
            findings.append(Finding(
                builtIn: BuiltInRules.thirtyTwoBit, kind: .architecture, image: image.path,
                detail: "this \(image.machine) image is 32-bit (ELFCLASS32)"))
        }
        for mismatch in graph.mismatches where mismatch.image < scannedCount {
            let image = images[mismatch.image]
            let other = images[mismatch.candidate]
            findings.append(Finding(
                builtIn: BuiltInRules.linkMismatch, kind: .architecture, image: image.path, symbol: mismatch.needed,
                detail: "needs \(mismatch.needed), but the only one found (\(other.path)) is \(Self.kind(of: other)), not \(Self.kind(of: image))"))
        }
        guard !policy.requiredArchitectures.isEmpty else { return findings }
        let modules = Dictionary(grouping: 0..<scannedCount, by: { images[$0].linkName })
        for (module, members) in modules {
            let present = Set(members.map { images[$0].machine.name })
            let first = members.map { images[$0].path }.min()!
            for required in policy.requiredArchitectures where !present.contains(required) {
                findings.append(Finding(
                    builtIn: BuiltInRules.missingArchitecture, kind: .architecture, image: first, symbol: required,
                    detail: "\(module) is not built for \(required) (built for: \(present.sorted().joined(separator: ", ")))"))
            }
        }
        return findings
    }

    // MARK: - Verdicts

    /// The verdict and report of image `index`, from the findings the report
    /// lists for it (``Verdict``).
    func imageReport(_ index: Int, findings: [Finding], reported: Set<Int>, unsafeImages: Set<Int>) -> ImageReport {
        let image = images[index]
        let verdict: Verdict
        if findings.contains(where: { $0.severity == .error && !BuiltInRules.isCompleteness($0.rule) }) {
            verdict = .unsafe
        } else if findings.contains(where: { BuiltInRules.isCompleteness($0.rule) }) {
            verdict = .incomplete
        } else if findings.contains(where: { finding in
            finding.rule == BuiltInRules.unsafeLoad.id
                || (finding.kind != .providedSymbol && RuleCategory(rawValue: finding.category)?.makesUnsafe == true)
        }) && (roles[index].role == .app || (extensionsReaching[index].isEmpty && appReaches[index])) {
            verdict = .appOnly
        } else {
            verdict = .extensionSafe
        }
        var report = ImageReport(
            path: image.path, soname: image.dynamic.soname, machine: image.machine.name,
            elfClass: image.elfClass, dataEncoding: image.dataEncoding, fileType: image.fileType.description,
            role: roles[index].role, extensionType: roles[index].extensionType, verdict: verdict,
            needed: image.dynamic.needed, links: graph.edges[index].filter(reported.contains).map { images[$0].path },
            provides: Array(Set(findings.filter { $0.kind == .providedSymbol }.map(\.rule))).sorted(),
            symbolTable: image.symbolTable, warnings: image.warnings, external: index >= scannedCount)
        report.loads = (loads[index] ?? []).map { edge in
            LoadReport(
                name: edge.name, path: edge.target.map { images[$0].path },
                verdict: edge.target.map { unsafeImages.contains($0) ? "unsafe" : "extension-safe" } ?? (edge.isKnown ? "missing" : "unknown"),
                function: edge.callSite?.caller.flatMap { codeIndex[index]?.functions[$0].name }.map(displayName),
                address: edge.callSite?.address, source: edge.source)
        }
        report.callSites = codeIndex[index]?.failure != nil ? "failed" : codeIndex[index] != nil ? "analysed"
            : callSitesAnalysed && !CallSiteAnalyzer.supports(image.machine, image.elfClass) ? "unsupported-machine" : "not-needed"
        return report
    }

    /// `x86_64 64-bit little-endian`: machine, class and byte order.
    static func kind(of image: BinaryImage) -> String {
        "\(image.machine) \(image.elfClass.rawValue)-bit \(image.dataEncoding == .lsb ? "little" : "big")-endian"
    }

    static func quoted(_ symbol: String, _ demangled: String?) -> String {
        guard let demangled, demangled != symbol else { return "'\(symbol)'" }
        return "'\(demangled)' (\(symbol))"
    }
}
