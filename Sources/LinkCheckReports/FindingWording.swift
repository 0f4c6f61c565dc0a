import LinkCheckAnalysis
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
                + " and send \(selector); a warning at most, since \(unknownBecause)"
                + (namesUnused ? "; no code that uses these names was found" : "")
        case .holdsString(let string):
            "read-only data holds the string \"\(string)\""
        case .links(let library, let format):
            "links \(library) (\(format.dependencyTerm))"
        case .bundle(let problem):
            problem.words
        }
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

extension Finding {
    /// What is wrong, in full: what the image does (its detail's words, or
    /// its own words), then `: ` and the rule's message, then the reasons
    /// after it.
    public var message: String {
        switch statement {
        case .words(let words): words
        case .detail(let detail, let ruleMessage, let remarks): "\(detail.words): \(ruleMessage)\(remarks)"
        }
    }

    /// What the image does, without the rule's message and what follows it:
    /// the detail's words, or the finding's own (``Finding/detail(rule:)``).
    func ownWords(rule: Rule?) -> String {
        switch statement {
        case .words: detail(rule: rule) ?? message
        case .detail(let detail, _, _): detail.words
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
