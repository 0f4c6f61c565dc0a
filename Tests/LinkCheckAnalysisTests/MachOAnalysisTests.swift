import Foundation
import LinkCheckAnalysis
import LinkCheckCodeIndex
import LinkCheckImage
import LinkCheckInspection
import LinkCheckReports
import LinkCheckRules
import LinkCheckTestSupport
import Testing

/// The checks on Mach-O: Objective-C rules, the linker's
/// `MH_APP_EXTENSION_SAFE` beside the code's evidence, dyld's search, and
/// architecture by slice, on the PhotosApp sample built from source.
@Suite struct MachOAnalysisTests {
    static let roles = Policy(extensions: ["PhotosShare": .share], apps: ["Photos"])

    /// The PhotosApp bundle, checked with the default rules and its roles.
    static func photosReport(_ bundle: URL? = nil, policy: Policy = roles, callSites: CallSiteMode? = .targeted) throws -> (Report, String)
    {
        let app = try bundle ?? MachOFixtures.photosApp()
        return (try ShippedRules.check(app, policy: policy, callSites: callSites), app.path)
    }

    static func image(_ report: Report, _ relative: String, in app: String) -> ImageReport? {
        report.images.first { $0.name == "\(app)/\(relative)" }
    }

    @Test func theShareExtensionReachesSharedApplicationThroughTwoFrameworks() throws {
        let (report, app) = try Self.photosReport()
        // (The extension reaches it by name through Sneaky too: below.)
        let share = report.findings.filter {
            $0.image == "\(app)/PlugIns/PhotosShare.appex/PhotosShare" && $0.rule == "AEX001" && $0.chain.contains("SyncKit.framework")
        }
        #expect(share.map(\.chain) == [["PhotosShare", "SyncKit.framework", "Uploader.framework", "+[UIApplication sharedApplication]"]])
        #expect(share.map(\.severity) == [.error])
        let uploader = report.findings.filter { $0.image == "\(app)/Frameworks/Uploader.framework/Uploader" && $0.rule == "AEX001" }
        #expect(uploader.map(\.kind) == [.objcReference])
        #expect(uploader.first?.typedDetail == .references(ObjCName("+[UIApplication sharedApplication]")!, subclasses: []))
        // The message send is the call site: -[UPUploader retry:] calls the
        // C function present_login, which sends sharedApplication.
        #expect(uploader.first?.callSites.map(\.label) == ["present_login"])
        #expect(uploader.first?.path == ["-[UPUploader retry:]", "present_login", "+[UIApplication sharedApplication]"])
        #expect(share.first?.path == ["-[UPUploader retry:]", "present_login", "+[UIApplication sharedApplication]"])
        // A selector the code sends is a selector reference, not a string
        // (lld merges __objc_methname into __cstring).
        #expect(!report.findings.contains { $0.image.hasSuffix("/Uploader") && $0.rule.rawValue.hasPrefix("SEL") })
        let verdicts = Dictionary(
            uniqueKeysWithValues: report.images.map { ($0.name.replacingOccurrences(of: app + "/", with: ""), $0.verdict) })
        #expect(verdicts["PlugIns/PhotosShare.appex/PhotosShare"] == .unsafe)
        #expect(verdicts["Frameworks/SyncKit.framework/SyncKit"] == .unsafe)
        #expect(verdicts["Frameworks/Uploader.framework/Uploader"] == .unsafe)
        #expect(verdicts["Frameworks/Legacy.framework/Legacy"] == .extensionSafe)
        #expect(verdicts["Frameworks/ImageKit.framework/ImageKit[arm64]"] == .extensionSafe)
        #expect(verdicts["Photos"] == .appOnly)
        #expect(report.exitStatus == 1)
    }

    /// The app reads `-[UIDevice systemVersion]` in
    /// `-[PHAppDelegate application:didFinishLaunchingWithOptions:]` and
    /// passes it to `load_capture_plugin`, which calls `dlopen`: the check
    /// is on the call path, so the load is guarded (DLOP010), not DLOP011.
    @Test func aVersionCheckInTheCallerGuardsTheLoad() throws {
        let (report, app) = try Self.photosReport()
        let loads = report.findings.filter { $0.image == "\(app)/Photos" && $0.rule.rawValue.hasPrefix("DLOP01") }
        #expect(loads.map { "\($0.severity.rawValue) \($0.rule) \($0.symbol ?? "")" } == ["note DLOP010 dlopen"])
        #expect(
            loads.first?.typedDetail
                == .loaderCall(
                    caller: .function("load_capture_plugin"), loader: "dlopen",
                    versionChecks: [.init(query: "systemVersion", caller: "-[PHAppDelegate application:didFinishLaunchingWithOptions:]")]))
    }

    @Test func theLinkersFlagBesideTheCodesEvidenceInFourCases() throws {
        let (report, app) = try Self.photosReport()
        let cases = Dictionary(
            uniqueKeysWithValues: report.images.compactMap { image in
                image.extensionSafeFlag.map { (image.name.replacingOccurrences(of: app + "/Frameworks/", with: ""), $0) }
            })
        #expect(cases["ImageKit.framework/ImageKit[arm64]"] == .flaggedAndClean)
        #expect(cases["SyncKit.framework/SyncKit"] == .flaggedButUnsafe)
        #expect(cases["Legacy.framework/Legacy"] == .unflaggedButClean)
        #expect(cases["Uploader.framework/Uploader"] == .unflaggedAndUnsafe)
        let flags = report.findings.filter { $0.kind == .extensionSafeFlag }.map {
            "\($0.rule) \($0.image.replacingOccurrences(of: app + "/Frameworks/", with: ""))"
        }
        #expect(flags.contains("FLAG001 Legacy.framework/Legacy"))
        #expect(flags.contains("FLAG001 Uploader.framework/Uploader"))
        #expect(flags.contains("FLAG002 SyncKit.framework/SyncKit"))
        #expect(!flags.contains { $0.contains("ImageKit") })
        let legacy = try #require(report.findings.first { $0.rule == "FLAG001" && $0.image.hasSuffix("/Legacy") })
        #expect(legacy.severity == .warning)
        #expect(
            legacy.typedDetail
                == .notFlagged(image: "Legacy.framework", linkedBy: ["PhotosShare", "Legacy.framework"], usesUnavailableAPI: false))
    }

    /// Sneaky names UIApplication, sharedApplication and openURL: only in
    /// CFString literals passed to NSClassFromString and
    /// NSSelectorFromString: the calls' arguments make the use, from the
    /// method that makes them, and the extension that links Sneaky: a use by
    /// name, which the compiler and the App Store accept, so a warning, and
    /// Sneaky needs review (the extension is unsafe through Uploader).
    @Test func aFrameworkThatReachesSharedApplicationOnlyByNameNeedsReview() throws {
        let (report, app) = try Self.photosReport()
        let sneaky = report.findings.filter { $0.image == "\(app)/Frameworks/Sneaky.framework/Sneaky" }
        // The methods reached by name name the selectors its strings hold
        // (SEL001, SEL002): one use, one finding.
        #expect(sneaky.map(\.rule).sorted() == ["AEX001", "AEX002", "FLAG002", "LOAD008", "LOAD012"])
        let shared = try #require(sneaky.first { $0.rule == "AEX001" })
        #expect(shared.kind == .objcByName)
        #expect(shared.severity == .warning)
        #expect(shared.byName != nil)
        #expect(
            shared.typedDetail
                == .looksUpByName(
                    className: "UIApplication", selector: "sharedApplication", lookUps: ["NSClassFromString"],
                    selectorMakers: ["NSSelectorFromString"]))
        #expect(shared.callSites.map(\.label) == ["-[SNKLinkOpener openLink:]", "-[SNKLinkOpener openLink:]"])
        #expect(shared.path == ["-[SNKLinkOpener openLink:]", "+[UIApplication sharedApplication]"])
        // The iOS 17.0 SDK the images record no longer marks -openURL:.
        let open = try #require(sneaky.first { $0.rule == "AEX002" })
        #expect(open.kind == .objcByName)
        #expect(open.severity == .warning)
        #expect(
            open.typedDetail
                == .looksUpByName(
                    className: "UIApplication", selector: "openURL:", lookUps: ["NSClassFromString"],
                    selectorMakers: ["NSSelectorFromString"]))
        let share = report.findings.filter {
            $0.image == "\(app)/PlugIns/PhotosShare.appex/PhotosShare" && $0.rule == "AEX001" && $0.chain.contains("Sneaky.framework")
        }
        #expect(share.map(\.chain) == [["PhotosShare", "Sneaky.framework", "+[UIApplication sharedApplication]"]])
        #expect(share.map(\.severity) == [.warning])
        #expect(Self.image(report, "Frameworks/Sneaky.framework/Sneaky", in: app)?.verdict == .needsReview)
        #expect(Self.image(report, "Frameworks/Sneaky.framework/Sneaky", in: app)?.extensionSafeFlag == .flaggedButUnsafe)
    }

    /// Without call sites the look-up's argument is not known: the strings
    /// and the import of NSClassFromString make a warning, on Sneaky and on
    /// the extension that links it.
    @Test func withoutCallSitesSneakysUseByNameIsAWarning() throws {
        let (report, app) = try Self.photosReport(callSites: nil)
        let shared = try #require(report.findings.first { $0.image == "\(app)/Frameworks/Sneaky.framework/Sneaky" && $0.rule == "AEX001" })
        #expect(shared.severity == .warning)
        #expect(
            shared.typedDetail
                == .mayLookUpByName(
                    className: "UIApplication", selector: "sharedApplication", selectorHeldAsString: true, lookUps: ["NSClassFromString"],
                    unknownBecause: .callsUnseen(.turnedOff), namesUnused: false))
        let share = report.findings.filter {
            $0.image == "\(app)/PlugIns/PhotosShare.appex/PhotosShare" && $0.rule == "AEX001" && $0.chain.contains("Sneaky.framework")
        }
        #expect(share.map(\.severity) == [.warning])
        #expect(share.first?.remarks.suffix(2) == [.byNameToldFromStrings(of: "Sneaky.framework"), .byNameOnly])
    }

    @Test func dyldsRpathFromTheExtensionReachesTheAppsFrameworks() throws {
        let (report, app) = try Self.photosReport()
        let share = try #require(Self.image(report, "PlugIns/PhotosShare.appex/PhotosShare", in: app))
        #expect(
            share.links.map { $0.replacingOccurrences(of: app + "/", with: "") }.sorted() == [
                "Frameworks/ImageKit.framework/ImageKit[arm64]", "Frameworks/Legacy.framework/Legacy",
                "Frameworks/Sneaky.framework/Sneaky", "Frameworks/SyncKit.framework/SyncKit",
            ])
        #expect(!report.findings.contains { $0.rule == "LINK001" }, "system install names are the SDK's, not missing")
    }

    /// A Swift framework links the Swift runtime as `@rpath/libswiftCore.dylib`
    /// and finds it through its LC_RPATH `/usr/lib/swift`, where the OS ships
    /// it (iOS 12.2, macOS 10.14.4 on): a system library, as the install
    /// name `/usr/lib/swift/libswiftCore.dylib` is, never LINK001. Without
    /// that rpath entry the same names are missing.
    @Test func theSwiftRuntimeThroughTheRpathUsrLibSwiftIsNotMissing() throws {
        let swifty = try MachOFixture.swiftRuntimeUser.path()
        let report = try ShippedRules.check(swifty)
        let image = try #require(report.images.first)
        #expect(
            image.binary.dependencies.map(\.name).filter { $0.hasPrefix("@rpath/") } == [
                "@rpath/libswiftCore.dylib", "@rpath/libswiftFoundation.dylib",
            ])
        #expect(image.binary.searchPaths.map(\.path).first == "/usr/lib/swift")
        #expect(!report.findings.contains { $0.rule == "LINK001" }, "\(report.findings.map(\.message))")
        #expect(report.exitStatus == 0)

        var withoutSwiftRpath = try #require(try ImageInspector.inspect(path: swifty.path).first)
        withoutSwiftRpath.searchPaths.removeAll { $0.path == "/usr/lib/swift" }
        let graph = LinkResolver().resolve([withoutSwiftRpath], reader: Inspection.Reader())
        #expect(graph.missing.map(\.needed) == ["@rpath/libswiftCore.dylib", "@rpath/libswiftFoundation.dylib"])
    }

    @Test func rpathsAreInheritedAlongTheChainOfLoaders() throws {
        // Only the extension is scanned: SyncKit is found through its
        // @executable_path/../../Frameworks rpath, and Uploader, which
        // SyncKit links by @rpath but carries no LC_RPATH for, through the
        // extension's rpaths handed down the chain (dyld's rule, not ld.so's).
        let app = try MachOFixtures.photosApp()
        let share = app.appendingPathComponent("PlugIns/PhotosShare.appex")
        let report = try ShippedRules.check(share, policy: Self.roles)
        let chains = report.findings.filter { $0.rule == "AEX001" && $0.image.hasSuffix("/PhotosShare") }.map(\.chain)
        #expect(chains.contains(["PhotosShare", "SyncKit.framework", "Uploader.framework", "+[UIApplication sharedApplication]"]))
        let external = report.images.filter(\.external).map { $0.name.replacingOccurrences(of: app.path + "/", with: "") }.sorted()
        #expect(
            external == [
                "Frameworks/Sneaky.framework/Sneaky", "Frameworks/SyncKit.framework/SyncKit", "Frameworks/Uploader.framework/Uploader",
            ])
        #expect(!report.findings.contains { $0.rule == "LINK001" })
    }

    @Test func deviceAndSimulatorSlicesNeverMix() throws {
        let directory = try Fixtures.temporaryDirectory()
        let bundle = directory.path("Photos.app")
        try FileManager.default.copyItem(at: try MachOFixtures.photosApp(), to: bundle)
        let legacy = bundle.appendingPathComponent("Frameworks/Legacy.framework/Legacy")
        try FileManager.default.removeItem(at: legacy)
        try FileManager.default.copyItem(at: try MachOFixture.legacySimulator.path(), to: legacy)
        let (report, app) = try Self.photosReport(bundle)
        let mismatches = report.findings.filter { $0.rule == "ARCH003" && $0.image == "\(app)/PlugIns/PhotosShare.appex/PhotosShare" }
        #expect(mismatches.map(\.symbol) == ["@rpath/Legacy.framework/Legacy"])
        guard case .linkMismatch(_, _, let foundFor, let imageFor)? = mismatches.first?.typedDetail else {
            Issue.record("\(mismatches)")
            return
        }
        #expect([foundFor, imageFor].map { "\($0.architecture) \($0.platform?.rawValue ?? "")" } == ["arm64 ios-simulator", "arm64 ios"])
    }

    @Test func aThirtyTwoBitOnlyFrameworkHasNo64BitSlice() throws {
        let codec = try MachOFixture.codec32.path()
        let report = try ShippedRules.check(codec)
        #expect(report.findings.map(\.rule) == ["ARCH001"])
        #expect(report.findings.first?.typedDetail == .noSixtyFourBitCode(format: .macho, architectures: ["armv7"]))
        #expect(report.images.map(\.verdict) == [.unsafe])
    }

    @Test func requiredArchitecturesCountSlices() throws {
        let imageKit = try MachOFixture.imageKitFat.path()
        let rules = try ShippedRules.ruleSet()
        let both = CheckRun.check(
            paths: [imageKit.path], rules: rules, policy: Policy(requiredArchitectures: ["arm64", "x86_64"]), jobs: 1)
        #expect(!both.findings.contains { $0.rule == "ARCH002" })
        #expect(Set(both.images.map(\.name)) == [imageKit.path + "[arm64]", imageKit.path + "[x86_64]"])
        let uploader = try MachOFixture.uploader.path()
        let one = CheckRun.check(paths: [uploader.path], rules: rules, policy: Policy(requiredArchitectures: ["x86_64"]), jobs: 1)
        #expect(
            one.findings.filter { $0.rule == "ARCH002" }.map(\.typedDetail)
                == [.notBuiltFor(module: "@rpath/Uploader.framework/Uploader", required: "x86_64", builtFor: ["arm64"])])
    }

    @Test func anUnnamedMachOExecutableOutsideABundleIsNotTakenForTheApp() throws {
        // An extension's main binary is MH_EXECUTE as the app's is: outside
        // a bundle, without roles, it must be safe, so its findings are errors.
        let directory = try Fixtures.temporaryDirectory()
        let photos = directory.path("Photos")
        try FileManager.default.copyItem(at: try MachOFixtures.photosApp().appendingPathComponent("Photos"), to: photos)
        let report = try ShippedRules.check(photos)
        #expect(report.images.first { $0.name == photos.path }?.role == .framework)
        #expect(report.findings.contains { $0.image == photos.path && $0.rule == "AEX001" && $0.severity == .error })
    }

    @Test func theBundleGivesTheRolesWithoutNames() throws {
        let (report, app) = try Self.photosReport(policy: Policy())
        #expect(Self.image(report, "Photos", in: app)?.role == .app)
        #expect(
            Self.image(report, "PlugIns/PhotosShare.appex/PhotosShare", in: app).map { "\($0.role) \($0.extensionType?.rawValue ?? "")" }
                == "extension share")
        #expect(Self.image(report, "PlugIns/PhotosShare.appex/PhotosShare", in: app)?.verdict == .unsafe)
    }
}
