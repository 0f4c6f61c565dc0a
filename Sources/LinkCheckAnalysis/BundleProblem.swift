import LinkCheckRules

/// What is wrong with how an app bundle is put together, typed: the
/// evidence of a finding of kind ``Finding/Kind/bundle`` (``BundleChecks``).
/// Bundles and folders are named as reports show them (`Shop.app`,
/// `Shop.app/PlugIns/Share.appex/Frameworks`); the reports word it
/// (`FindingWording` in LinkCheckReports).
public enum BundleProblem: Sendable, Equatable {
    /// `BNDL001`: the image links `library` (an install name), which dyld
    /// would not find in the folders `searched` (its run paths, expanded),
    /// because `app` does not embed it, or because its only copy is in
    /// `onlyCopyIn`; so `launchFailure`.
    case notEmbedded(library: String, searched: [String], onlyCopyIn: String?, app: String, launchFailure: LaunchFailure)
    /// `BNDL002`: the extension bundle `extensionBundle` embeds its own
    /// copy of `framework` in `folder`, which `app` embeds too.
    case ownCopy(extensionBundle: String, framework: String, folder: String, app: String)
    /// `BNDL003`: `framework` is in `folder`, not in `app`'s own
    /// `Frameworks` folder.
    case misplacedFramework(framework: String, folder: String, app: String)
    /// `BNDL003`: the extension or app `bundle` is inside `folder`, another
    /// extension or a framework.
    case nestedBundle(bundle: String, folder: String)
    /// `BNDL004`: `bundle`, the containing app (`isApp`) or an extension,
    /// has no 64-bit slice, only `slices` (architecture names, sorted).
    case not64Bit(bundle: String, isApp: Bool, slices: [String])

    /// `BNDL005`: the `file` (its place in the app: `Shop.app/Frameworks/Kit.framework/Kit`)
    /// has the simulator `slices` (architecture names, sorted).
    case simulatorSlices(file: String, slices: [String])
    /// `BNDL006`: `file` is no bundle's executable and no library in a
    /// `Frameworks` folder.
    case strayBinary(file: String)
    /// `BNDL006`: `file` is a static library (an `ar` archive), which no
    /// process loads, even as a framework's executable.
    case staticLibrary(file: String)
    /// `BNDL007`: `bundle` has the `CFBundleIdentifier` `identifier`, as
    /// the bundles `others` of the same app do.
    case sharedIdentifier(bundle: String, identifier: String, others: [String])
    /// `BNDL007`: the extension's `identifier` does not start with its
    /// app's `appIdentifier` and a dot.
    case identifierNotPrefixed(extensionBundle: String, identifier: String, app: String, appIdentifier: String)
    /// `BNDL008`: the extension's `key` (`CFBundleVersion`,
    /// `CFBundleShortVersionString`) is `own`, its app's `appValue`.
    case versionMismatch(extensionBundle: String, key: String, own: String, app: String, appValue: String)
    /// `BNDL009`: `bundle`'s `Info.plist` has no `key`.
    case missingVersion(bundle: String, key: String)
    /// `BNDL010`: the executable of `bundle` is built for `built` (its
    /// newest device slice's minimum OS), newer than the `MinimumOSVersion`
    /// (or `LSMinimumSystemVersion`) `declared`.
    case minimumOSNewerThanInfoPlist(bundle: String, built: String, declared: String)
    /// `BNDL011`: `framework` is built for `built`, newer than `app`'s
    /// `MinimumOSVersion` `appMinimum`.
    case frameworkNewerThanApp(framework: String, built: String, app: String, appMinimum: String)
    /// `BNDL012`: the extension's `NSExtension` has no `key`
    /// (`NSExtensionPointIdentifier`, or `NSExtensionPrincipalClass` for the
    /// extension point `point` that needs it or a storyboard).
    case extensionKeyMissing(extensionBundle: String, key: String, point: String?)
    /// `BNDL013`: `file` holds bitcode.
    case bitcode(file: String)

    /// The code App Store Connect gives the problem on upload
    /// (`ITMS-90087`); `nil` for one it does not check.
    public var appStoreCode: String? {
        switch self {
        case .notEmbedded, .ownCopy, .frameworkNewerThanApp: nil
        case .misplacedFramework(_, let folder, _):
            folder.contains(".appex/") || folder.contains(".framework/") ? "ITMS-90206" : "ITMS-90205"
        case .nestedBundle: "ITMS-90205"
        case .not64Bit: "ITMS-90086"
        case .simulatorSlices: "ITMS-90087"
        case .strayBinary, .staticLibrary: "ITMS-90171"
        case .sharedIdentifier, .identifierNotPrefixed: "ITMS-90685"
        case .versionMismatch: "ITMS-90473"
        case .missingVersion(_, let key): key == "CFBundleVersion" ? "ITMS-90056" : "ITMS-90057"
        case .minimumOSNewerThanInfoPlist: "ITMS-90208"
        case .extensionKeyMissing(_, let key, _): key == "NSExtensionPointIdentifier" ? "ITMS-90362" : "ITMS-90363"
        case .bitcode: "ITMS-90482"
        }
    }

    /// Who would not launch.
    public enum LaunchFailure: Sendable, Equatable {
        /// The image is the extension.
        case theExtension
        /// The image is the containing app.
        case theApp
        /// The extensions and apps that load the image (folder names, or
        /// file names outside a bundle), sorted, each once.
        case processes([String])
    }

    /// Whether the words start with the name of the image the finding is
    /// about (`Uploader.framework is in …`): a cause says them alone.
    public var namesItsImage: Bool {
        if case .misplacedFramework = self { true } else { false }
    }
}

extension Finding {
    /// A finding of the bundle check `rule` (``BundleChecks``) on `image`,
    /// its evidence `problem`: the rule's id, category, message, fix-it and
    /// source.
    init(bundle rule: Rule, image: String, symbol: String? = nil, problem: BundleProblem) {
        self.init(
            rule: rule.id, severity: rule.severity, category: rule.category, kind: .bundle, image: image, symbol: symbol,
            statement: .detail(.bundle(problem), ruleMessage: rule.message), fixit: rule.fixit, source: rule.source)
    }
}
