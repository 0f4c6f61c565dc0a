import LinkCheckImage
import LinkCheckRules

/// What a finding's image does, typed: what was matched (a symbol, an
/// Objective-C class or method, a string, a library) and through what (an
/// import, a call into a linked-in copy, a class or selector reference, a
/// look-up by name, the read-only data, a DT_NEEDED or LC_LOAD_DYLIB
/// entry). The reports turn it into words (`FindingWording` in
/// LinkCheckReports); analysis never reads those words.
///
/// Every kind of finding is typed: bundle findings by ``bundle(_:)``.
public enum FindingDetail: Sendable, Equatable {
    /// The image imports `symbol` (raw), `demangled` when demangling
    /// changes it.
    case imports(symbol: String, demangled: String?)
    /// The image calls `function` (raw), a function it defines whose code
    /// was linked in statically; `demangled` when demangling changes it.
    case callsLinkedInCopy(function: String, demangled: String?)
    /// The image references `name`'s class and selector (Mach-O
    /// `__objc_classrefs`, `__objc_selrefs`), or, when it does not
    /// reference the class itself, the `subclasses` of it that it defines
    /// (sorted; empty otherwise).
    case references(ObjCName, subclasses: [String])
    /// The image looks the class `className` up by name, passing its name
    /// to `lookUps` (`NSClassFromString`), and reaches `selector` through
    /// the calls `selectorMakers` (`NSSelectorFromString`, `valueForKey:`),
    /// or through a selector reference when `nil`.
    case looksUpByName(className: String, selector: String, lookUps: [String], selectorMakers: [String]?)
    /// The image holds the name `className` as a string, and `selector` as
    /// a string too (`selectorHeldAsString`) or as a selector reference, and
    /// imports the look-up functions `lookUps`: it may look the class up by
    /// name. `unknownBecause` says why which name the look-ups are passed is
    /// not known; `namesUnused` is set when its code was analysed and none
    /// of it uses those names.
    case mayLookUpByName(
        className: String, selector: String, selectorHeldAsString: Bool, lookUps: [String], unknownBecause: LookUpUnknown,
        namesUnused: Bool)
    /// The image's read-only data holds `string`.
    case holdsString(String)
    /// The image links `library` (its install name or DT_NEEDED name)
    /// through its `format`'s dependency record (DT_NEEDED, LC_LOAD_DYLIB).
    case links(library: String, format: BinaryFormat)

    /// The image defines `api`: `symbol` (raw; `demangled` when demangling
    /// changes it), and `moreSymbols` other symbols of it. It is the API's
    /// provider, unless `unknownCalls` says the API's code was linked into
    /// it and whether that code is called cannot be seen.
    case provides(api: String, symbol: String, demangled: String?, moreSymbols: Int, unknownCalls: UnknownCalls?)
    /// The image defines (exports) the C loader function `symbol`
    /// (`dlopen`…), and so interposes it.
    case definesLoader(symbol: String)
    /// The image links, through the images `path` names (link names, a hop
    /// made by `dlopen` alone marked `(dlopen)`), the image that uses the
    /// API `path` ends with.
    case reachedThrough(path: [String])
    /// The image links, through the images `chain` names, the last of them,
    /// which could be read only in part.
    case linksReadInPart(chain: [String])

    /// No 64-bit code: an ELF image of the 32-bit class (ELFCLASS32,
    /// `architectures` its one architecture), or a Mach-O file without a
    /// 64-bit slice (`architectures` its slices', sorted).
    case noSixtyFourBitCode(format: BinaryFormat, architectures: [String])
    /// The slices of a fat file that no process of its app loads: those
    /// for the simulator and those 32-bit (each sorted) in an app for
    /// `platform`, whose minimum OS is `minimumOS` when known.
    case slicesNotLoaded(simulator: [String], thirtyTwoBit: [String], platform: Platform, minimumOS: String?)
    /// The image needs `needed`, and the only library of that name found
    /// (`found`, its image name) is built for `foundFor`, not for the
    /// image's own `imageFor`.
    case linkMismatch(needed: String, found: String, foundFor: MachineKind, imageFor: MachineKind)
    /// The module `module` has no slice of the required architecture family
    /// `required`; it is built for `builtFor` (sorted).
    case notBuiltFor(module: String, required: String, builtFor: [String])

    /// The image's call sites could not be analysed, for `reason`.
    case callSitesNotAnalysed(reason: String)
    /// A structure of the image could not be read.
    case readInPart(ReadWarning)
    /// The image needs `library`, which the dynamic loader would not find;
    /// `searched` are the places looked in, as the report shows them.
    case libraryNotFound(library: String, searched: [String])
    /// The image needs `library`; files of its name were found, not
    /// readable.
    case libraryUnreadable(library: String, found: [UnreadableFile])

    /// The image loads `library` at run time (`dlopen`), from `site` when
    /// known, with `outcome`.
    case loads(library: String, site: LoadSite?, outcome: LoadOutcome)
    /// `caller` calls the code loader `loader` (`dlopen`,
    /// `Bundle.load`…) after the run-time OS version checks `versionChecks`,
    /// or without one when empty.
    case loaderCall(caller: Caller, loader: String, versionChecks: [VersionQuery])
    /// The framework `image` (short name) is flagged
    /// `MH_APP_EXTENSION_SAFE`, yet uses APIs unavailable in app
    /// extensions; `linkedBy` is the chain of short names from an extension
    /// that links it, when one does.
    case flaggedYetUnsafe(image: String, linkedBy: [String]?)
    /// The framework `image` (short name) is not flagged
    /// `MH_APP_EXTENSION_SAFE` (not built with `-application_extension`),
    /// and uses APIs unavailable in app extensions or not; `linkedBy` as
    /// for ``flaggedYetUnsafe(image:linkedBy:)``.
    case notFlagged(image: String, linkedBy: [String]?, usesUnavailableAPI: Bool)
    /// How the image's app bundle is put together (``Finding/Kind/bundle``).
    case bundle(BundleProblem)
}

extension FindingDetail {
    /// Why whether an API's linked-in code is called is unknown: what the
    /// copy is, and why the calls in the image cannot be seen.
    public struct UnknownCalls: Sendable, Equatable {
        public var copy: LinkedInCopy
        public var since: UnseenCalls

        public init(copy: LinkedInCopy, since: UnseenCalls) {
            (self.copy, self.since) = (copy, since)
        }
    }

    /// What of an API is linked into an image that is not its provider.
    public enum LinkedInCopy: Sendable, Equatable {
        /// Code of the Swift module named, not the image's own.
        case module(String)
        /// An internal (not exported) copy of a C API.
        case internalCopy
    }

    /// The architecture and platform an image is built for: its machine,
    /// word size and byte order (``Architecture``), and its platform when
    /// it records one.
    public struct MachineKind: Sendable, Equatable {
        public var architecture: Architecture
        public var platform: Platform?

        public init(architecture: Architecture, platform: Platform?) {
            (self.architecture, self.platform) = (architecture, platform)
        }
    }

    /// A file of a needed library's name that could not be read: its path
    /// as the report shows it, and why.
    public struct UnreadableFile: Sendable, Equatable {
        public var path: String
        public var error: InspectionError

        public init(path: String, error: InspectionError) {
            (self.path, self.error) = (path, error)
        }
    }

    /// Where an image asks the loader for a library.
    public enum LoadSite: Sendable, Equatable {
        /// A loader call at `address` (a virtual address) in `function` (as
        /// people read it), or in code no symbol covers.
        case call(function: String?, address: UInt64)
        /// The ELF image's `.note.dlopen` declares it.
        case dlopenNote
    }

    /// What was found of a library an image loads.
    public enum LoadOutcome: Sendable, Equatable {
        /// Found as the image named `image`; its rule says whether it is
        /// safe.
        case found(image: String)
        /// Found as `image`, which (or what it links) could be read only in
        /// part.
        case foundReadInPart(image: String)
        /// Found as `image`, whose own verdict is `verdict` for the rules
        /// `rules`.
        case foundWithVerdict(image: String, verdict: Verdict, rules: [RuleID])
        /// Not found where the loader would look; `searched` are the places
        /// dyld looks in, as the report shows them, when known.
        case notFound(searched: [String]?)
    }

    /// Why which class name an image's look-up functions
    /// (`NSClassFromString`) are passed is not known.
    public enum LookUpUnknown: Sendable, Equatable {
        /// Its calls cannot be seen (`nil`: its call sites were not
        /// analysed).
        case callsUnseen(UnseenCalls?)
        /// Its code was analysed: look-ups are passed no literal in the
        /// functions `noLiteralIn` (as people read them; `nil` for code no
        /// symbol covers), each once, and no call to the look-up functions
        /// `neverCalled` was found.
        case notPassedALiteral(noLiteralIn: [String?], neverCalled: [String])
    }

    /// The code that makes a call.
    public enum Caller: Sendable, Equatable {
        /// A function, as people read it (``CallLocator/displayName(_:)``).
        case function(String)
        /// Code no function symbol covers, at these virtual addresses.
        case uncoveredCode(addresses: [UInt64])
    }

    /// A run-time OS version query (`uname`, `systemVersion`…) as people
    /// read it, made by the function itself, or by `caller`, which calls it.
    public struct VersionQuery: Sendable, Hashable {
        public var query: String
        public var caller: String?

        public init(query: String, caller: String? = nil) {
            (self.query, self.caller) = (query, caller)
        }
    }
}
