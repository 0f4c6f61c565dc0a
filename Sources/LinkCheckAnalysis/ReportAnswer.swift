import LinkCheckRules

/// The answer a report gives before anything else: each extension with its
/// verdict and, for an unsafe one, what makes it so (its ``Cause``s); the
/// frameworks no extension or app links that are not extension-safe; and
/// without extensions, the images that are not extension-safe. The HTML
/// report's headline and the text output's verdict lines both read it, so
/// they give the same answer.
public struct ReportAnswer: Sendable {
    /// The images of one outermost bundle (an app with its extensions and
    /// frameworks, an xcframework), or those in no bundle.
    public struct Group: Sendable {
        /// The outermost bundle (``BundleFolder/displayPath``); `nil` for
        /// the images in no bundle.
        public var bundle: String?
        /// In the order the report lists them.
        public var images: [ImageReport]
    }

    /// One image's verdict and why.
    public struct Line: Sendable {
        public var image: ImageReport
        /// What the image is, for an extension: `share extension`, or
        /// `extension` without a type; `nil` for any other image.
        public var kind: String? {
            image.role == .extension ? image.extensionType.map { "\($0) extension" } ?? "extension" : nil
        }
        /// Why the image is answered for, when it is not an extension or an
        /// image without roles (`linked or loaded by neither an extension
        /// nor the app, so it must be extension-safe`).
        public var note: String?
        /// For an incomplete image, what was read only in part, said before
        /// its causes (no final full stop): `it could be read only in part
        /// (9 problems with its structure)`, `it links Broken.framework,
        /// which could be read only in part`; `nil` for any other.
        public var partial: String?
        /// One per error finding of the image (per use of an API unavailable
        /// in app extensions or load of an unsafe library, for an app-only
        /// or incomplete image; for an extension, also per bundle error of
        /// an image it links or loads, which stops it at launch), merged
        /// where they share the route, the verb and the calling function;
        /// the causes whose problems reach further first (``ProblemReach``).
        public var causes: [Cause]
        /// What the line says without causes or ``partial`` (no final full
        /// stop): `nothing it runs uses an API unavailable in app extensions
        /// (2 warnings to review, in it or what it links)`.
        public var safeText: String
    }

    let report: Report
    /// The report's images by name.
    public let images: ImagesByName
    /// Each image's own findings, by (image, rule, symbol): the origin of a
    /// transitive finding.
    let ownFindings: [FindingKey: Finding]
    /// The problems that have an image's own findings.
    let ownProblems: Set<ProblemReach.Key>
    public let reach: ProblemReach

    public init(_ report: Report) {
        self.report = report
        images = ImagesByName(report.images)
        let own = report.findings.filter { $0.kind != .transitive }
        ownFindings = Dictionary(
            own.map { (FindingKey(image: $0.image, rule: $0.rule, symbol: $0.symbol), $0) }, uniquingKeysWith: { first, _ in first })
        ownProblems = Set(own.map { ProblemReach.Key(image: $0.image, rule: $0.rule) })
        reach = ProblemReach(report, images: images)
    }

    /// A finding's image, rule and symbol: what a transitive finding's
    /// origin shares with it.
    struct FindingKey: Hashable {
        var image, symbol: String
        var rule: RuleID

        /// A missing image or symbol is the empty name.
        init(image: String?, rule: RuleID, symbol: String?) {
            (self.image, self.rule, self.symbol) = (image ?? "", rule, symbol ?? "")
        }
    }

    /// One group per outermost bundle, under its name, in the order the
    /// report lists its images, then one for the images in no bundle (when
    /// there are any).
    public var groups: [Group] {
        var groups: [Group] = []
        var loose: [ImageReport] = []
        for image in report.images {
            guard let bundle = image.bundle?.outermost.displayPath else {
                loose.append(image)
                continue
            }
            if let index = groups.firstIndex(where: { $0.bundle == bundle }) {
                groups[index].images.append(image)
            } else {
                groups.append(Group(bundle: bundle, images: [image]))
            }
        }
        if !loose.isEmpty { groups.append(Group(bundle: nil, images: loose)) }
        return groups
    }

    /// The codes App Store Connect would refuse the upload of `group`'s
    /// app with (``BundleProblem/appStoreCode`` of its bundle errors:
    /// `ITMS-90087`), sorted, each once; empty when none.
    public func uploadRefusals(for group: [ImageReport]) -> [String] {
        let refusals = report.findings.compactMap { finding -> (image: String, code: String)? in
            guard finding.severity == .error, case .detail(.bundle(let problem), _) = finding.statement, let code = problem.appStoreCode
            else { return nil }
            return (finding.image, code)
        }
        // Most reports have none: the group's names are needed only to
        // place one.
        guard !refusals.isEmpty else { return [] }
        let names = Self.names(group)
        return Set(refusals.filter { names.contains($0.image) }.map(\.code)).sorted()
    }

    /// The names of `images`, read by index: iterating `images` would copy
    /// each one.
    static func names(_ images: [ImageReport]) -> Set<String> {
        Set(images.indices.map { images[$0].name })
    }

    /// Whether one of `images` lies in an app, where the upload checks
    /// look (a framework or xcframework alone is not uploaded).
    public static func holdsAnApp(_ images: [ImageReport]) -> Bool {
        images.contains { $0.bundle?.containingApp != nil }
    }

    /// Whether the answer of `check --only bundle` says the app of `group`
    /// passes: the run read every input whole, `group` holds an app, and no
    /// error finding (an upload refusal, a framework dyld would not find) is
    /// listed for its images.
    public func passesBundleChecks(_ group: [ImageReport]) -> Bool {
        guard report.scope == .bundle, report.complete, Self.holdsAnApp(group) else { return false }
        let names = Self.names(group)
        return !report.findings.contains { $0.severity == .error && names.contains($0.image) }
    }

    /// The lines for `group` (the report's images, or one group's): each
    /// extension, then each framework no extension or app links or loads
    /// that is not extension-safe; without extensions, each image other
    /// than an app that is not extension-safe (none when all are).
    public func lines(for group: [ImageReport]) -> [Line] {
        // Chosen by index: filtering `group` would copy every image.
        let extensions = group.indices.filter { group[$0].role == .extension }.map { group[$0] }
        guard extensions.isEmpty else {
            let reachedByNone = group.filter {
                $0.role == .framework && $0.reachedBy.isEmpty && $0.verdict != .extensionSafe && $0.verdict != .notLoaded
            }
            return extensions.map { line($0) }
                + reachedByNone.map { line($0, note: "linked or loaded by neither an extension nor the app, so it must be extension-safe") }
        }
        return group.indices.filter { group[$0].role != .app && group[$0].verdict != .extensionSafe }.map { line(group[$0]) }
    }

    func line(_ image: ImageReport, note: String? = nil) -> Line {
        Line(image: image, note: note, partial: partial(image), causes: causes(of: image), safeText: safeText(image))
    }

    /// ``Line/partial``: the image's own findings about parts that could not
    /// be read, counted, else the images on the way to the first image
    /// read only in part.
    func partial(_ image: ImageReport) -> String? {
        guard image.verdict == .incomplete else { return nil }
        let findings = report.findings.filter { $0.image == image.name && $0.kind == .partialInspection }
        guard findings.isEmpty else {
            return "it could be read only in part (\(findings.count) problem\(findings.count == 1 ? "" : "s") with its structure)"
        }
        guard let copy = report.findings.first(where: { $0.image == image.name && $0.rule == BuiltInRules.partialInspection.id }),
            copy.chainImages.count > 1
        else { return "it could be read only in part" }
        let route = copy.chainImages.dropFirst().map { images[$0]?.shortName ?? $0 }
        return "it links " + route.joined(separator: ", which links ") + ", which could be read only in part"
    }

    /// What a line says when no error finding is listed for the image.
    func safeText(_ image: ImageReport) -> String {
        let images = report.images
        let reached = Set([image.name] + images.indices.filter { images[$0].reachedBy.contains(image.name) }.map { images[$0].name })
        let warnings = report.findings.count { $0.severity == .warning && reached.contains($0.image) }
        let base =
            image.role == .extension
            ? "nothing it runs uses an API unavailable in app extensions" : "it uses no API unavailable in app extensions"
        return base + (warnings > 0 ? " (\(warnings) warning\(warnings == 1 ? "" : "s") to review, in it or what it links)" : "")
    }

    /// The image's own finding a transitive `finding` repeats, when the
    /// report lists it.
    public func origin(of finding: Finding) -> Finding? {
        guard finding.kind == .transitive else { return nil }
        return ownFindings[FindingKey(image: finding.chainImages.last, rule: finding.rule, symbol: finding.symbol)]
    }

    /// What `finding` does: its own action, or for a transitive finding
    /// its origin's, acting on the API its chain ends with.
    public func action(of finding: Finding) -> FindingAction {
        let rule = report.rules[finding.rule]
        guard let origin = origin(of: finding) else { return FindingAction(finding, rule: rule) }
        return FindingAction(origin, rule: rule, api: finding.chain.last)
    }

    /// A bundle error that stops an extension at launch, as a cause: for a
    /// framework dyld would not find (BNDL001), `Cartography.framework
    /// needs @rpath/libswiftCore.dylib, which dyld would not find: the
    /// extension would not launch` (`it needs …` for the extension's own);
    /// for another bundle error, its image and its own words (its words
    /// alone when they start with the image's name). `nil` for a finding of
    /// another category, and for an extension's own bundle error of
    /// another rule (its words are the cause).
    func launchCause(_ finding: Finding) -> Cause? {
        guard finding.category == .bundle, finding.severity == .error else { return nil }
        let route = images[finding.image].map { $0.role == .extension ? [] : [$0.shortName] } ?? [finding.image]
        let problems = [ProblemReach.Key(image: finding.image, rule: finding.rule)]
        guard finding.rule == BuiltInRules.frameworkNotEmbedded.id, let library = finding.symbol else {
            if case .detail(.bundle(let problem), _) = finding.statement {
                return Cause(
                    route: problem.namesItsImage ? [] : route, hops: ["links"], verb: .detail(.bundle(problem)), objects: [], from: nil)
            }
            guard let name = route.first, let detail = finding.detail(rule: report.rules[finding.rule]) else { return nil }
            // Words that name the image already stand alone.
            return Cause(route: detail.hasPrefix(name) ? [] : route, hops: ["links"], verb: .word(detail), objects: [], from: nil)
        }
        return Cause(
            route: route, hops: route.map { _ in "links" }, verb: .word("needs"),
            objects: [Cause.Object(text: library, problems: problems)],
            from: nil, consequence: "which dyld would not find: the extension would not launch")
    }

    /// The causes of `image`'s error findings; of its warnings about uses
    /// by name (``Finding/APIUseEvidence/review``), when that is its verdict; of its
    /// uses of APIs unavailable in app extensions (``Finding/APIUseEvidence/use``,
    /// notes for an app-only image) and its loads of unsafe libraries
    /// (DLOP001), when it is app-only or incomplete; for an extension, also
    /// the bundle errors (BNDL001…) of the images it links or loads, which
    /// stop it at launch (``launchCause(_:)``).
    func causes(of image: ImageReport) -> [Cause] {
        // What App Store Connect would refuse is said apart, not as a cause.
        let isError = { (finding: Finding) in finding.severity == .error && !BuiltInRules.isUploadCheck(finding.rule) }
        let isCause: (Finding) -> Bool =
            switch image.verdict {
            case .needsReview: { $0.apiUse == .review }
            case .appOnly, .incomplete: { isError($0) || $0.apiUse == .use || $0.rule == BuiltInRules.unsafeLoad.id }
            default: isError
            }
        var causes: [(cause: Cause, problem: ProblemReach.Key)] = []
        for finding in report.findings {
            let launch =
                image.role == .extension && finding.image != image.name && finding.category == .bundle
                && finding.severity == .error && !BuiltInRules.isUploadCheck(finding.rule)
                && images[finding.image]?.reachedBy.contains(image.name) == true
            guard launch || (finding.image == image.name && isCause(finding)) else { continue }
            let own = ProblemReach.Key(image: finding.image, rule: finding.rule)
            if image.role == .extension, let cause = launchCause(finding) {
                if let index = causes.firstIndex(where: {
                    $0.cause.route == cause.route && $0.cause.verb == cause.verb
                        && $0.cause.consequence == cause.consequence
                }) {
                    causes[index].cause.objects += cause.objects.filter { object in
                        !causes[index].cause.objects.contains { $0.text == object.text }
                    }
                } else {
                    causes.append((cause, own))
                }
                continue
            }
            if launch { continue }
            var problems = [own]
            if finding.kind == .transitive, let last = finding.chainImages.last {
                problems.insert(ProblemReach.Key(image: last, rule: finding.rule), at: 0)
            }
            // The problem the finding is counted in: its origin's, when the
            // report lists the origin's own findings.
            let problem = problems.first { ownProblems.contains($0) } ?? own
            let route = finding.chainImages.dropFirst().map { images[$0]?.shortName ?? $0 }
            // The chain marks a hop made by dlopen alone: "B (dlopen)".
            let hops = route.indices.map { position in
                finding.chain.indices.contains(position + 1) && finding.chain[position + 1].hasSuffix(" (dlopen)") ? "loads" : "links"
            }
            let action = action(of: finding)
            let object = action.object.map { Cause.Object(text: $0, problems: problems) }
            if let index = causes.firstIndex(where: {
                $0.cause.route == route && $0.cause.hops == hops && $0.cause.verb == action.verb
                    && $0.cause.from == action.from && object != nil && !$0.cause.objects.isEmpty
            }) {
                if let object, !causes[index].cause.objects.contains(where: { $0.text == object.text }) {
                    causes[index].cause.objects.append(object)
                }
                if reach.reachesFurther(problem, than: causes[index].problem) { causes[index].problem = problem }
            } else {
                let cause = Cause(
                    route: route, hops: hops, verb: action.verb, objects: object.map { [$0] } ?? [], from: action.from)
                causes.append((cause, problem))
            }
        }
        return causes.enumerated().sorted { lhs, rhs in
            if reach.reachesFurther(lhs.element.problem, than: rhs.element.problem) { return true }
            if reach.reachesFurther(rhs.element.problem, than: lhs.element.problem) { return false }
            return lhs.offset < rhs.offset
        }.map(\.element.cause)
    }
}
