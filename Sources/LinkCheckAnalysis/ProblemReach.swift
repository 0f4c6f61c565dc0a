import LinkCheckRules

/// How far each problem of a report reaches. A problem is one image's
/// findings of one rule; it reaches the image and every image that has a
/// transitive copy of it (a finding whose ``Finding/chainImages`` end at
/// the image), and the extensions that run its code. Problems that reach
/// more come first, in the answer's causes and among the HTML report's
/// cards.
public struct ProblemReach: Sendable {
    /// A problem: an image (``ImageReport/name``) and a rule id.
    public struct Key: Hashable, Sendable {
        public var image: String
        public var rule: RuleID

        public init(image: String, rule: RuleID) {
            self.image = image
            self.rule = rule
        }
    }

    let copies: [Key: Set<String>]
    let images: ImagesByName

    /// `images`: the report's, as ``ReportAnswer`` holds them.
    init(_ report: Report, images: ImagesByName) {
        var copies: [Key: Set<String>] = [:]
        for finding in report.findings where finding.kind == .transitive {
            guard let origin = finding.chainImages.last, origin != finding.image else { continue }
            copies[Key(image: origin, rule: finding.rule), default: []].insert(finding.image)
        }
        self.copies = copies
        self.images = images
    }

    /// The images `problem` reaches: its image and those with a transitive
    /// copy of it.
    public func images(_ problem: Key) -> Set<String> {
        (copies[problem] ?? []).union([problem.image])
    }

    /// The extensions that run `problem`'s code, whether or not it travels
    /// (a review risk does not): those that link or load its image
    /// (``ImageReport/reachedBy``) and those among ``images(_:)``.
    public func extensions(_ problem: Key) -> Set<String> {
        images(problem).union(images[problem.image]?.reachedBy ?? []).filter { images[$0]?.role == .extension }
    }

    /// Whether `lhs` comes before `rhs`: it reaches more extensions, or as
    /// many and more images.
    public func reachesFurther(_ lhs: Key, than rhs: Key) -> Bool {
        let (left, right) = (extensions(lhs).count, extensions(rhs).count)
        if left != right { return left > right }
        return images(lhs).count > images(rhs).count
    }
}
