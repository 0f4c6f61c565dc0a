import LinkCheckAnalysis
import LinkCheckImage
import LinkCheckReports
import LinkCheckRules
import Testing

/// A finding's typed detail in the words every output gives
/// (``FindingDetail/words``), and the message made of them.
@Suite struct FindingWordingTests {
    @Test func eachDetailHasItsWords() {
        let sharedApplication = ObjCName("+[UIApplication sharedApplication]")!
        let cases: [(FindingDetail, String)] = [
            (.imports(symbol: "kit_open", demangled: nil), "imports 'kit_open'"),
            (.imports(symbol: "$s3Kit4openyyF", demangled: "Kit.open()"), "imports 'Kit.open()' ($s3Kit4openyyF)"),
            (.callsLinkedInCopy(function: "kit_open", demangled: "kit_open"), "calls 'kit_open', whose code is linked into this image"),
            (
                .references(sharedApplication, subclasses: []),
                "references +[UIApplication sharedApplication] (the class UIApplication and the selector sharedApplication)"
            ),
            (
                .references(sharedApplication, subclasses: ["A", "B"]),
                "references +[UIApplication sharedApplication] (the classes A, B, subclasses of UIApplication, and the selector sharedApplication)"
            ),
            (
                .references(ObjCName("UIApplication")!, subclasses: ["A"]),
                "references UIApplication (the class A, a subclass of UIApplication)"
            ),
            (
                .references(ObjCName("-[id<UIApplicationDelegate> application:openURL:]")!, subclasses: []),
                "references -[id<UIApplicationDelegate> application:openURL:] (the selector application:openURL: of the protocol UIApplicationDelegate)"
            ),
            (
                .looksUpByName(
                    className: "UIApplication", selector: "openURL:", lookUps: ["NSClassFromString", "objc_getClass"], selectorMakers: nil),
                "looks up UIApplication by name (NSClassFromString, objc_getClass) and sends openURL: (a selector reference)"
            ),
            (
                .mayLookUpByName(
                    className: "UIApplication", selector: "openURL:", selectorHeldAsString: false, lookUps: ["NSClassFromString"],
                    unknownBecause: .callsUnseen(nil), namesUnused: true),
                "holds the string \"UIApplication\", references the selector openURL: and imports NSClassFromString, so it may look up"
                    + " UIApplication by name and send openURL:; a warning at most, since its call sites were not analysed and which"
                    + " name the look-up is passed is not known; no code that uses these names was found"
            ),
            (
                .mayLookUpByName(
                    className: "UIApplication", selector: "openURL:", selectorHeldAsString: true, lookUps: ["NSClassFromString"],
                    unknownBecause: .callsUnseen(.turnedOff), namesUnused: false),
                "holds the strings \"UIApplication\" and \"openURL:\" and imports NSClassFromString, so it may look up"
                    + " UIApplication by name and send openURL:; a warning at most, since call sites were not analysed"
                    + " (--no-call-sites) and which name the look-up is passed is not known"
            ),
            (
                .mayLookUpByName(
                    className: "UIApplication", selector: "openURL:", selectorHeldAsString: true,
                    lookUps: ["NSClassFromString", "objc_getClass"],
                    unknownBecause: .notPassedALiteral(noLiteralIn: ["classNamed(_:)", nil], neverCalled: ["objc_getClass"]),
                    namesUnused: false),
                "holds the strings \"UIApplication\" and \"openURL:\" and imports NSClassFromString, objc_getClass, so it may look up"
                    + " UIApplication by name and send openURL:; a warning at most, since which name the look-up is passed is not known"
                    + " (the look-up is passed no literal in classNamed(_:), code no symbol covers; no call to objc_getClass was found)"
            ),
            (.holdsString("openURL:"), "read-only data holds the string \"openURL:\""),
            (.links(library: "libUIKit.so", format: .elf), "links libUIKit.so (DT_NEEDED)"),
            (.links(library: "@rpath/UIKit.framework/UIKit", format: .macho), "links @rpath/UIKit.framework/UIKit (LC_LOAD_DYLIB)"),
        ]
        for (detail, words) in cases { #expect(detail.words == words) }
    }

    /// The details of the built-in checks and of what propagates, with the
    /// words the reports of the samples and corpora give (or, for those
    /// they do not hold, the words the analysis tests read).
    @Test func eachBuiltInDetailHasItsWords() {
        let armv7 = Architecture(name: "armv7", is64Bit: false, byteOrder: .little, loaderMachine: "e_machine 40")
        let aarch64 = Architecture(name: "aarch64", is64Bit: true, byteOrder: .little, loaderMachine: "e_machine 183")
        let x86_64 = Architecture(name: "x86_64", is64Bit: true, byteOrder: .little, loaderMachine: "e_machine 62")
        let shared = "'static UIKit.UIApplication.shared.getter : UIKit.UIApplication' ($s5UIKit13UIApplicationC6sharedACvgZ)"
        let cases: [(FindingDetail, String)] = [
            (
                .provides(
                    api: "UIApplication.shared", symbol: "$s5UIKit13UIApplicationC6sharedACvgZ",
                    demangled: "static UIKit.UIApplication.shared.getter : UIKit.UIApplication", moreSymbols: 1, unknownCalls: nil),
                "provides UIApplication.shared (defines \(shared) and 1 more symbol); its own definitions are not violations"
            ),
            (
                .provides(
                    api: "Analytics.track", symbol: "analytics_track", demangled: nil, moreSymbols: 0,
                    unknownCalls: .init(copy: .internalCopy, since: .analysisFailed("no .text section"))),
                "provides Analytics.track (defines 'analytics_track'), an internal copy linked into this image: whether code in it"
                    + " calls the API is unknown, since its call sites could not be analysed (no .text section)"
            ),
            (
                .provides(
                    api: "Analytics.track", symbol: "track", demangled: nil, moreSymbols: 2,
                    unknownCalls: .init(copy: .module("Analytics"), since: .unsupported(armv7))),
                "provides Analytics.track (defines 'track' and 2 more symbols), code of module Analytics linked into this image:"
                    + " whether code of other modules in it calls the API is unknown, since call sites are not analysed for armv7"
            ),
            (
                .provides(
                    api: "A", symbol: "a", demangled: nil, moreSymbols: 0, unknownCalls: .init(copy: .internalCopy, since: .notScanned)),
                "provides A (defines 'a'), an internal copy linked into this image: whether code in it calls the API is unknown,"
                    + " since call sites are analysed only in the scanned images"
            ),
            (.definesLoader(symbol: "dlopen"), "defines 'dlopen'"),
            (
                .reachedThrough(path: [
                    "PhotoEditorApp", "libLegacyLoader.so", "libPhotoEffects.so (dlopen)", "AVFoundation.AVCaptureSession",
                ]),
                "reached through PhotoEditorApp → libLegacyLoader.so → libPhotoEffects.so (dlopen) → AVFoundation.AVCaptureSession"
            ),
            (.linksReadInPart(chain: ["App", "Broken.framework"]), "links App → Broken.framework, which could be read only in part"),
            (.noSixtyFourBitCode(format: .elf, architectures: ["armv7"]), "this armv7 image is 32-bit (ELFCLASS32)"),
            (.noSixtyFourBitCode(format: .macho, architectures: ["armv7", "i386"]), "this file has no 64-bit slice (armv7, i386)"),
            (
                .slicesNotLoaded(simulator: ["x86_64"], thirtyTwoBit: [], platform: .iOS, minimumOS: "15.0"),
                "slice x86_64 is for the simulator: no process of this iOS 15.0 app loads it"
            ),
            (
                .slicesNotLoaded(simulator: ["i386", "x86_64"], thirtyTwoBit: ["armv7"], platform: .tvOS, minimumOS: nil),
                "slices i386, x86_64 are for the simulator and armv7 is 32-bit: no process of this tvOS app loads them"
            ),
            (
                .linkMismatch(
                    needed: "libfastpath.so", found: "arch/x86_64-linux-gnu/libfastpath.so",
                    foundFor: .init(architecture: x86_64, platform: nil), imageFor: .init(architecture: aarch64, platform: nil)),
                "needs libfastpath.so, but the only one found (arch/x86_64-linux-gnu/libfastpath.so) is x86_64 64-bit little-endian,"
                    + " not aarch64 64-bit little-endian"
            ),
            (
                .linkMismatch(
                    needed: "Kit", found: "Kit.framework/Kit", foundFor: .init(architecture: armv7, platform: .iOSSimulator),
                    imageFor: .init(architecture: armv7, platform: .iOS)),
                "needs Kit, but the only one found (Kit.framework/Kit) is armv7 32-bit little-endian ios-simulator,"
                    + " not armv7 32-bit little-endian ios"
            ),
            (
                .notBuiltFor(module: "Kit", required: "aarch64", builtFor: ["armv7", "x86_64"]),
                "Kit is not built for aarch64 (built for: armv7, x86_64)"
            ),
            (.callSitesNotAnalysed(reason: "no .text section"), "call sites could not be analysed (no .text section)"),
            (
                .readInPart(.problem("no section headers: read through PT_DYNAMIC; symbol versions not read")),
                "no section headers: read through PT_DYNAMIC; symbol versions not read"
            ),
            (
                .libraryNotFound(
                    library: "@rpath/libswiftCore.dylib", searched: ["Cartography.framework/Frameworks", "App.app/Frameworks"]),
                "needs @rpath/libswiftCore.dylib, which the dynamic loader would not find"
                    + " (searched: Cartography.framework/Frameworks, App.app/Frameworks)"
            ),
            (.libraryNotFound(library: "libz.so.1", searched: []), "needs libz.so.1, which the dynamic loader would not find"),
            (
                .libraryUnreadable(
                    library: "libc.so",
                    found: [.init(path: "/usr/lib/libc.so", error: .notAnImage(path: "/work/usr/lib/libc.so"))]),
                "needs libc.so, found as /usr/lib/libc.so (not an ELF or Mach-O file)"
            ),
            (
                .loads(
                    library: "@rpath/Plugin.framework/Plugin", site: .call(function: "load_capture_plugin", address: 0x1_0000_4150),
                    outcome: .found(image: "PhotosApp/Photos.app/Frameworks/Plugin.framework/Plugin")),
                "loads @rpath/Plugin.framework/Plugin → PhotosApp/Photos.app/Frameworks/Plugin.framework/Plugin"
                    + " (from load_capture_plugin at 0x100004150)"
            ),
            (
                .loads(library: "libp.so", site: .dlopenNote, outcome: .foundReadInPart(image: "/t/libp.so")),
                "loads libp.so → /t/libp.so (declared in .note.dlopen), which could be read only in part"
            ),
            (
                .loads(
                    library: "libp.so", site: .call(function: nil, address: 0xbcfa),
                    outcome: .foundWithVerdict(image: "/t/libp.so", verdict: .unsafe, rules: ["ARCH001", "BNDL003"])),
                "loads libp.so → /t/libp.so (from code at 0xbcfa that no symbol covers), whose verdict is unsafe (ARCH001, BNDL003)"
            ),
            (
                .loads(
                    library: "libnss_mdns.so.2", site: .call(function: "avahi_nss_support", address: 0xbcfa),
                    outcome: .notFound(searched: nil)),
                "loads libnss_mdns.so.2 (from avahi_nss_support at 0xbcfa), which is not found where the loader would look"
            ),
            (
                .loads(library: "@rpath/P.framework/P", site: nil, outcome: .notFound(searched: ["App.app/Frameworks"])),
                "loads @rpath/P.framework/P, which is not found where the loader would look (dyld looks in App.app/Frameworks)"
            ),
            (
                .loaderCall(
                    caller: .function("load_capture_plugin"), loader: "dlopen",
                    versionChecks: [
                        .init(query: "uname"),
                        .init(query: "systemVersion", caller: "-[PHAppDelegate application:didFinishLaunchingWithOptions:]"),
                    ]),
                "load_capture_plugin calls dlopen after a run-time OS version check"
                    + " (systemVersion in -[PHAppDelegate application:didFinishLaunchingWithOptions:], uname)"
            ),
            (
                .loaderCall(caller: .uncoveredCode(addresses: [0xb8de85]), loader: "dlopen", versionChecks: []),
                "code at 0xb8de85 (no symbol covers it) calls dlopen without a run-time OS version check"
            ),
            (
                .loaderCall(caller: .uncoveredCode(addresses: [0x30, 0x10, 0x20, 0x40]), loader: "dlopen", versionChecks: []),
                "code at 0x10, 0x20 and 2 more places (no symbol covers them) calls dlopen without a run-time OS version check"
            ),
            (
                .flaggedYetUnsafe(image: "Sneaky.framework", linkedBy: ["PhotosShare", "Sneaky.framework"]),
                "Sneaky.framework is flagged MH_APP_EXTENSION_SAFE (linked by PhotosShare → Sneaky.framework), yet uses APIs"
                    + " unavailable in app extensions (below)"
            ),
            (
                .notFlagged(image: "Legacy.framework", linkedBy: ["PhotosShare", "Legacy.framework"], usesUnavailableAPI: false),
                "Legacy.framework is not built with -application_extension (no MH_APP_EXTENSION_SAFE) (linked by PhotosShare →"
                    + " Legacy.framework), though it uses no API unavailable in app extensions: it is safe in fact, and building it"
                    + " with the flag silences the linker"
            ),
            (
                .notFlagged(image: "Legacy.framework", linkedBy: nil, usesUnavailableAPI: true),
                "Legacy.framework is not built with -application_extension (no MH_APP_EXTENSION_SAFE), and it uses APIs unavailable"
                    + " in app extensions (below)"
            ),
        ]
        for (detail, words) in cases { #expect(detail.words == words) }
    }

    /// Each remark in the words a finding's message ends with.
    @Test func eachRemarkHasItsWords() {
        let comparison = { (outcome: SDKMarkingComparison.Outcome) in
            FindingRemark.sdkMarking(
                SDKMarkingComparison(
                    platform: .iOS, markedUntil: SDKVersion("16.5")!, unmarkedFrom: SDKVersion("17.0")!, image: "Kit.framework",
                    outcome: outcome))
        }
        let armv7 = Architecture(name: "armv7", is64Bit: false, byteOrder: .little, loaderMachine: "e_machine 40")
        let cases: [(FindingRemark, String)] = [
            (.sliceNotLoaded, "no process of the app loads this slice"),
            (.containingAppMayUse, "allowed: the containing app may use it"),
            (.allowedInExtensionType(.share), "allowed in share extensions"),
            (.onlyContainingAppLinks, "only the containing app links or loads it"),
            (.allowedInLinkingExtensions([.action, .share]), "allowed in the action, share extensions that link it"),
            (.onlyContainingAppRuns, "only the containing app runs this code"),
            (
                comparison(.noSDKRecorded),
                "marked in iOS SDKs up to 16.5, no longer marked since the iOS 17.0 SDK; Kit.framework records no SDK, so which one"
                    + " it was built with was not checked"
            ),
            (
                comparison(.otherPlatform(.macOS)),
                "the marking's SDK range is iOS's, and Kit.framework is built for macos, so the range was not checked"
            ),
            (
                comparison(.liftedInSDK(SDKVersion("17.0")!)),
                "no longer marked since the iOS 17.0 SDK; Kit.framework is built with the iOS 17.0 SDK"
            ),
            (
                comparison(.stillMarkedInSDK(SDKVersion("16.4")!)),
                "Kit.framework is built with the iOS 16.4 SDK, which still marks it; iOS 17.0 and later SDKs do not"
            ),
            (
                comparison(.liftedByDeploymentTarget(SDKVersion("17.2")!)),
                "no longer marked since the iOS 17.0 SDK; Kit.framework records no SDK, but its deployment target, iOS 17.2, needs at"
                    + " least that one"
            ),
            (
                comparison(.deploymentTargetUntold("15.0")),
                "marked in iOS SDKs up to 16.5, no longer marked since the iOS 17.0 SDK; Kit.framework records no SDK, and its"
                    + " deployment target, iOS 15.0, does not tell which, so the range was not checked"
            ),
            (.callSitesNotAnalysed(architecture: armv7, format: .macho), "call sites are not analysed for armv7 Mach-O"),
            (.byNameOnly, "by name only, which the compiler and the App Store accept"),
            (.byNameOnlyMadeError, "by name only: an error, as this run makes every use by name"),
            (
                .guarded([
                    UseGuard(kind: .respondsToSelector, function: "+[BNCheckedSender currentApplication]"), UseGuard(kind: .extensionCheck),
                ]),
                "guarded by respondsToSelector: in +[BNCheckedSender currentApplication], an extension check"
            ),
            (
                .byNameToldFromStrings(of: "Sneaky.framework"),
                "a use by name told from the strings and imports of Sneaky.framework alone"
            ),
            (.noCodeLoadsString, "no code loads it"),
            (.loadMakesNoSelector, "the code that loads it makes no selector of it"),
            (.moreStructureProblems(1), "and 1 more problem with its structure: --format json lists them"),
            (.moreStructureProblems(24), "and 24 more problems with its structure: --format json lists them"),
        ]
        for (remark, words) in cases { #expect(remark.words == words) }
    }

    @Test func theMessageIsTheDetailThenTheRuleThenTheRemarks() {
        var finding = Finding(
            rule: "AEX001", severity: .error, category: .unavailableAPI, kind: .stringLiteral, image: "Kit",
            statement: .detail(.holdsString("openURL:"), ruleMessage: "The selector name"))
        #expect(finding.message == "read-only data holds the string \"openURL:\": The selector name")
        finding.remark(.noCodeLoadsString)
        finding.remark(.byNameOnly)
        #expect(finding.remarks == [.noCodeLoadsString, .byNameOnly])
        #expect(
            finding.message
                == "read-only data holds the string \"openURL:\": The selector name (no code loads it)"
                + " (by name only, which the compiler and the App Store accept)")
        #expect(finding.remarkWords == " (no code loads it) (by name only, which the compiler and the App Store accept)")
        let note = Finding(
            rule: "AEX001", severity: .note, category: .unavailableAPI, kind: .providedSymbol, image: "Kit",
            statement: .detail(.provides(api: "A", symbol: "a", demangled: nil, moreSymbols: 0, unknownCalls: nil), ruleMessage: nil))
        #expect(note.message == "provides A (defines 'a'); its own definitions are not violations")
        let words = Finding(rule: "BNDL002", severity: .error, category: .bundle, kind: .bundle, image: "Kit", message: "w: r")
        #expect(words.message == "w: r")
    }
}
