/// One API (or string, or library) that must not appear in code linked into
/// an app extension, loaded from a rule pack (see `Rules/README.md`).
public struct Rule: Sendable, Equatable {
    /// Stable identifier, e.g. `AEX001`.
    public var id: RuleID
    /// The API's human name, e.g. `UIApplication.shared`.
    public var api: String
    public var category: RuleCategory
    public var severity: Severity
    /// What the rule looks for; any one matching is enough.
    public var matchers: [Matcher]
    /// What is wrong, one sentence.
    public var message: String
    /// What to do instead.
    public var fixit: String
    /// The document or header (and macro) the rule comes from.
    public var source: String
    /// Extension types in which the API is allowed anyway (camera capture in
    /// `imessage`).
    public var allowedIn: [ExtensionType]
    /// The SDKs in which the API is marked unavailable (``SDKRange``);
    /// `nil` for a restriction no header marks.
    public var sdk: SDKRange?
    /// Sources that must and must not produce the rule's finding.
    public var examples: RuleExamples
    /// The `name` of the pack the rule came from.
    public var pack: String

    public init(
        id: RuleID, api: String, category: RuleCategory, severity: Severity, matchers: [Matcher],
        message: String, fixit: String, source: String, allowedIn: [ExtensionType] = [], sdk: SDKRange? = nil,
        examples: RuleExamples = RuleExamples(), pack: String = ""
    ) {
        self.id = id
        self.api = api
        self.category = category
        self.severity = severity
        self.matchers = matchers
        self.message = message
        self.fixit = fixit
        self.source = source
        self.allowedIn = allowedIn
        self.sdk = sdk
        self.examples = examples
        self.pack = pack
    }
}

/// How one rule recognises its API.
public enum Matcher: Sendable, Equatable, CustomStringConvertible {
    /// The raw symbol name, exactly.
    case symbol(String)
    /// An `fnmatch(3)` pattern over the raw symbol name.
    case glob(String)
    /// A Swift declaration path (`UIKit.UIApplication.shared`): every symbol
    /// whose demangled form belongs to that declaration.
    case swift(String)
    /// A C++ qualified name (`ns::Class::method`), compared with the
    /// demangled name without parameters; a class name covers its members.
    case cxx(String)
    /// A whole NUL-terminated string in read-only data.
    case string(String)
    /// An `fnmatch(3)` pattern over DT_NEEDED names: linking the library is
    /// the violation.
    case library(String)
    /// An Objective-C class or method (``ObjCName``), matched against an
    /// image's class and selector references.
    case objc(ObjCName)

    /// The JSON key that spells this matcher kind in a rule pack.
    public var kind: String {
        switch self {
        case .symbol: "symbol"
        case .glob: "glob"
        case .swift: "swift"
        case .cxx: "cxx"
        case .string: "string"
        case .library: "library"
        case .objc: "objc"
        }
    }

    /// The matcher's argument.
    public var pattern: String {
        switch self {
        case .symbol(let value), .glob(let value), .swift(let value), .cxx(let value),
            .string(let value), .library(let value):
            value
        case .objc(let name): name.description
        }
    }

    public var description: String { "\(kind): \(pattern)" }
}

/// How bad a finding is. Ordered: `note` < `warning` < `error`.
public enum Severity: String, Sendable, Comparable, CaseIterable, Codable {
    case note, warning, error

    public static func < (lhs: Severity, rhs: Severity) -> Bool {
        lhs.rank < rhs.rank
    }

    private var rank: Int {
        switch self {
        case .note: 0
        case .warning: 1
        case .error: 2
        }
    }
}

/// What kind of problem a rule describes.
public enum RuleCategory: String, Sendable, CaseIterable, Codable {
    /// Marked unavailable in app extensions by the SDK.
    case unavailableAPI = "unavailable-api"
    /// Documented as not to be relied on in extensions (camera capture,
    /// background modes), with exceptions per extension type.
    case restrictedAPI = "restricted-api"
    /// Loads code at run time (`dlopen` and relatives): a path to review.
    case conditionalLoading = "conditional-loading"
    /// Legal, but a reviewer may reject it (an API called by selector).
    case reviewRisk = "review-risk"
    /// A configuration value that gets an app rejected (`TRUEPREDICATE`).
    case configuration = "configuration"
    /// A machine, class or data-encoding problem (built-in checks).
    case architecture = "architecture"
    /// How an app bundle is put together: what dyld would not load or the
    /// App Store rejects (built-in checks).
    case bundle = "bundle"

    /// Whether a finding of this category makes an image unsafe for
    /// extensions (and so propagates to the images that link it).
    public var makesUnsafe: Bool {
        switch self {
        case .unavailableAPI, .restrictedAPI, .configuration: true
        case .conditionalLoading, .reviewRisk, .architecture, .bundle: false
        }
    }
}
