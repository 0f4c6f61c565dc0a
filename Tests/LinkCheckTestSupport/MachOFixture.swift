import Foundation

/// The Mach-O fixtures the tests share, each built from source once per test
/// process (``path()``) into a temporary folder removed when the process
/// exits. The recipe of each is its case in ``build(in:)``; the sources are
/// in `Tests/Fixtures/MachO` and `Samples/PhotosApp`. Every image is for iOS
/// 15 (armv7: iOS 10), `LC_BUILD_VERSION` platform ios or iossimulator,
/// SDK 17.0, but ``macApp``'s (macOS 13, SDK 14.0).
/// `MachOFixtureTests` checks each against LLVM's tools.
public enum MachOFixture: String, CaseIterable, Sendable {
    /// `Uploader` (the sample's sources): thin arm64 `MH_DYLIB`, bind
    /// opcodes, not flagged. Install name `@rpath/Uploader.framework/Uploader`;
    /// class reference `_OBJC_CLASS_$_UIApplication` (from UIKit), selector
    /// references `sharedApplication` (a class method) and `openURL:` (an
    /// instance method), from the C function `present_login`.
    case uploader
    /// The same sources with chained fixups (`DYLD_CHAINED_PTR_64`).
    case uploaderChained
    /// `ImageKit`: fat `MH_DYLIB`, x86_64 (simulator) and arm64, bind
    /// opcodes, both slices flagged `MH_APP_EXTENSION_SAFE`; subclasses
    /// UIKit's `UIView`.
    case imageKitFat
    /// `Sneaky`: fat `MH_DYLIB`, x86_64 (simulator) and arm64, chained
    /// fixups, flagged, reaching `sharedApplication` and `openURL:` only by
    /// name (`NSClassFromString`, `NSSelectorFromString`): no UIKit, no
    /// class or selector reference for them, the names only in `__cstring`.
    case sneakyFatChained
    /// `Legacy` for the arm64 simulator (`LC_BUILD_VERSION` platform
    /// iossimulator): thin `MH_DYLIB`, bind opcodes, not flagged.
    case legacySimulator
    /// `Codec`: a 32-bit-only framework, armv7 (`MH_MAGIC`), flagged,
    /// linking only libSystem and importing only `dyld_stub_binder`.
    case codec32
    /// `Stubs`: arm64 `MH_DYLIB`, chained fixups, whose calls go through
    /// linker-made `objc_msgSend$sharedApplication` and
    /// `objc_msgSend$openURL:` stubs in `__TEXT,__objc_stubs`.
    case selectorStubs
    /// `CallSites`: fat `MH_DYLIB`, arm64 and x86_64 (simulator), bind
    /// opcodes, from `callsites.m` and `callsites-<arch>.s`: calls to
    /// imports through stubs and GOT slots, `dlopen` of a literal, class,
    /// instance and `super` messages, a class through `objc_opt_self`,
    /// another class's `sharedApplication`, `objc_msgSend_stret` (x86_64),
    /// and the path `-[CSUploader retry:]` → `cs_present_login` →
    /// `cs_application` → `+[UIApplication sharedApplication]`.
    case callSites
    /// The same with chained fixups (`DYLD_CHAINED_PTR_64`).
    case callSitesChained
    /// `FilterPlugin.bundle/FilterPlugin`: arm64 `MH_BUNDLE`, bind opcodes.
    case plugInBundle
    /// `Tracker.framework/Tracker`: a static framework, a fat file of two
    /// static archives (x86_64 simulator and arm64), each with the
    /// `MH_OBJECT` members `static-tracker.o` (imports
    /// `_OBJC_CLASS_$_UIApplication`) and `static-counter.o`.
    case staticFramework
    /// `Share`: the share extension's executable alone, linked with chained
    /// fixups and `-application_extension` against `Uploader.tbd`, a text
    /// stub of Uploader (flagged `not_app_extension_safe`): the chained
    /// linker can link a project's own frameworks only through such stubs.
    /// Entry `_NSExtensionMain`, rpath `@executable_path/../../Frameworks`.
    case shareExtensionChained
    /// `Mini.app`: an app (`Mini`, `MH_EXECUTE`) with the embedded
    /// framework `Uploader.framework` and the share extension
    /// `PlugIns/Share.appex` (`Share`: `MH_EXECUTE` linked with
    /// `-application_extension`, entry `_NSExtensionMain`, rpaths
    /// `@executable_path/Frameworks` and `@executable_path/../../Frameworks`,
    /// binary `Info.plist` with `NSExtensionPointIdentifier`
    /// `com.apple.share-services`), both linking Uploader. The path is the
    /// `.app` folder.
    case appWithShareExtension
    /// `Shop.app`: an app with two extensions and two frameworks, its
    /// `Info.plist` files XML except the share extension's (binary):
    ///
    /// - `Shop` (`MH_EXECUTE`, rpath `@executable_path/Frameworks`) links
    ///   Uploader and Camera;
    /// - `Frameworks/Uploader.framework/Uploader`: the sample's Uploader;
    /// - `Frameworks/Camera.framework/Camera`: the sample's Plugin sources
    ///   (`AVCaptureSession`, `AVCaptureDevice`: camera capture);
    /// - `PlugIns/Share.appex/Share`: a share extension
    ///   (`com.apple.share-services`) linking Uploader;
    /// - `PlugIns/Stickers.appex/Stickers`: an iMessage extension
    ///   (`com.apple.message-payload-provider`, rpath
    ///   `@executable_path/../../Frameworks`) linking Camera.
    ///
    /// Every binary is thin arm64, bind opcodes. The path is the `.app`.
    case shopApp
    /// `Kit.xcframework`: the sample's ImageKit as `Kit.framework` for two
    /// libraries, `ios-arm64` (arm64) and `ios-arm64_x86_64-simulator` (a
    /// fat file of x86_64 and arm64 for the simulator), with the
    /// xcframework's `Info.plist` (`AvailableLibraries`) and each
    /// framework's. The path is the `.xcframework`.
    case kitXCFramework
    /// `Old`: a 32-bit-only (armv7) `MH_EXECUTE`, entry `_codec_version`,
    /// for an extension that has no 64-bit slice.
    case thirtyTwoBitExecutable
    /// `Loads.app`: `Frameworks/Loader.framework` (`framework-loader.c`,
    /// flagged) dlopens `@rpath/Uploader.framework/Uploader` (the sample's
    /// Uploader, which sends +[UIApplication sharedApplication]); the share
    /// extension `PlugIns/Ext.appex/Ext` (`loading-extension.c`, rpath
    /// `@executable_path/../../Frameworks`) links Loader, and the app
    /// `Loads` links Uploader. The path is the `.app`.
    case loadingApp
    /// The same frameworks in an app (`Loads.app`) that links neither and
    /// has no extension: both are linked by no one.
    case loadingFrameworksAlone
    /// `Mail.app`: a macOS app in the `Contents/` layout, thin arm64 for
    /// macOS 13 (SDK 14.0), bind opcodes, XML `Info.plist` files:
    ///
    /// - `Contents/MacOS/Mail` (`MH_EXECUTE`, rpath
    ///   `@executable_path/../Frameworks`) links Kit;
    /// - `Contents/Frameworks/Kit.framework`, versioned: the binary
    ///   `Versions/A/Kit` (install name
    ///   `@rpath/Kit.framework/Versions/A/Kit`, from `mac-kit.c`, the string
    ///   `sharedApplication` in `__cstring`), `Versions/A/Resources/Info.plist`,
    ///   and the links `Versions/Current` → `A`, `Kit` →
    ///   `Versions/Current/Kit`, `Resources` → `Versions/Current/Resources`;
    /// - `Contents/PlugIns/Share.appex`: a share extension
    ///   (`com.apple.share-services`), `Contents/MacOS/Share` linked with
    ///   `-application_extension` and rpath
    ///   `@executable_path/../../../../Frameworks`, linking Kit.
    ///
    /// The path is the `.app`.
    case macApp
    /// `Swifty`: thin arm64 `MH_DYLIB`, bind opcodes, flagged, from
    /// `swift-runtime-user.c`, linking the Swift runtime as a Swift
    /// framework does: `@rpath/libswiftCore.dylib` and
    /// `@rpath/libswiftFoundation.dylib` (the `.tbd` stubs), with Xcode's
    /// rpaths `/usr/lib/swift`, `@executable_path/Frameworks`,
    /// `@loader_path/Frameworks`.
    case swiftRuntimeUser
    /// `Callers`: fat `MH_DYLIB`, arm64 and x86_64 (simulator), bind
    /// opcodes, from `callers.m` built with `-fobjc-arc`: a category method
    /// `+[UIApplication(CLCurrent) cl_current]` and the static function
    /// `cl_unnamed` (after the exported `cl_entry`) send
    /// `+[UIApplication sharedApplication]`, and `-[CLActivity
    /// applicationOf:]` passes `@selector(sharedApplication)` to
    /// `performSelector:`.
    case callers
    /// The same, its local symbols stripped (`strip -x`): the methods and
    /// `cl_unnamed` have only their `LC_FUNCTION_STARTS` entries and the
    /// method lists.
    case callersStripped
    /// `callers.m` for arm64 with chained fixups: relative method lists.
    case callersChained
    /// `ByName`: fat `MH_DYLIB`, arm64 and x86_64 (simulator), bind
    /// opcodes, from `by-name-guarded.m` built with `-fobjc-arc`:
    /// `UIApplication` looked up with `NSClassFromString`, its
    /// `sharedApplication` read by key, `openURL:` made with
    /// `NSSelectorFromString`, each behind `respondsToSelector:`, one
    /// method returning first in an extension (`.appex`).
    case byNameGuarded
    /// `SwiftKit`: fat `MH_DYLIB`, arm64 and x86_64 (simulator), bind
    /// opcodes, linking the Swift runtime as ``swiftRuntimeUser`` does: a
    /// stand-in for a Swift framework (`swift-compatibility-shim.c`,
    /// `swift-probe.m`) whose `SwiftKit.probe()` passes the literals
    /// `"UIApplication"` (to `NSClassFromString`) and `"sharedApplication"`
    /// (to `value(forKey:)`), and whose runtime compatibility override
    /// `swift51override_conformsToProtocol` calls `objc_getClass` with a name
    /// it is given.
    case swiftProbe
    /// `SwiftKit` again, thin arm64: the same override, and
    /// `SwiftKit.firstClass()` (`swift-names.m`), which passes the names of
    /// a global array, `"UIApplication"` and `"sharedApplication"`, to
    /// `NSClassFromString`: no code loads either as a literal.
    case swiftNames

    /// The fixture's path, built on first use in this process.
    ///
    /// - Throws: ``CommandFailure`` when a tool fails (the same error on
    ///   every later call).
    public func path() throws -> URL {
        try MachOFixtureCache.shared.path(for: rawValue) { try build(in: $0) }
    }

    /// The thin file of one architecture (`arm64`, `x86_64`) that a fat
    /// fixture of ``callers``, ``callersStripped``, ``byNameGuarded`` or
    /// ``swiftProbe`` is made of, beside it as `<name>-<arch>`.
    ///
    /// - Throws: as ``path()``.
    public func thinSlice(_ arch: String) throws -> URL {
        let path = try path()
        return path.deletingLastPathComponent().appendingPathComponent("\(path.lastPathComponent)-\(arch)")
    }

    private static let uploaderSources = MachOFixtures.photosAppSources("Frameworks/Uploader/UPUploader.m", "Frameworks/Uploader/UPLogin.m")
    private static let uploaderFrameworks = ["UIKit", "Foundation", "CoreFoundation"]

    /// Builds the fixture into the new folder `directory`.
    private func build(in directory: URL) throws -> URL {
        typealias Image = MachOFixtures.Image
        switch self {
        case .uploader, .uploaderChained:
            return try MachOFixtures.link(
                Image(
                    sources: Self.uploaderSources, product: .dylib(installName: "@rpath/Uploader.framework/Uploader"),
                    linker: self == .uploader ? .opcodes : .chainedFixups, frameworks: Self.uploaderFrameworks),
                to: directory.appendingPathComponent("Uploader"))

        case .imageKitFat, .sneakyFatChained:
            let (name, sources, linker, frameworks): (String, [URL], MachOFixtures.Linker, [String]) =
                self == .imageKitFat
                ? ("ImageKit", MachOFixtures.photosAppSources("Frameworks/ImageKit/ImageKit.m"), .opcodes, Self.uploaderFrameworks)
                : (
                    "Sneaky", MachOFixtures.photosAppSources("Frameworks/Sneaky/SNKLinkOpener.m"), .chainedFixups,
                    ["Foundation", "CoreFoundation"]
                )
            let slices = try [MachOFixtures.Target.arm64, .x86_64Simulator].map { target in
                try MachOFixtures.link(
                    Image(
                        sources: sources, product: .dylib(installName: "@rpath/\(name).framework/\(name)"), target: target,
                        linker: linker, applicationExtensionSafe: true, frameworks: frameworks),
                    to: directory.appendingPathComponent("\(name)-\(target.arch)"))
            }
            return try MachOFixtures.fat(slices, to: directory.appendingPathComponent(name))

        case .legacySimulator:
            return try MachOFixtures.link(
                Image(
                    sources: MachOFixtures.photosAppSources("Frameworks/Legacy/LGSettingsMigrator.m"),
                    product: .dylib(installName: "@rpath/Legacy.framework/Legacy"), target: .arm64Simulator),
                to: directory.appendingPathComponent("Legacy"))

        case .codec32:
            return try MachOFixtures.link(
                Image(
                    sources: MachOFixtures.sources("codec32.c"), product: .dylib(installName: "@rpath/Codec.framework/Codec"),
                    target: .armv7, applicationExtensionSafe: true, frameworks: [], libraries: ["System"]),
                to: directory.appendingPathComponent("Codec"))

        case .selectorStubs:
            return try MachOFixtures.link(
                Image(
                    sources: MachOFixtures.sources("selector-stubs.s"), product: .dylib(installName: "@rpath/Stubs.framework/Stubs"),
                    linker: .chainedFixups, frameworks: ["UIKit"]),
                to: directory.appendingPathComponent("Stubs"))

        case .callSites, .callSitesChained:
            let slices = try [MachOFixtures.Target.arm64, .x86_64Simulator].map { target in
                try MachOFixtures.link(
                    Image(
                        sources: MachOFixtures.sources("callsites.m", "callsites-\(target.arch).s"),
                        product: .dylib(installName: "@rpath/CallSites.framework/CallSites"), target: target,
                        linker: self == .callSites ? .opcodes : .chainedFixups, frameworks: Self.uploaderFrameworks),
                    to: directory.appendingPathComponent("CallSites-\(target.arch)"))
            }
            return try MachOFixtures.fat(slices, to: directory.appendingPathComponent("CallSites"))

        case .plugInBundle:
            return try MachOFixtures.link(
                Image(sources: MachOFixtures.sources("plugin-bundle.m"), product: .bundle),
                to: directory.appendingPathComponent("FilterPlugin.bundle/FilterPlugin"))

        case .staticFramework:
            let archives = try [MachOFixtures.Target.arm64, .x86_64Simulator].map { target in
                let objects = try ["static-tracker.m", "static-counter.c"].map { source in
                    try MachOFixtures.compileObject(
                        MachOFixtures.sourceDirectory.appendingPathComponent(source), for: target,
                        to: directory.appendingPathComponent("\(target.arch)/\(source.prefix { $0 != "." }).o"))
                }
                return try MachOFixtures.staticArchive(objects, to: directory.appendingPathComponent("\(target.arch)/libTracker.a"))
            }
            return try MachOFixtures.fat(archives, to: directory.appendingPathComponent("Tracker.framework/Tracker"))

        case .shareExtensionChained:
            return try MachOFixtures.link(
                Image(
                    sources: MachOFixtures.sources("share-extension.m"), product: .executable, linker: .chainedFixups,
                    applicationExtensionSafe: true, rpaths: ["@executable_path/../../Frameworks"], frameworks: Self.uploaderFrameworks,
                    inputs: MachOFixtures.sources("Uploader.tbd"), linkerFlags: ["-e", "_NSExtensionMain"]),
                to: directory.appendingPathComponent("Share"))

        case .appWithShareExtension:
            let app = try MachOFixtures.AppBundle(named: "Mini", in: directory)
            try MachOFixtures.link(
                Image(
                    sources: Self.uploaderSources, product: .dylib(installName: "@rpath/Uploader.framework/Uploader"),
                    frameworks: Self.uploaderFrameworks),
                to: app.addFramework(named: "Uploader"))
            try MachOFixtures.link(
                Image(
                    sources: MachOFixtures.sources("app-main.m"), product: .executable, rpaths: ["@executable_path/Frameworks"],
                    frameworks: Self.uploaderFrameworks + ["Uploader"], frameworkSearchPaths: [app.frameworksDirectory]),
                to: app.executable)
            try MachOFixtures.link(
                Image(
                    sources: MachOFixtures.sources("share-extension.m"), product: .executable, applicationExtensionSafe: true,
                    rpaths: ["@executable_path/Frameworks", "@executable_path/../../Frameworks"],
                    frameworks: Self.uploaderFrameworks + ["Uploader"], frameworkSearchPaths: [app.frameworksDirectory],
                    linkerFlags: ["-e", "_NSExtensionMain"]),
                to: app.addExtension(named: "Share", principalClass: "SXShareViewController", binaryPlist: true))
            return app.url

        case .shopApp:
            let app = try MachOFixtures.AppBundle(named: "Shop", in: directory)
            try MachOFixtures.link(
                Image(
                    sources: Self.uploaderSources, product: .dylib(installName: "@rpath/Uploader.framework/Uploader"),
                    frameworks: Self.uploaderFrameworks),
                to: app.addFramework(named: "Uploader"))
            try MachOFixtures.link(
                Image(
                    sources: MachOFixtures.photosAppSources("Frameworks/Plugin/Plugin.m"),
                    product: .dylib(installName: "@rpath/Camera.framework/Camera"),
                    frameworks: ["AVFoundation", "Foundation", "CoreFoundation"]),
                to: app.addFramework(named: "Camera"))
            try MachOFixtures.link(
                Image(
                    sources: MachOFixtures.sources("app-main.m"), product: .executable, rpaths: ["@executable_path/Frameworks"],
                    frameworks: Self.uploaderFrameworks + ["Uploader", "Camera"], frameworkSearchPaths: [app.frameworksDirectory]),
                to: app.executable)
            try MachOFixtures.link(
                Image(
                    sources: MachOFixtures.sources("share-extension.m"), product: .executable, applicationExtensionSafe: true,
                    rpaths: ["@executable_path/../../Frameworks"],
                    frameworks: Self.uploaderFrameworks + ["Uploader"], frameworkSearchPaths: [app.frameworksDirectory],
                    linkerFlags: ["-e", "_NSExtensionMain"]),
                to: app.addExtension(named: "Share", principalClass: "SXShareViewController", binaryPlist: true))
            try MachOFixtures.link(
                Image(
                    sources: MachOFixtures.sources("message-extension.m"), product: .executable, applicationExtensionSafe: true,
                    rpaths: ["@executable_path/../../Frameworks"],
                    frameworks: Self.uploaderFrameworks + ["Camera"], frameworkSearchPaths: [app.frameworksDirectory],
                    linkerFlags: ["-e", "_NSExtensionMain"]),
                to: app.addExtension(
                    named: "Stickers", extensionPoint: "com.apple.message-payload-provider", principalClass: "MXMessagesViewController"))
            return app.url

        case .kitXCFramework:
            let xcframework = directory.appendingPathComponent("Kit.xcframework")
            let sources = MachOFixtures.photosAppSources("Frameworks/ImageKit/ImageKit.m")
            @discardableResult func kit(_ target: MachOFixtures.Target, to output: URL) throws -> URL {
                try MachOFixtures.link(
                    Image(
                        sources: sources, product: .dylib(installName: "@rpath/Kit.framework/Kit"), target: target,
                        applicationExtensionSafe: true, frameworks: Self.uploaderFrameworks),
                    to: output)
            }
            let device = xcframework.appendingPathComponent("ios-arm64/Kit.framework")
            let simulator = xcframework.appendingPathComponent("ios-arm64_x86_64-simulator/Kit.framework")
            try kit(.arm64, to: device.appendingPathComponent("Kit"))
            try MachOFixtures.fat(
                [
                    try kit(.x86_64Simulator, to: directory.appendingPathComponent("Kit-x86_64-simulator")),
                    try kit(.arm64Simulator, to: directory.appendingPathComponent("Kit-arm64-simulator")),
                ], to: simulator.appendingPathComponent("Kit"))
            for framework in [device, simulator] {
                try MachOFixtures.writeInfoPlist(
                    [
                        "CFBundleExecutable": "Kit", "CFBundleIdentifier": "com.example.Kit", "CFBundlePackageType": "FMWK",
                        "MinimumOSVersion": "15.0",
                    ], in: framework, format: .binary)
            }
            try MachOFixtures.writeInfoPlist(
                [
                    "CFBundlePackageType": "XFWK", "XCFrameworkFormatVersion": "1.0",
                    "AvailableLibraries": [
                        [
                            "LibraryIdentifier": "ios-arm64", "LibraryPath": "Kit.framework", "SupportedArchitectures": ["arm64"],
                            "SupportedPlatform": "ios",
                        ],
                        [
                            "LibraryIdentifier": "ios-arm64_x86_64-simulator", "LibraryPath": "Kit.framework",
                            "SupportedArchitectures": ["arm64", "x86_64"], "SupportedPlatform": "ios",
                            "SupportedPlatformVariant": "simulator",
                        ],
                    ],
                ], in: xcframework, format: .xml)
            return xcframework

        case .loadingApp, .loadingFrameworksAlone:
            let withExtension = self == .loadingApp
            let app = try MachOFixtures.AppBundle(named: "Loads", in: directory)
            try MachOFixtures.link(
                Image(
                    sources: Self.uploaderSources, product: .dylib(installName: "@rpath/Uploader.framework/Uploader"),
                    frameworks: Self.uploaderFrameworks),
                to: app.addFramework(named: "Uploader"))
            try MachOFixtures.link(
                Image(
                    sources: MachOFixtures.sources("framework-loader.c"), product: .dylib(installName: "@rpath/Loader.framework/Loader"),
                    applicationExtensionSafe: true, frameworks: [], libraries: ["System"]),
                to: app.addFramework(named: "Loader"))
            try MachOFixtures.link(
                Image(
                    sources: MachOFixtures.sources("app-main.m"), product: .executable, rpaths: ["@executable_path/Frameworks"],
                    frameworks: Self.uploaderFrameworks + (withExtension ? ["Uploader"] : []),
                    frameworkSearchPaths: [app.frameworksDirectory]),
                to: app.executable)
            if withExtension {
                try MachOFixtures.link(
                    Image(
                        sources: MachOFixtures.sources("loading-extension.c"), product: .executable, applicationExtensionSafe: true,
                        rpaths: ["@executable_path/../../Frameworks"], frameworks: ["Loader"], libraries: ["System"],
                        frameworkSearchPaths: [app.frameworksDirectory], linkerFlags: ["-e", "_NSExtensionMain"]),
                    to: app.addExtension(named: "Ext", principalClass: "ExtViewController"))
            }
            return app.url

        case .macApp:
            let mac = MachOFixtures.Target(arch: "arm64", triple: "arm64-apple-macos13.0", platform: "macos", minimumOS: "13.0")
            let contents = directory.appendingPathComponent("Mail.app/Contents")
            try MachOFixtures.writeInfoPlist(
                [
                    "CFBundleExecutable": "Mail", "CFBundleIdentifier": "com.example.Mail", "CFBundlePackageType": "APPL",
                    "LSMinimumSystemVersion": "13.0",
                ].merging(MachOFixtures.versionKeys) { own, _ in own }, in: contents, format: .xml)
            let kit = contents.appendingPathComponent("Frameworks/Kit.framework")
            try MachOFixtures.writeInfoPlist(
                [
                    "CFBundleExecutable": "Kit", "CFBundleIdentifier": "com.example.Kit", "CFBundlePackageType": "FMWK",
                ].merging(MachOFixtures.versionKeys) { own, _ in own }, in: kit.appendingPathComponent("Versions/A/Resources"), format: .xml
            )
            try MachOFixtures.link(
                Image(
                    sources: MachOFixtures.sources("mac-kit.c"), product: .dylib(installName: "@rpath/Kit.framework/Versions/A/Kit"),
                    target: mac, frameworks: [], libraries: ["System"], sdk: "14.0"),
                to: kit.appendingPathComponent("Versions/A/Kit"))
            let files = FileManager.default
            try files.createSymbolicLink(atPath: kit.appendingPathComponent("Versions/Current").path, withDestinationPath: "A")
            try files.createSymbolicLink(atPath: kit.appendingPathComponent("Kit").path, withDestinationPath: "Versions/Current/Kit")
            try files.createSymbolicLink(
                atPath: kit.appendingPathComponent("Resources").path, withDestinationPath: "Versions/Current/Resources")
            try MachOFixtures.link(
                Image(
                    sources: MachOFixtures.sources("mac-main.c"), product: .executable, target: mac,
                    rpaths: ["@executable_path/../Frameworks"], frameworks: [], libraries: ["System"],
                    inputs: [kit.appendingPathComponent("Versions/A/Kit")], sdk: "14.0"),
                to: contents.appendingPathComponent("MacOS/Mail"))
            let share = contents.appendingPathComponent("PlugIns/Share.appex/Contents")
            try MachOFixtures.writeInfoPlist(
                [
                    "CFBundleExecutable": "Share", "CFBundleIdentifier": "com.example.Mail.Share", "CFBundlePackageType": "XPC!",
                    "NSExtension": [
                        "NSExtensionPointIdentifier": "com.apple.share-services", "NSExtensionPrincipalClass": "ShareViewController",
                    ],
                ].merging(MachOFixtures.versionKeys) { own, _ in own }, in: share, format: .xml)
            try MachOFixtures.link(
                Image(
                    sources: MachOFixtures.sources("mac-main.c"), product: .executable, target: mac, applicationExtensionSafe: true,
                    rpaths: ["@executable_path/../../../../Frameworks"], frameworks: [], libraries: ["System"],
                    inputs: [kit.appendingPathComponent("Versions/A/Kit")], sdk: "14.0"),
                to: share.appendingPathComponent("MacOS/Share"))
            return directory.appendingPathComponent("Mail.app")

        case .swiftRuntimeUser:
            return try MachOFixtures.link(
                Image(
                    sources: MachOFixtures.sources("swift-runtime-user.c"), product: .dylib(installName: "@rpath/Swifty.framework/Swifty"),
                    applicationExtensionSafe: true, rpaths: ["/usr/lib/swift", "@executable_path/Frameworks", "@loader_path/Frameworks"],
                    frameworks: [], libraries: ["System"], inputs: MachOFixtures.sources("libswiftCore.tbd", "libswiftFoundation.tbd")),
                to: directory.appendingPathComponent("Swifty"))

        case .callers, .callersStripped, .callersChained, .byNameGuarded, .swiftProbe, .swiftNames:
            let (name, sources): (String, [String]) =
                switch self {
                case .callers, .callersStripped, .callersChained: ("Callers", ["callers.m"])
                case .byNameGuarded: ("ByName", ["by-name-guarded.m"])
                case .swiftProbe: ("SwiftKit", ["swift-compatibility-shim.c", "swift-probe.m"])
                default: ("SwiftKit", ["swift-compatibility-shim.c", "swift-names.m"])
                }
            let swift = name == "SwiftKit"
            let targets: [MachOFixtures.Target] = self == .callersChained || self == .swiftNames ? [.arm64] : [.arm64, .x86_64Simulator]
            let slices = try targets.map { target in
                let slice = try MachOFixtures.link(
                    Image(
                        sources: sources.map { MachOFixtures.sourceDirectory.appendingPathComponent($0) },
                        product: .dylib(installName: "@rpath/\(name).framework/\(name)"), target: target,
                        linker: self == .callersChained ? .chainedFixups : .opcodes,
                        rpaths: swift ? ["/usr/lib/swift", "@executable_path/Frameworks", "@loader_path/Frameworks"] : [],
                        frameworks: name == "Callers" ? Self.uploaderFrameworks : ["Foundation", "CoreFoundation"],
                        inputs: swift ? MachOFixtures.sources("libswiftCore.tbd", "libswiftFoundation.tbd") : [],
                        compilerFlags: ["-fobjc-arc"]),
                    to: directory.appendingPathComponent("\(name)-\(target.arch)"))
                return self == .callersStripped ? try MachOFixtures.stripLocalSymbols(slice) : slice
            }
            let output = directory.appendingPathComponent(name)
            if slices.count == 1 {
                try FileManager.default.moveItem(at: slices[0], to: output)
            } else {
                try MachOFixtures.fat(slices, to: output)
            }
            return output

        case .thirtyTwoBitExecutable:
            return try MachOFixtures.link(
                Image(
                    sources: MachOFixtures.sources("codec32.c"), product: .executable, target: .armv7, frameworks: [],
                    libraries: ["System"], linkerFlags: ["-e", "_codec_version"]),
                to: directory.appendingPathComponent("Old"))
        }
    }
}

/// Builds each fixture once per process, into one temporary folder that is
/// removed when the process exits. Builds run one at a time.
final class MachOFixtureCache: @unchecked Sendable {
    static let shared = MachOFixtureCache()

    private let directory: URL
    private let lock = NSLock()
    private var built: [String: Result<URL, any Error>] = [:]

    private init() {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("linkcheck-macho-fixtures-\(UUID().uuidString)")
        atexit {
            try? FileManager.default.removeItem(at: MachOFixtureCache.shared.directory)
        }
    }

    /// The result of `build(directory/key)` (a new folder), from the first
    /// call with `key`.
    func path(for key: String, build: (URL) throws -> URL) throws -> URL {
        try lock.withLock {
            if let result = built[key] { return try result.get() }
            let folder = directory.appendingPathComponent(key)
            let result = Result { () throws -> URL in
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                return try build(folder)
            }
            built[key] = result
            return try result.get()
        }
    }
}
