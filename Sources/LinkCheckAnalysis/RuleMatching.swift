import LinkCheckImage
import LinkCheckInspection
import LinkCheckRules

/// The match stage: each image's symbols and Objective-C references
/// matched against the rules (``SymbolMatches``), once per image, keyed by
/// image identity. A check runs it on the scanned images (their matches
/// decide whose code is indexed) and again on the libraries resolution
/// found outside them.
public enum RuleMatching {
    /// The matches of each of `images`, `jobs` images at a time. (Two images
    /// of one identity, as two members of one name in a static archive,
    /// share the first's.)
    public static func matches(of images: some Collection<BinaryImage>, rules: RuleSet, jobs: Int) -> [ImageIdentity: SymbolMatches] {
        let images = Array(images)
        let matches = parallelMap(images, jobs: jobs) { SymbolMatches($0, rules: rules) }
        return Dictionary(zip(images.map(\.identity), matches), uniquingKeysWith: { first, _ in first })
    }
}
