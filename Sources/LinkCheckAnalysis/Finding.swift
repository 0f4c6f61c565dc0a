import LinkCheckRules

/// One problem (or note) about one image: rule × image × symbol, string or
/// library.
public struct Finding: Sendable, Equatable {
    /// How the finding was found.
    public enum Kind: String, Sendable, Codable {
        /// The image imports (needs) a matched symbol.
        case importedSymbol = "import"
        /// The image defines a matched symbol: it provides the API (the SDK
        /// itself), which is not a violation.
        case providedSymbol = "provides"
        /// The image defines a C loader's symbol and so interposes it.
        case interposedLoader = "interposition"
        /// A matched string literal is in the image's read-only data.
        case stringLiteral = "string"
        /// The image links (DT_NEEDED) a library that is unsafe as a whole.
        case neededLibrary = "library"
        /// The image links, directly or not, an image with an unsafe finding.
        case transitive
        /// A machine, class or data-encoding problem.
        case architecture
        /// Part of the image could not be read.
        case partialInspection = "partial-inspection"
        /// A DT_NEEDED library the loader would not find.
        case missingLibrary = "missing-library"
    }

    /// The rule id, e.g. `AEX001` or a built-in `ARCH001`.
    public var rule: String
    public var severity: Severity
    /// The rule's category (`unavailable-api`, …) or `architecture`.
    public var category: String
    public var kind: Kind
    /// The image's path.
    public var image: String
    /// The raw symbol, string or library that matched; `nil` for image-level
    /// findings (architecture).
    public var symbol: String?
    /// The demangled symbol, when it differs from ``symbol``.
    public var demangled: String?
    /// For transitive findings: the images from this one to the one that
    /// uses the API (link names), then the API: `[libExt.so, libShareKit.so,
    /// UIKit.UIApplication.shared]`.
    public var chain: [String]
    /// What is wrong, in full.
    public var message: String
    public var fixit: String?
    /// Where the rule comes from.
    public var source: String?

    public init(
        rule: String, severity: Severity, category: String, kind: Kind, image: String,
        symbol: String? = nil, demangled: String? = nil, chain: [String] = [], message: String,
        fixit: String? = nil, source: String? = nil
    ) {
        self.rule = rule
        self.severity = severity
        self.category = category
        self.kind = kind
        self.image = image
        self.symbol = symbol
        self.demangled = demangled
        self.chain = chain
        self.message = message
        self.fixit = fixit
        self.source = source
    }

    /// The deterministic report order: image path, then rule, then symbol,
    /// then chain.
    public static func reportOrder(_ lhs: Finding, _ rhs: Finding) -> Bool {
        (lhs.image, lhs.rule, lhs.symbol ?? "", lhs.chain.joined(separator: "\u{1}"))
            < (rhs.image, rhs.rule, rhs.symbol ?? "", rhs.chain.joined(separator: "\u{1}"))
    }
}
