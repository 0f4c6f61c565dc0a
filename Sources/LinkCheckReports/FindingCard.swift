import LinkCheckAnalysis
import LinkCheckRules

/// One problem as the HTML report shows it: every finding of one rule on one
/// image (each symbol, string or library, with its call sites and path), and
/// the copies of them that travelled to the images that link it (transitive
/// findings), so that a framework's finding is shown once with the
/// extensions it reaches instead of once per extension.
struct FindingCard {
    /// Where a card is listed.
    enum Group: String, CaseIterable {
        /// With the problems, in severity order.
        case main
        /// Notes that an image defines an API (it is the SDK or a stand-in
        /// for it): not violations.
        case provided
        /// Notes on the containing app and on what only it links or loads,
        /// where the APIs are allowed.
        case appOnly = "app-only"
    }

    /// The image's name (``ImageReport/name``).
    var image: String
    var rule: RuleID
    /// The image's own findings of the rule (and transitive ones whose
    /// origin has no card), in report order.
    var findings: [Finding]
    /// The transitive copies on the images that link this one, in report
    /// order.
    var reached: [Finding]
    var group: Group
    /// The fragment identifier: the rule and the image's label
    /// (``ImageLabels``: `AEX001-libShareKit.so`), made unique.
    var id: String
    /// How many extensions the problem affects
    /// (``ProblemReach/extensions(_:)``).
    var extensionsAffected: Int
    /// How many images have it, this one included
    /// (``ProblemReach/images(_:)``).
    var imagesAffected: Int

    /// The problem the card shows: its image and rule.
    var problem: ProblemReach.Key { ProblemReach.Key(image: image, rule: rule) }
    var severity: Severity { findings.map(\.severity).max() ?? .note }
    /// The slices of a fat file its findings hold in (``Finding/slices``),
    /// sorted; empty for a thin file.
    var slices: [String] { Array(Set(findings.flatMap(\.slices))).sorted() }
    var category: RuleCategory { findings.first?.category ?? .reviewRisk }

    /// The images `reached` covers, each once, in order, without those
    /// only on the way to another (a framework between an extension and
    /// this image is named in the extension's chain).
    var reachedImages: [String] {
        let between = Set(reached.flatMap { $0.chainImages.dropFirst().dropLast() })
        var seen = Set<String>()
        return reached.map(\.image).filter { !between.contains($0) && seen.insert($0).inserted }
    }

    /// The report's findings as cards, in page order: by severity, then by
    /// how many extensions and images each affects, then by image and rule.
    /// A transitive finding goes on the card of the image and rule it came
    /// from (the last of its ``Finding/chainImages``) when that card exists
    /// (not when a baseline accepted the original). `reach` is the report's
    /// (``ReportAnswer/reach``).
    static func cards(_ report: Report, reach: ProblemReach) -> [FindingCard] {
        let images = ImagesByName(report.images)
        typealias Key = ProblemReach.Key
        var own: [Key: [Finding]] = [:]
        var order: [Key] = []
        for finding in report.findings where finding.kind != .transitive || finding.chainImages.isEmpty {
            let key = Key(image: finding.image, rule: finding.rule)
            if own[key] == nil { order.append(key) }
            own[key, default: []].append(finding)
        }
        var reached: [Key: [Finding]] = [:]
        for finding in report.findings where finding.kind == .transitive && !finding.chainImages.isEmpty {
            let origin = Key(image: finding.chainImages.last!, rule: finding.rule)
            if own[origin] != nil && origin.image != finding.image {
                reached[origin, default: []].append(finding)
            } else {
                let key = Key(image: finding.image, rule: finding.rule)
                if own[key] == nil { order.append(key) }
                own[key, default: []].append(finding)
            }
        }
        let rolesGiven = report.images.contains { $0.role != .framework }
        let labels = ImageLabels(report.images)
        var ids = Set<String>()
        var cards = order.map { key -> FindingCard in
            let findings = own[key]!
            let copies = reached[key] ?? []
            let image = images[key.image]
            let isExtension = { (name: String) in images[name]?.role == .extension }
            var card = FindingCard(
                image: key.image, rule: key.rule, findings: findings, reached: copies, group: .main,
                id: uniqueID(key.rule.rawValue + "-" + fragment(labels[key.image]), in: &ids),
                extensionsAffected: reach.extensions(key).count, imagesAffected: reach.images(key).count)
            if findings.allSatisfy({ $0.severity == .note }) {
                if findings.allSatisfy({ $0.kind == .providedSymbol }) {
                    card.group = .provided
                } else if rolesGiven, let image,
                    image.role == .app
                        || (image.role == .framework && !image.reachedBy.isEmpty && !image.reachedBy.contains(where: isExtension))
                {
                    card.group = .appOnly
                }
            }
            return card
        }
        cards.sort { lhs, rhs in
            if lhs.severity != rhs.severity { return lhs.severity > rhs.severity }
            if lhs.extensionsAffected != rhs.extensionsAffected { return lhs.extensionsAffected > rhs.extensionsAffected }
            if lhs.imagesAffected != rhs.imagesAffected { return lhs.imagesAffected > rhs.imagesAffected }
            let (left, right) = (labels[lhs.image], labels[rhs.image])
            return (left, lhs.image, lhs.rule) < (right, rhs.image, rhs.rule)
        }
        return cards
    }

    /// `text` as a fragment identifier: letters, digits, `.`, `_` and `-`
    /// kept, anything else `_`.
    static func fragment(_ text: String) -> String {
        String(
            text.unicodeScalars.map { scalar -> Character in
                switch scalar {
                case "a"..."z", "A"..."Z", "0"..."9", ".", "_", "-": Character(scalar)
                default: "_"
                }
            })
    }

    /// `base`, or `base-2`, `base-3`, … when taken.
    static func uniqueID(_ base: String, in taken: inout Set<String>) -> String {
        var candidate = base
        var number = 1
        while !taken.insert(candidate).inserted {
            number += 1
            candidate = "\(base)-\(number)"
        }
        return candidate
    }
}
