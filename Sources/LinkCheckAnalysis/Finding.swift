import LinkCheckRules
import LinkCheckSourceLines

/// One problem (or note) about one image: rule × image × symbol, string or
/// library.
public struct Finding: Sendable, Equatable {
    /// How the finding was found.
    public enum Kind: String, Sendable, Codable {
        /// The image imports (needs) a matched symbol.
        case importedSymbol = "import"
        /// The image defines a matched symbol: it provides the API (the SDK
        /// itself), which is not a violation. A warning when the API's code
        /// is linked into an image of another module and call sites, which
        /// would show its callers, were not analysed.
        case providedSymbol = "provides"
        /// The image defines a C loader's symbol and so interposes it.
        case interposedLoader = "interposition"
        /// The image references a matched Objective-C class, or a class and
        /// a selector of a matched method (Mach-O `__objc_classrefs`,
        /// `__objc_selrefs`).
        case objcReference = "objc"
        /// The image looks up a matched method's class by name
        /// (`NSClassFromString(@"UIApplication")`, `objc_getClass`) and
        /// reaches its selector (a selector reference, or
        /// `NSSelectorFromString(@"sharedApplication")`,
        /// `sel_registerName`): from the calls' literal arguments, or
        /// without call sites from its strings and imports alone
        /// (``Finding/unconfirmed``).
        case objcByName = "objc-by-name"
        /// A matched string literal is in the image's read-only data.
        case stringLiteral = "string"
        /// The image links (DT_NEEDED, LC_LOAD_DYLIB) a library that is
        /// unsafe as a whole.
        case neededLibrary = "library"
        /// The image links, directly or not, an image with an unsafe finding.
        case transitive
        /// A machine, class or data-encoding problem.
        case architecture
        /// Part of the image could not be read.
        case partialInspection = "partial-inspection"
        /// A library the image links (DT_NEEDED, LC_LOAD_DYLIB) that the
        /// dynamic loader (ld.so, dyld) would not find.
        case missingLibrary = "missing-library"
        /// A library the image links (DT_NEEDED, LC_LOAD_DYLIB), found but
        /// not readable.
        case unreadableLibrary = "unreadable-library"
        /// A call to a matched function defined in the same image (its code
        /// linked in statically) from code that is not the API's own module.
        case staticCall = "static-call"
        /// A library the image loads at run time (`dlopen`), and whether it
        /// is safe.
        case loadedLibrary = "loaded-library"
        /// A loader call, with or without a run-time OS version check.
        case versionCheck = "version-check"
        /// A Mach-O framework's `MH_APP_EXTENSION_SAFE` flag against its code.
        case extensionSafeFlag = "extension-safe-flag"
        /// How the app bundle is put together (``BundleChecks``).
        case bundle
    }

    /// The rule id, e.g. `AEX001` or a built-in `ARCH001`.
    public var rule: RuleID
    public var severity: Severity
    /// The rule's category (`unavailable-api`, …; `architecture` for the
    /// built-in architecture checks).
    public var category: RuleCategory
    public var kind: Kind
    /// The image's name (``BinaryImage/name``: its path, with the slice and
    /// member when the file holds several).
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
    /// For transitive findings: the images of ``chain`` by name
    /// (``BinaryImage/name``), from this one to the one whose own finding
    /// this one repeats (the last); empty for an image's own findings.
    public var chainImages: [String] = []
    /// What is wrong: typed (``FindingDetail``) for the kinds it covers,
    /// words for the others.
    public var statement: Statement
    /// The reasons the finding gives after its statement, in order: why its
    /// severity is what it is, what guards the use, what was not seen.
    public var remarks: [FindingRemark] = []
    public var fixit: String?
    /// Where the rule comes from.
    public var source: String?
    /// The calls that make the finding, for images whose code was analysed
    /// (x86_64, aarch64); for a transitive finding, those in the image that
    /// uses the API.
    public var callSites: [FindingCallSite] = []
    /// The API as chains and paths name it: the Swift or C++ path the rule
    /// matched, else the demangled symbol, else the raw symbol or string.
    public var api: String?
    /// The shortest call path from an exported function to the call, then
    /// the API: `[ShareKit.Sharer.openInApp(photoID:), ShareKit.openInContainingApp(_:), UIKit.UIApplication.shared]`.
    public var path: [String] = []
    /// The SDK of the image that uses the API no longer marks it
    /// (``SDKMarking``): the finding is a warning at most, and does not
    /// count as a use of an API unavailable in extensions (verdicts, the
    /// linker's flag, loading an unsafe library).
    public var markingLifted = false
    /// Told from the image's strings and imports alone, its calls not seen
    /// (a use by name without call sites): a warning at most, on the image
    /// and wherever it propagates, and, like a lifted marking, not counted
    /// as a use of an API unavailable in extensions.
    public var unconfirmed = false
    /// The finding is about the whole fat file its image is a slice of (the
    /// slices it has, `ARCH001`; those no process loads, `ARCH004`), not
    /// about that slice: reports name the file, and its message the slices.
    public var aboutFile = false
    /// For a finding that stands for the same finding in several slices of
    /// a fat file (``FileGrouping/collapsed(_:)``): the architectures of
    /// those slices, sorted; empty otherwise.
    public var slices: [String] = []

    /// Set when the finding's evidence is a use by name only (``ByNameUse``:
    /// an Objective-C class or selector reached from a string, or in a
    /// Mach-O image a selector name held as a string), which the compiler
    /// and the App Store accept: its severity is the policy's for uses by
    /// name (``Policy/byNameUses``), and it says what guards the use when
    /// that is known.
    public var byName: ByNameUse?

    /// What a finding shows of its image's use of APIs unavailable in app
    /// extensions.
    public enum APIUseEvidence: Sendable, Equatable {
        /// A use, directly or by name: an unsafe rule's finding other than a
        /// provider's note, whose API the SDK still marks, told from the
        /// code (not ``Finding/unconfirmed``), and not a use by name the
        /// policy made a warning. It counts for verdicts, for loading an
        /// unsafe library and against the linker's flag
        /// (`MH_APP_EXTENSION_SAFE`, ``ExtensionSafeFlag``).
        case use
        /// A use by name left for a reviewer to judge: a warning
        /// (``Finding/byName``) whose API the SDK still marks, told from
        /// strings and imports alone too. An image with one and no error is
        /// ``Verdict/needsReview``; it counts against the linker's flag.
        case review
        /// Neither: a finding of another rule, a provider's note, an API the
        /// SDK no longer marks (``Finding/markingLifted``), or a use told
        /// from strings and imports alone that the policy did not leave for
        /// review.
        case none
    }

    /// What a finding says is wrong.
    public enum Statement: Sendable, Equatable {
        /// The message of a finding of a kind ``FindingDetail`` does not
        /// cover (a bundle finding): its own words, then `: ` and its rule's
        /// message.
        case words(String)
        /// A typed finding: what its image does, and the rule's message that
        /// follows it (`nil` for a provider's note, whose detail says it
        /// all).
        case detail(FindingDetail, ruleMessage: String?)
    }

    /// Appends a reason to what the finding says.
    public mutating func remark(_ reason: FindingRemark) {
        remarks.append(reason)
    }

    /// What the finding shows of a use of an API unavailable in extensions.
    public var apiUse: APIUseEvidence {
        if byName != nil && severity == .warning { return markingLifted ? .none : .review }
        // A provider's warning: the API's code is linked in and whether it
        // is called is unknown (call sites were not analysed).
        if kind == .providedSymbol && severity == .warning { return category.makesUnsafe && !markingLifted ? .review : .none }
        let unsafeUse = kind != .providedSymbol && category.makesUnsafe
        return unsafeUse && !markingLifted && !unconfirmed ? .use : .none
    }

    public init(
        rule: RuleID, severity: Severity, category: RuleCategory, kind: Kind, image: String,
        symbol: String? = nil, demangled: String? = nil, chain: [String] = [], statement: Statement,
        fixit: String? = nil, source: String? = nil
    ) {
        (self.rule, self.severity, self.category, self.kind, self.image) = (rule, severity, category, kind, image)
        (self.symbol, self.demangled, self.chain) = (symbol, demangled, chain)
        (self.statement, self.fixit, self.source) = (statement, fixit, source)
    }

    /// A finding whose statement is `message`, in words.
    public init(
        rule: RuleID, severity: Severity, category: RuleCategory, kind: Kind, image: String,
        symbol: String? = nil, demangled: String? = nil, chain: [String] = [], message: String,
        fixit: String? = nil, source: String? = nil
    ) {
        self.init(
            rule: rule, severity: severity, category: category, kind: kind, image: image, symbol: symbol,
            demangled: demangled, chain: chain, statement: .words(message), fixit: fixit, source: source)
    }

    /// A finding of a built-in check: the rule's id, category, fix-it and
    /// source; `detail` comes before the rule's message (or before
    /// `ruleMessage`, when the check words the rule's point for this case).
    init(
        builtIn rule: Rule, kind: Kind, image: String, symbol: String? = nil, chain: [String] = [],
        detail: FindingDetail, ruleMessage: String? = nil, severity: Severity? = nil
    ) {
        self.init(
            rule: rule.id, severity: severity ?? rule.severity, category: rule.category, kind: kind,
            image: image, symbol: symbol, chain: chain,
            statement: .detail(detail, ruleMessage: ruleMessage ?? rule.message), fixit: rule.fixit,
            source: rule.source)
    }

    /// The deterministic report order: image path, then rule, then symbol,
    /// then chain.
    public static func reportOrder(_ lhs: Finding, _ rhs: Finding) -> Bool {
        let (left, right) = ((lhs.image, lhs.rule, lhs.symbol ?? ""), (rhs.image, rhs.rule, rhs.symbol ?? ""))
        return left != right ? left < right : lhs.chain.lexicographicallyPrecedes(rhs.chain)
    }
}

/// One call that makes a finding.
public struct FindingCallSite: Sendable, Equatable {
    /// The calling function's raw symbol, or `nil` in code no symbol covers.
    public var function: String?
    /// The calling function demangled, when it differs.
    public var demangled: String?
    /// The calling function for display: demangled without its result type.
    public var displayName: String?
    /// The calling function's virtual address (its symbol's `st_value` or
    /// `n_value`), or `nil` in code no symbol covers: what tells two
    /// functions of one name apart (a `static helper` in each of two files).
    public var functionAddress: UInt64?
    /// The call instruction's virtual address.
    public var address: UInt64
    /// Its offset in the file, in bytes.
    public var fileOffset: UInt64
    /// Where the call was written (file, line, column, and the functions
    /// its code was inlined into), from the image's debug information;
    /// `nil` when the image has none for it (``CallSiteSources``).
    public var source: AddressSource?

    public init(
        function: String?, demangled: String?, displayName: String? = nil, functionAddress: UInt64? = nil, address: UInt64,
        fileOffset: UInt64
    ) {
        (self.function, self.demangled, self.displayName) = (function, demangled, displayName)
        (self.functionAddress, self.address, self.fileOffset) = (functionAddress, address, fileOffset)
    }

    /// `name` or `0x…` for display.
    public var label: String {
        displayName ?? demangled ?? function ?? "0x" + String(address, radix: 16)
    }
}
