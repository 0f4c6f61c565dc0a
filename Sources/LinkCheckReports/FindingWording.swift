import LinkCheckAnalysis
import LinkCheckImage
import LinkCheckRules

/// A finding's typed detail (``FindingDetail``) in words: the one place the
/// reports (JSON `message`, text lines, SARIF, HTML) get what a finding
/// says from.
extension FindingDetail {
    /// What the image does, as the finding's message starts: `imports
    /// 'UIApplication.shared' ($s…)`, `read-only data holds the string
    /// "openURL:"`, `links libShareKit.so (DT_NEEDED)`.
    public var words: String {
        switch self {
        case .imports(let symbol, let demangled):
            "imports \(CallLocator.quoted(symbol, demangled))"
        case .callsLinkedInCopy(let function, let demangled):
            "calls \(CallLocator.quoted(function, demangled)), whose code is linked into this image"
        case .references(let name, let subclasses):
            "references \(name) (\(Self.referenced(name, subclasses: subclasses)))"
        case .looksUpByName(let className, let selector, let lookUps, let selectorMakers):
            "looks up \(className) by name (\(lookUps.joined(separator: ", "))) and sends \(selector)"
                + " (\(selectorMakers?.joined(separator: ", ") ?? "a selector reference"))"
        case .mayLookUpByName(let className, let selector, let selectorHeldAsString, let lookUps, let unknownBecause, let namesUnused):
            (selectorHeldAsString
                ? "holds the strings \"\(className)\" and \"\(selector)\""
                : "holds the string \"\(className)\", references the selector \(selector)")
                + " and imports \(lookUps.joined(separator: ", ")), so it may look up \(className) by name"
                + " and send \(selector); a warning at most, since \(unknownBecause.words)"
                + (namesUnused ? "; no code that uses these names was found" : "")
        case .holdsString(let string):
            "read-only data holds the string \"\(string)\""
        case .links(let library, let format):
            "links \(library) (\(format.dependencyTerm))"
        case .provides(let api, let symbol, let demangled, let moreSymbols, let unknownCalls):
            "provides \(api) (defines \(CallLocator.quoted(symbol, demangled))"
                + (moreSymbols > 0 ? " and \(moreSymbols) more symbol\(moreSymbols == 1 ? "" : "s")" : "") + ")"
                + (unknownCalls.map { ", \($0.words)" } ?? "; its own definitions are not violations")
        case .definesLoader(let symbol):
            "defines '\(symbol)'"
        case .reachedThrough(let path):
            "reached through \(path.joined(separator: " → "))"
        case .linksReadInPart(let chain):
            "links \(chain.joined(separator: " → ")), which could be read only in part"
        case .noSixtyFourBitCode(let format, let architectures):
            switch format {
            case .elf: "this \(architectures.joined(separator: ", ")) image is 32-bit (ELFCLASS32)"
            case .macho: "this file has no 64-bit slice (\(architectures.joined(separator: ", ")))"
            }
        case .slicesNotLoaded(let simulator, let thirtyTwoBit, let platform, let minimumOS):
            Self.slicesNotLoaded(simulator: simulator, thirtyTwoBit: thirtyTwoBit, platform: platform, minimumOS: minimumOS)
        case .linkMismatch(let needed, let found, let foundFor, let imageFor):
            "needs \(needed), but the only one found (\(found)) is \(foundFor.words), not \(imageFor.words)"
        case .notBuiltFor(let module, let required, let builtFor):
            "\(module) is not built for \(required) (built for: \(builtFor.joined(separator: ", ")))"
        case .callSitesNotAnalysed(let reason):
            "call sites could not be analysed (\(reason))"
        case .readInPart(let warning):
            warning.description
        case .libraryNotFound(let library, let searched):
            "needs \(library), which the dynamic loader would not find"
                + (searched.isEmpty ? "" : " (searched: \(searched.joined(separator: ", ")))")
        case .libraryUnreadable(let library, let found):
            "needs \(library), found as "
                + found.map { "\($0.path) (\(TextRenderer.reason($0.error)))" }.joined(separator: "; ")
        case .loads(let library, let site, let outcome):
            Self.loads(library, site: site, outcome: outcome)
        case .loaderCall(let caller, let loader, let versionChecks):
            versionChecks.isEmpty
                ? "\(caller.words) calls \(loader) without a run-time OS version check"
                : "\(caller.words) calls \(loader) after a run-time OS version check (\(versionChecks.map(\.words).sorted().joined(separator: ", ")))"
        case .flaggedYetUnsafe(let image, let linkedBy):
            "\(image) is flagged MH_APP_EXTENSION_SAFE\(Self.linked(by: linkedBy)), yet uses APIs unavailable in app extensions (below)"
        case .notFlagged(let image, let linkedBy, let usesUnavailableAPI):
            "\(image) is not built with -application_extension (no MH_APP_EXTENSION_SAFE)\(Self.linked(by: linkedBy))"
                + (usesUnavailableAPI
                    ? ", and it uses APIs unavailable in app extensions (below)"
                    : ", though it uses no API unavailable in app extensions: it is safe in fact, and building it with the flag silences the linker")
        case .bundle(let problem):
            problem.words
        }
    }

    /// The note on a fat file's slices no process of its app loads:
    /// `slices i386, x86_64 are for the simulator and armv7 is 32-bit: no
    /// process of this iOS 15.0 app loads them`.
    static func slicesNotLoaded(simulator: [String], thirtyTwoBit: [String], platform: Platform, minimumOS: String?) -> String {
        func clause(_ slices: [String], _ what: String, first: Bool) -> String {
            let list = slices.joined(separator: ", ")
            let verb = slices.count == 1 ? "is" : "are"
            return (first ? (slices.count == 1 ? "slice " : "slices ") : "") + "\(list) \(verb) \(what)"
        }
        var clauses: [String] = []
        if !simulator.isEmpty { clauses.append(clause(simulator, "for the simulator", first: true)) }
        if !thirtyTwoBit.isEmpty { clauses.append(clause(thirtyTwoBit, "32-bit", first: clauses.isEmpty)) }
        let name =
            switch platform {
            case .iOS: "iOS"
            case .tvOS: "tvOS"
            case .watchOS: "watchOS"
            case .visionOS: "visionOS"
            default: platform.rawValue
            }
        let app = minimumOS.map { "\(name) \($0)" } ?? name
        let count = simulator.count + thirtyTwoBit.count
        return clauses.joined(separator: " and ") + ": no process of this \(app) app loads \(count == 1 ? "it" : "them")"
    }

    /// `loads libplugin.so → /opt/lib/libplugin.so (from load_plugin at
    /// 0x1130), whose verdict is unsafe (AEX001)`.
    static func loads(_ library: String, site: LoadSite?, outcome: LoadOutcome) -> String {
        let from =
            switch site {
            case .call(let function?, let address): " (from \(function) at 0x\(String(address, radix: 16)))"
            case .call(nil, let address): " (from code at 0x\(String(address, radix: 16)) that no symbol covers)"
            case .dlopenNote: " (declared in .note.dlopen)"
            case nil: ""
            }
        return switch outcome {
        case .found(let image): "loads \(library) → \(image)\(from)"
        case .foundReadInPart(let image): "loads \(library) → \(image)\(from), which could be read only in part"
        case .foundWithVerdict(let image, let verdict, let rules):
            "loads \(library) → \(image)\(from), whose verdict is \(verdict.rawValue) (\(rules.map(\.rawValue).joined(separator: ", ")))"
        case .notFound(let searched):
            "loads \(library)\(from), which is not found where the loader would look"
                + (searched.map { " (dyld looks in \($0.joined(separator: ", ")))" } ?? "")
        }
    }

    /// ` (linked by PhotosShare → SyncKit)`, or nothing without a chain.
    static func linked(by chain: [String]?) -> String {
        chain.map { " (linked by \($0.joined(separator: " → ")))" } ?? ""
    }

    /// What of `name` an image references: `the class UIApplication and the
    /// selector sharedApplication`, `the class MyApp, a subclass of
    /// UIApplication, and the selector sharedApplication`, `the selector
    /// openURL: of the protocol UIApplicationDelegate`.
    static func referenced(_ name: ObjCName, subclasses: [String]) -> String {
        let theClass =
            subclasses.isEmpty
            ? "the class \(name.className)"
            : "the class\(subclasses.count > 1 ? "es" : "") \(subclasses.joined(separator: ", ")), "
                + "\(subclasses.count > 1 ? "subclasses" : "a subclass") of \(name.className)"
        guard let selector = name.selector else { return theClass }
        return name.isProtocolMethod
            ? "the selector \(selector) of the protocol \(name.className)"
            : "\(theClass)\(subclasses.isEmpty ? "" : ",") and the selector \(selector)"
    }
}

extension FindingDetail.UnknownCalls {
    /// `code of module Analytics linked into this image: whether code of
    /// other modules in it calls the API is unknown, since call sites were
    /// not analysed (--no-call-sites)`.
    var words: String {
        let copy =
            switch copy {
            case .module(let module):
                "code of module \(module) linked into this image: whether code of other modules in it calls the API is unknown"
            case .internalCopy: "an internal copy linked into this image: whether code in it calls the API is unknown"
            }
        return "\(copy), since \(since.words)"
    }
}

extension FindingDetail.LookUpUnknown {
    /// `call sites were not analysed (--no-call-sites) and which name the
    /// look-up is passed is not known`, `which name the look-up is passed
    /// is not known (the look-up is passed no literal in f; no call to
    /// objc_getClass was found)`.
    var words: String {
        switch self {
        case .callsUnseen(let unseen):
            return "\(unseen?.words ?? "its call sites were not analysed") and which name the look-up is passed is not known"
        case .notPassedALiteral(let noLiteralIn, let neverCalled):
            var reasons: [String] = []
            if !noLiteralIn.isEmpty {
                reasons.append(
                    "the look-up is passed no literal in \(noLiteralIn.map { $0 ?? "code no symbol covers" }.joined(separator: ", "))")
            }
            if !neverCalled.isEmpty { reasons.append("no call to \(neverCalled.joined(separator: ", ")) was found") }
            return "which name the look-up is passed is not known (\(reasons.joined(separator: "; ")))"
        }
    }
}

extension UnseenCalls {
    /// `call sites were not analysed (--no-call-sites)`.
    var words: String {
        switch self {
        case .analysisFailed(let reason): "its call sites could not be analysed (\(reason))"
        case .turnedOff: "call sites were not analysed (--no-call-sites)"
        case .unsupported(let architecture): "call sites are not analysed for \(architecture)"
        case .notScanned: "call sites are analysed only in the scanned images"
        }
    }
}

extension FindingDetail.MachineKind {
    /// `x86_64 64-bit little-endian`, `arm64 64-bit little-endian
    /// ios-simulator`: architecture, word size, byte order and platform.
    var words: String {
        let order = architecture.byteOrder == .little ? "little" : "big"
        let platform = self.platform.map { " \($0.rawValue)" } ?? ""
        return "\(architecture) \(architecture.is64Bit ? 64 : 32)-bit \(order)-endian\(platform)"
    }
}

extension FindingDetail.Caller {
    /// The function, or `code at 0x1a2b (no symbol covers it)`, `code at
    /// 0x1a2b and 0x1c00 (no symbol covers them)`.
    var words: String {
        switch self {
        case .function(let name): return name
        case .uncoveredCode(let addresses):
            let shown = addresses.sorted().map { "0x" + String($0, radix: 16) }
            let listed = shown.count > 3 ? shown.prefix(2) + ["\(shown.count - 2) more places"] : shown[...]
            let list = listed.count > 1 ? listed.dropLast().joined(separator: ", ") + " and " + listed.last! : listed.joined()
            return "code at \(list) (no symbol covers \(shown.count == 1 ? "it" : "them"))"
        }
    }
}

extension FindingDetail.VersionQuery {
    /// `uname`, or `uname in entry_checked`.
    var words: String { caller.map { "\(query) in \($0)" } ?? query }
}

extension Finding {
    /// What is wrong, in full: what the image does (its detail's words, or
    /// its own words), then `: ` and the rule's message, then its remarks.
    public var message: String {
        let statement =
            switch statement {
            case .words(let words): words
            case .detail(let detail, let ruleMessage): detail.words + (ruleMessage.map { ": \($0)" } ?? "")
            }
        return statement + remarkWords
    }

    /// What the image does, without the rule's message and what follows it:
    /// the detail's words, or the finding's own (``Finding/detail(rule:)``).
    func ownWords(rule: Rule?) -> String {
        switch statement {
        case .words(let words): detail(rule: rule) ?? words
        case .detail(let detail, _): detail.words
        }
    }

    /// What the finding says after the rule's message, its remarks
    /// (``Finding/remarks``): why the severity is what it is (` (allowed:
    /// the containing app may use it)`, ` (no longer marked since the iOS
    /// 17.0 SDK; …)`), each in parentheses with its leading space; empty
    /// when there are none.
    public var remarkWords: String {
        remarks.map { " (\($0.words))" }.joined()
    }
}

extension FindingRemark {
    /// The remark in words, without its parentheses: `allowed: the
    /// containing app may use it`, `guarded by respondsToSelector: in f`.
    public var words: String {
        switch self {
        case .sliceNotLoaded: "no process of the app loads this slice"
        case .containingAppMayUse: "allowed: the containing app may use it"
        case .allowedInExtensionType(let type): "allowed in \(type) extensions"
        case .onlyContainingAppLinks: "only the containing app links or loads it"
        case .allowedInLinkingExtensions(let types):
            "allowed in the \(types.map(\.rawValue).joined(separator: ", ")) extensions that link it"
        case .onlyContainingAppRuns: "only the containing app runs this code"
        case .sdkMarking(let comparison): comparison.words
        case .callSitesNotAnalysed(let architecture, let format): "call sites are not analysed for \(architecture) \(format.displayName)"
        case .byNameOnly: "by name only, which the compiler and the App Store accept"
        case .byNameOnlyMadeError: "by name only: an error, as this run makes every use by name"
        case .guarded(let guards): "guarded by \(guards.map(\.words).joined(separator: ", "))"
        case .byNameToldFromStrings(let image): "a use by name told from the strings and imports of \(image) alone"
        case .noCodeLoadsString: "no code loads it"
        case .loadMakesNoSelector: "the code that loads it makes no selector of it"
        case .moreStructureProblems(let count):
            "and \(count) more problem\(count == 1 ? "" : "s") with its structure: --format json lists them"
        }
    }
}

extension BundleProblem {
    /// What is wrong with the bundle, as the finding's message starts:
    /// `Uploader.framework is in Shop.app/PlugIns/Share.appex/Frameworks,
    /// not in Shop.app's Frameworks folder`.
    public var words: String {
        switch self {
        case .notEmbedded(let library, let searched, let onlyCopyIn, let app, let launchFailure):
            let looks = searched.isEmpty ? "" : " (dyld looks in \(searched.joined(separator: ", ")))"
            let problem =
                onlyCopyIn.map { "which dyld would not find\(looks): the only copy is in \($0)" } ?? "which \(app) does not embed\(looks)"
            return "needs \(library), \(problem): \(launchFailure.words)"
        case .ownCopy(let extensionBundle, let framework, let folder, let app):
            return "\(extensionBundle) embeds its own copy of \(framework) in \(folder), which \(app) also embeds"
        case .misplacedFramework(let framework, let folder, let app):
            return "\(framework) is in \(folder), not in \(app)'s Frameworks folder"
        case .nestedBundle(let bundle, let folder):
            return "\(bundle) is inside \(folder)"
        case .not64Bit(let bundle, let isApp, let slices):
            return "the \(isApp ? "app" : "extension") \(bundle) has no 64-bit slice (\(slices.joined(separator: ", ")))"
        case .simulatorSlices(let file, let slices):
            return "\(file) has \(slices.count == 1 ? "a slice" : "slices") for the simulator (\(slices.joined(separator: ", ")))"
        case .strayBinary(let file):
            return "\(file) is neither a bundle's executable nor a library in a Frameworks folder"
        case .staticLibrary(let file):
            return "\(file) is a static library (an ar archive), which no process loads: link it into the executable that uses it"
        case .sharedIdentifier(let bundle, let identifier, let others):
            return
                "\(bundle) has the CFBundleIdentifier \(identifier), as \(others.joined(separator: ", ")) \(others.count == 1 ? "does" : "do")"
        case .identifierNotPrefixed(let extensionBundle, let identifier, let app, let appIdentifier):
            return "the CFBundleIdentifier of \(extensionBundle), \(identifier), does not start with \(app)'s, \(appIdentifier), and a dot"
        case .versionMismatch(let extensionBundle, let key, let own, let app, let appValue):
            return "the \(key) of \(extensionBundle) is \(own), and \(app)'s is \(appValue)"
        case .missingVersion(let bundle, let key):
            return "the Info.plist of \(bundle) has no \(key)"
        case .minimumOSNewerThanInfoPlist(let bundle, let built, let declared):
            return "the executable of \(bundle) is built for OS \(built) and later, and its Info.plist's minimum is \(declared)"
        case .frameworkNewerThanApp(let framework, let built, let app, let appMinimum):
            return "\(framework) is built for OS \(built) and later, and \(app) runs from \(appMinimum)"
        case .extensionKeyMissing(let extensionBundle, let key, let point):
            return point.map {
                "the NSExtension of \(extensionBundle) (\($0)) has neither NSExtensionPrincipalClass nor NSExtensionMainStoryboard"
            }
                ?? "the NSExtension of \(extensionBundle) has no \(key)"
        case .bitcode(let file):
            return "\(file) holds bitcode (an __LLVM segment)"
        }
    }
}

extension BundleProblem.LaunchFailure {
    /// `the extension would not launch`, `Share.appex, Stickers.appex, which
    /// load it, would not launch`.
    var words: String {
        switch self {
        case .theExtension: "the extension would not launch"
        case .theApp: "the app would not launch"
        case .processes(let who): "\(who.joined(separator: ", ")), which load\(who.count == 1 ? "s" : "") it, would not launch"
        }
    }
}

extension SDKMarkingComparison {
    /// `no longer marked since the iOS 17.0 SDK; Share is built with the
    /// iOS 17.2 SDK`, and the other outcomes.
    var words: String {
        let sdks = platform.name
        let unmarked = "no longer marked since the \(sdks) \(unmarkedFrom) SDK"
        let marked = "marked in \(sdks) SDKs up to \(markedUntil), \(unmarked)"
        return switch outcome {
        case .noSDKRecorded: "\(marked); \(image) records no SDK, so which one it was built with was not checked"
        case .otherPlatform(let built):
            "the marking's SDK range is \(sdks)'s, and \(image) is built for \(built.rawValue), so the range was not checked"
        case .liftedInSDK(let sdk): "\(unmarked); \(image) is built with the \(sdks) \(sdk) SDK"
        case .stillMarkedInSDK(let sdk):
            "\(image) is built with the \(sdks) \(sdk) SDK, which still marks it; \(sdks) \(unmarkedFrom) and later SDKs do not"
        case .liftedByDeploymentTarget(let minimum):
            "\(unmarked); \(image) records no SDK, but its deployment target, \(sdks) \(minimum), needs at least that one"
        case .deploymentTargetUntold(let minimum):
            "\(marked); \(image) records no SDK, and its deployment target, \(sdks) \(minimum), does not tell which, so the range was not checked"
        }
    }
}

extension UseGuard {
    /// `respondsToSelector: in -[SDWebImageManager openURL:]`, `an
    /// extension check`.
    var words: String {
        let check =
            switch kind {
            case .respondsToSelector: "respondsToSelector:"
            case .extensionCheck: "an extension check"
            }
        return function.map { "\(check) in \($0)" } ?? check
    }
}
