import Foundation
import LinkCheckImage
import LinkCheckInspection
import LinkCheckRules

/// What App Store Connect would refuse on upload, seen offline in the
/// bundles and binaries of an app (``Discovery/bundles``): each check a
/// built-in rule (``BuiltInRules``) whose finding names the ITMS code
/// (``BundleProblem/appStoreCode``).
///
/// - `BNDL005` (ITMS-90087): simulator slices in a file of a device app
///   (``UnloadableSlices``).
/// - `BNDL006` (ITMS-90171): a Mach-O file that is no bundle's
///   `CFBundleExecutable`, no library in a `Frameworks` folder and no
///   watch app's `_WatchKitStub`, in an iOS-style (flat) app; a static
///   library there, wherever it is.
/// - `BNDL007` (ITMS-90685): two bundles of one app with one
///   `CFBundleIdentifier`; an extension whose identifier does not start
///   with its app's and a dot.
/// - `BNDL008` (ITMS-90473): an extension whose `CFBundleVersion` or
///   `CFBundleShortVersionString` differs from its app's.
/// - `BNDL009` (ITMS-90056, ITMS-90057): a bundle whose `Info.plist` lacks
///   `CFBundleVersion` or `CFBundleShortVersionString`.
/// - `BNDL010` (ITMS-90208): a bundle's executable whose minimum OS
///   (`LC_BUILD_VERSION`, `LC_VERSION_MIN_*`) is newer than its
///   `Info.plist`'s `MinimumOSVersion`.
/// - `BNDL011`: an embedded framework whose minimum OS is newer than the
///   app's `MinimumOSVersion` (a warning).
/// - `BNDL012` (ITMS-90362, ITMS-90363): an extension's `NSExtension`
///   without `NSExtensionPointIdentifier`, or without both
///   `NSExtensionPrincipalClass` and `NSExtensionMainStoryboard` where its
///   extension point needs one.
/// - `BNDL013` (ITMS-90482): a binary with bitcode (an `__LLVM` segment).
///
/// A check whose key a bundle does not have says nothing (but `BNDL009`,
/// which is about missing keys); only bundles inside an app are checked.
struct UploadChecks {
    let graph: LinkGraph
    let bundles: BundleLayout
    let unloadable: UnloadableSlices

    /// The scanned files in apps: per file, its slices (indices into the
    /// graph's images, in identity order) and its placement.
    private struct AppFile {
        var slices: [Int]
        var placement: BundlePlacement
        var app: BundleFolder
    }

    /// A bundle in an app: its folder, its nearest app, the outermost
    /// bundle's path, and the image its findings are named on.
    private struct Bundle {
        var folder: BundleFolder
        var app: BundleFolder
        var outermost: String
        var image: String
    }

    func findings() -> [Finding] {
        let images = graph.images
        var files: [String: AppFile] = [:]
        for index in (0..<graph.scannedCount).sorted(by: { images[$0].identity < images[$1].identity }) {
            let path = images[index].path
            guard images[index].format == .macho, let placement = bundles.placement(ofFile: path), let app = placement.containingApp
            else { continue }
            files[path, default: AppFile(slices: [], placement: placement, app: app)].slices.append(index)
        }
        let ordered = files.sorted { $0.key < $1.key }.map(\.value)
        // The apps built for a device: their executable has a slice that is
        // not for the simulator.
        let deviceApps = Set(
            ordered.filter { file in
                file.placement.isExecutable && file.placement.innermost.kind == .app
                    && file.slices.contains { !UnloadableSlices.isSimulatorSlice(images[$0]) }
            }.map(\.placement.innermost.path))
        var findings: [Finding] = []
        for file in ordered {
            findings += fileFindings(file, inDeviceApp: deviceApps.contains(file.app.path))
        }
        // Each bundle once, named on the image of its executable (else its
        // first file).
        var bundleImages: [String: Bundle] = [:]
        for file in ordered where file.placement.innermost.kind != .xcframework {
            let folder = file.placement.innermost
            if bundleImages[folder.path] == nil || file.placement.isExecutable {
                bundleImages[folder.path] = Bundle(
                    folder: folder, app: file.app, outermost: file.placement.outermost.path, image: images[file.slices[0]].name)
            }
        }
        let bundleList = bundleImages.values.sorted { $0.folder.path < $1.folder.path }
        for bundle in bundleList {
            findings += bundleFindings(bundle.folder, app: bundle.app, image: bundle.image)
        }
        findings += sharedIdentifiers(bundleList)
        return findings
    }

    /// The checks of one file's binaries; `inDeviceApp`: its app is built
    /// for a device.
    private func fileFindings(_ file: AppFile, inDeviceApp: Bool) -> [Finding] {
        let images = graph.images
        let slices = file.slices.map { images[$0] }
        let image = slices[0].name
        let place = file.placement.outermost.folderName + "/" + file.placement.place
        var findings: [Finding] = []
        // On the first simulator slice, as the note on the slices no
        // process loads (``UnloadableSlices``) is.
        var simulator = file.slices.filter { unloadable.reasons[$0] == .simulator }
        // A file built for the simulator alone (thin, or every slice) in a
        // device app: App Store Connect refuses it as it refuses a slice.
        if simulator.isEmpty, inDeviceApp, file.slices.allSatisfy({ UnloadableSlices.isSimulatorSlice(images[$0]) }) {
            simulator = file.slices
        }
        if let first = simulator.first {
            // The members of a static archive repeat their slice's name.
            let names = Set(simulator.map { images[$0].architecture.name }).sorted()
            findings.append(
                Finding(
                    bundle: BuiltInRules.simulatorSlices, image: images[first].name,
                    problem: .simulatorSlices(file: place, slices: names)))
        }
        // A library in a Frameworks folder is allowed, and so is the stub a
        // watch app holds (`_WatchKitStub/WK`); a static library nowhere,
        // not even as a framework's executable (a static framework copied
        // into the app).
        let folder = ((file.placement.outermost.path + "/" + file.placement.place) as NSString).deletingLastPathComponent
        if file.app.layout == .flat, slices.contains(where: { $0.identity.member != nil }) {
            findings.append(Finding(bundle: BuiltInRules.strayBinary, image: image, problem: .staticLibrary(file: place)))
        } else if file.app.layout == .flat, !file.placement.isExecutable,
            !["Frameworks", "_WatchKitStub"].contains((folder as NSString).lastPathComponent)
        {
            findings.append(Finding(bundle: BuiltInRules.strayBinary, image: image, problem: .strayBinary(file: place)))
        }
        if slices.contains(where: { $0.facts.macho?.hasBitcode == true }) {
            findings.append(Finding(bundle: BuiltInRules.bitcode, image: image, problem: .bitcode(file: place)))
        }
        guard file.placement.isExecutable, let built = Self.newestMinimum(slices) else { return Self.aboutFile(findings, slices) }
        let bundle = file.placement.innermost
        if let declared = bundle.info?.minimumOS, let declaredVersion = SDKVersion(declared), declaredVersion < built.version {
            findings.append(
                Finding(
                    bundle: BuiltInRules.minimumOSNewerThanInfoPlist, image: image,
                    problem: .minimumOSNewerThanInfoPlist(bundle: bundle.folderName, built: built.text, declared: declared)))
        }
        if bundle.kind == .framework, let appMinimum = file.app.info?.minimumOS, let appVersion = SDKVersion(appMinimum),
            appVersion < built.version
        {
            findings.append(
                Finding(
                    bundle: BuiltInRules.frameworkNewerThanApp, image: image,
                    problem: .frameworkNewerThanApp(
                        framework: bundle.folderName, built: built.text, app: file.app.folderName, appMinimum: appMinimum)))
        }
        return Self.aboutFile(findings, slices)
    }

    /// `findings`, each about the whole file when `slices` are a fat
    /// file's (``Finding/aboutFile``): reports name the file, and no
    /// slice's being unloaded makes them notes.
    static func aboutFile(_ findings: [Finding], _ slices: [BinaryImage]) -> [Finding] {
        guard slices[0].identity.slice != nil else { return findings }
        return findings.map { finding in
            var finding = finding
            finding.aboutFile = true
            return finding
        }
    }

    /// The newest minimum OS among `slices` built for a device (not a
    /// simulator, not Mac Catalyst, whose versions are iOS's).
    static func newestMinimum(_ slices: [BinaryImage]) -> (version: SDKVersion, text: String)? {
        slices.compactMap { slice -> (version: SDKVersion, text: String)? in
            guard let built = slice.platform, !built.platform.isSimulator, built.platform != .macCatalyst,
                !UnloadableSlices.isSimulatorSlice(slice), let version = SDKVersion(built.minimumOS)
            else { return nil }
            return (version, built.minimumOS)
        }.max { $0.version < $1.version }
    }

    /// The checks of one bundle's `Info.plist`, against its app's.
    private func bundleFindings(_ bundle: BundleFolder, app: BundleFolder, image: String) -> [Finding] {
        guard let info = bundle.info else { return [] }
        var findings: [Finding] = []
        for (key, value) in [("CFBundleVersion", info.bundleVersion), ("CFBundleShortVersionString", info.version)] where value == nil {
            findings.append(
                Finding(
                    bundle: BuiltInRules.missingVersion, image: image, symbol: key,
                    problem: .missingVersion(bundle: bundle.folderName, key: key)))
        }
        guard bundle.kind == .appExtension else { return findings }
        let appInfo = app.info
        for (key, own, apps) in [
            ("CFBundleVersion", info.bundleVersion, appInfo?.bundleVersion), ("CFBundleShortVersionString", info.version, appInfo?.version),
        ] {
            guard let own, let apps, own != apps else { continue }
            findings.append(
                Finding(
                    bundle: BuiltInRules.versionMismatch, image: image, symbol: key,
                    problem: .versionMismatch(extensionBundle: bundle.folderName, key: key, own: own, app: app.folderName, appValue: apps)))
        }
        if let identifier = info.identifier, let appIdentifier = appInfo?.identifier, !identifier.hasPrefix(appIdentifier + ".") {
            findings.append(
                Finding(
                    bundle: BuiltInRules.bundleIdentifier, image: image, symbol: identifier,
                    problem: .identifierNotPrefixed(
                        extensionBundle: bundle.folderName, identifier: identifier, app: app.folderName, appIdentifier: appIdentifier)))
        }
        if let keys = info.nsExtension {
            let missing: String? =
                if keys.pointIdentifier == nil {
                    "NSExtensionPointIdentifier"
                } else if keys.principalClass == nil, keys.mainStoryboard == nil,
                    Self.pointsNeedingAPrincipal.contains(keys.pointIdentifier ?? "")
                {
                    "NSExtensionPrincipalClass"
                } else {
                    nil
                }
            if let missing {
                findings.append(
                    Finding(
                        bundle: BuiltInRules.extensionKeys, image: image, symbol: missing,
                        problem: .extensionKeyMissing(extensionBundle: bundle.folderName, key: missing, point: keys.pointIdentifier)))
            }
        }
        return findings
    }

    /// The extension points whose extension names its entry in
    /// `NSExtension`: a principal class (`NSExtensionPrincipalClass`) or a
    /// storyboard (`NSExtensionMainStoryboard`). WidgetKit, App Intents and
    /// ExtensionKit extensions name theirs in code, so they are not here.
    static let pointsNeedingAPrincipal: Set<String> = [
        "com.apple.share-services", "com.apple.ui-services", "com.apple.widget-extension", "com.apple.message-payload-provider",
        "com.apple.keyboard-service", "com.apple.callkit.call-directory", "com.apple.usernotifications.content-extension",
        "com.apple.usernotifications.service", "com.apple.photo-editing", "com.apple.fileprovider-nonui", "com.apple.fileprovider-ui",
        "com.apple.intents-service", "com.apple.intents-ui-service", "com.apple.broadcast-services-upload",
        "com.apple.broadcast-services-setupui", "com.apple.identitylookup.message-filter",
    ]

    /// `BNDL007` on each bundle of an app that shares its
    /// `CFBundleIdentifier` with another bundle of that app (the outermost
    /// one, with its watch app and app clips).
    private func sharedIdentifiers(_ bundleList: [Bundle]) -> [Finding] {
        struct Key: Hashable, Comparable {
            var outermost, identifier: String
            static func < (a: Key, b: Key) -> Bool { (a.outermost, a.identifier) < (b.outermost, b.identifier) }
        }
        var byIdentifier: [Key: [Bundle]] = [:]
        for bundle in bundleList {
            guard let identifier = bundle.folder.info?.identifier else { continue }
            byIdentifier[Key(outermost: bundle.outermost, identifier: identifier), default: []].append(bundle)
        }
        // Bundles of one name may share the identifier (a framework copied
        // into an extension): each is named by its place in the app,
        // `Shop.app/PlugIns/Share.appex/Frameworks/Legacy.framework`.
        let place = { (bundle: Bundle) in
            let outermost = (bundle.outermost as NSString).lastPathComponent
            return bundle.folder.path == bundle.outermost
                ? outermost : outermost + "/" + bundle.folder.path.dropFirst(bundle.outermost.count + 1)
        }
        var findings: [Finding] = []
        for (key, sharing) in byIdentifier.sorted(by: { $0.key < $1.key }) where sharing.count > 1 {
            for bundle in sharing {
                let others = sharing.filter { $0.folder.path != bundle.folder.path }.map(place)
                findings.append(
                    Finding(
                        bundle: BuiltInRules.bundleIdentifier, image: bundle.image, symbol: key.identifier,
                        problem: .sharedIdentifier(bundle: place(bundle), identifier: key.identifier, others: others)))
            }
        }
        return findings
    }
}
