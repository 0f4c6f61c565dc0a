import LinkCheckRules

/// Checks that are code, not data: the architecture checks, loader
/// interposition, and how an app bundle is put together. Listed by `linkcheck rules list` beside the packs' rules.
public enum BuiltInRules {
    /// A 32-bit image (ELF `ELFCLASS32`; Mach-O `armv7`, `i386`).
    public static let thirtyTwoBit = builtIn(
        id: "ARCH001", api: "32-bit image", category: .architecture, severity: .error,
        message: "an app extension and every framework it links must be 64-bit",
        fixit: "Build for a 64-bit architecture (aarch64 for arm64 devices, x86_64).",
        source: "App Extension Programming Guide, embedded frameworks: 64-bit architecture required")
    /// A module missing from a required architecture.
    public static let missingArchitecture = builtIn(
        id: "ARCH002", api: "required architecture", category: .architecture, severity: .error,
        message: "every module must be built for each required architecture",
        fixit: "Build and ship the module for every required architecture.",
        source: "App Extension Programming Guide: the app and each extension must include the platform's 64-bit architecture")
    /// A needed library (`DT_NEEDED`, `LC_LOAD_DYLIB`) resolved to an image
    /// of another machine, class or encoding, or of no slice the process loads.
    public static let linkMismatch = builtIn(
        id: "ARCH003", api: "needed library's architecture", category: .architecture, severity: .error,
        message: "the dynamic loader loads only libraries of the image's own machine, class and byte order",
        fixit: "Link the build of the library for the same architecture.",
        source:
            "System V ABI: a process loads only objects of its own e_machine, EI_CLASS and EI_DATA; dyld: only a slice of the process's CPU type and platform"
    )
    /// Slices of a fat file that no process of the app loads
    /// (``UnloadableSlices``): a note, once per file.
    public static let unloadedSlices = builtIn(
        id: "ARCH004", api: "unloaded slices", category: .architecture, severity: .note,
        message:
            "dyld takes only the slice of the process's architecture and platform, so these slices are not checked as code an extension runs: their findings are notes and take no part in the file's verdict",
        fixit:
            "Strip them from the embedded copy (lipo -remove, or Carthage's copy-frameworks): the App Store rejects simulator slices (\"Unsupported Architectures\").",
        source: "dyld: a fat file's slice is chosen by the process's CPU type and platform")
    /// A definition of a C loader function outside the C library.
    public static let loaderInterposition = builtIn(
        id: "INTP001", api: "dynamic-loader interposition", category: .reviewRisk, severity: .warning,
        message:
            "a definition outside the C library interposes the C library's dynamic-loader function, so the process's calls to it can reach this code instead",
        fixit: "Rename the function; do not wrap or replace the dynamic loader in code an extension loads.",
        source: "dlopen(3), dlsym(3): symbol interposition by earlier-loaded objects")

    /// An image the inspector could read only in part, or that links one.
    /// A warning by default; an error on an image that has to be
    /// extension-safe (``Verdict/incomplete``).
    public static let partialInspection = builtIn(
        id: "INSP001", api: "malformed image structure", category: .reviewRisk, severity: .warning,
        message: "part of the image could not be read, so its findings may be incomplete",
        fixit: "Check how the file was produced (truncated copy, stripped section headers, a broken tool).",
        source:
            "System V ABI, ELF: section header table, dynamic section, symbol versioning; <mach-o/loader.h>: load commands, segments, symbol table"
    )

    /// A needed library (`DT_NEEDED`, `LC_LOAD_DYLIB`) that is nowhere the
    /// loader looks.
    public static let missingLibrary = builtIn(
        id: "LINK001", api: "a needed library (DT_NEEDED, LC_LOAD_DYLIB)", category: .reviewRisk, severity: .warning,
        message: "what the library brings in is not checked",
        fixit: "Scan the folder that holds it, or pass --search-path DIR (searchPaths in linkcheck.json).",
        source:
            "ld.so(8): DT_RPATH, LD_LIBRARY_PATH, DT_RUNPATH, ld.so.cache, default paths; dyld(1): @rpath (LC_RPATH), @executable_path, @loader_path, DYLD_LIBRARY_PATH"
    )

    /// A needed library (`DT_NEEDED`, `LC_LOAD_DYLIB`) found where the loader looks, but that could not
    /// be read: what it brings in is not checked.
    public static let unreadableLibrary = builtIn(
        id: "LINK002", api: "a needed library (DT_NEEDED, LC_LOAD_DYLIB)", category: .reviewRisk, severity: .warning,
        message: "a file of the library's name was found but could not be read, so what the library brings in is not checked",
        fixit: "Replace the damaged file with the library's build, or scan the folder that holds the real one.",
        source: "ld.so(8); dyld(1): a file that is not a loadable object is passed over")

    /// The completeness findings: an image, or a library it needs, could be
    /// read only in part. Such an image is never called safe (``Verdict/incomplete``).
    static func isCompleteness(_ rule: RuleID) -> Bool {
        rule == partialInspection.id || rule == unreadableLibrary.id
    }

    /// A Mach-O framework that has to be extension-safe but was not built
    /// with `-application_extension`.
    public static let unflaggedFramework = builtIn(
        id: "FLAG001", api: "MH_APP_EXTENSION_SAFE", category: .reviewRisk, severity: .warning,
        message:
            "the linker warns when an extension links a dylib without MH_APP_EXTENSION_SAFE (\"linking against a dylib which is not safe for use in application extensions\")",
        fixit:
            "Build the framework with -application_extension (Xcode: Require Only App-Extension-Safe API, APPLICATION_EXTENSION_API_ONLY = YES).",
        source: "ld64 Resolver::doFile and lld MachO: -application_extension; <mach-o/loader.h> MH_APP_EXTENSION_SAFE 0x02000000")
    /// A Mach-O framework flagged extension-safe that uses APIs unavailable
    /// in extensions.
    public static let flagNotEvidence = builtIn(
        id: "FLAG002", api: "MH_APP_EXTENSION_SAFE", category: .reviewRisk, severity: .warning,
        message:
            "the flag is a claim, not evidence: the linker sets it without looking at the code (and LD_APPLICATION_EXTENSION_SAFE sets it without checking at all)",
        fixit: "Remove the unavailable API from the framework, or move it into a framework only the containing app links.",
        source: "ld64: -application_extension sets MH_APP_EXTENSION_SAFE; the check of the code is the compiler's (-fapplication-extension)"
    )

    /// A library loaded at run time that is not extension-safe.
    public static let unsafeLoad = builtIn(
        id: "DLOP001", api: "dlopen of an unsafe library", category: .conditionalLoading, severity: .error,
        message: "the loaded library uses APIs unavailable in app extensions",
        fixit:
            "Load it only in the containing app, behind a check that the process is not an extension, or make the library extension-safe.",
        source: "App Extension Programming Guide: conditional loading; embedded frameworks must be extension-safe")
    /// ``unsafeLoad``'s message for a library unsafe for another reason
    /// than an API (its verdict is unsafe by other rules).
    public static let unsafeVerdictLoadMessage = "the loaded library is not extension-safe"
    /// A library loaded at run time that is extension-safe.
    public static let safeLoad = builtIn(
        id: "DLOP002", api: "dlopen of a safe library", category: .conditionalLoading, severity: .note,
        message: "the loaded library is extension-safe",
        fixit: "Nothing to change; keep the load behind a run-time OS version check.",
        source: "App Extension Programming Guide: conditional loading")
    /// A library loaded at run time that is not found.
    public static let missingLoad = builtIn(
        id: "DLOP003", api: "dlopen of a missing library", category: .conditionalLoading, severity: .warning,
        message: "linkcheck cannot tell whether the loaded library is safe",
        fixit: "Scan the library too, or pass --search-path DIR.",
        source: "dlopen(3): search order")
    /// A loader call behind a run-time version check.
    public static let guardedLoad = builtIn(
        id: "DLOP010", api: "guarded conditional loading", category: .conditionalLoading, severity: .note,
        message: "conditional loading after a run-time OS version check is what the App Extension Programming Guide asks for",
        fixit: "Nothing to change.",
        source: "App Extension Programming Guide: load frameworks conditionally after a run-time OS version check")
    /// A loader call without a run-time version check.
    public static let unguardedLoad = builtIn(
        id: "DLOP011", api: "unguarded conditional loading", category: .conditionalLoading, severity: .warning,
        message: "the App Extension Programming Guide asks for conditional loading only after a run-time OS version check",
        fixit: "Check the OS version (ProcessInfo.isOperatingSystemAtLeast, uname) before loading.",
        source: "App Extension Programming Guide: load frameworks conditionally after a run-time OS version check")

    /// A framework an extension or the containing app needs that dyld
    /// would not find in the app bundle: it would not launch.
    public static let frameworkNotEmbedded = builtIn(
        id: "BNDL001", api: "embedded framework", category: .bundle, severity: .error,
        message:
            "dyld stops an extension, or the containing app, at launch when a framework it links (itself or through a framework) is not where its LC_RPATH entries lead, the containing app's Frameworks folder",
        fixit:
            "Embed the framework in the containing app (Xcode: Frameworks, Libraries, and Embedded Content → Embed & Sign), or link it weakly if the process can run without it.",
        source:
            "dyld(1): @rpath, @executable_path; App Extension Programming Guide: the containing app embeds the frameworks its extensions link"
    )
    /// An extension that embeds its own copy of a framework the app embeds.
    public static let duplicateFramework = builtIn(
        id: "BNDL002", api: "extension's own Frameworks folder", category: .bundle, severity: .warning,
        message:
            "a containing app and its extensions share one copy of an embedded framework, in the app's Frameworks folder: a second copy in the extension only adds size, and the two can drift apart",
        fixit: "Embed the framework in the app target only, and let the extension reach it through @executable_path/../../Frameworks.",
        source: "App Extension Programming Guide: Using an Embedded Framework to Share Code")
    /// A framework outside the app's `Frameworks` folder, or a bundle
    /// nested where it may not be (ITMS-90206, ITMS-90205).
    public static let misplacedFramework = builtIn(
        id: "BNDL003", api: "bundle structure: Frameworks folders, nested bundles", category: .bundle, severity: .error,
        message:
            "App Store Connect refuses an app whose frameworks are anywhere but the app's own Frameworks folder (ITMS-90206: a Frameworks folder in an extension or a framework), or whose extensions or frameworks hold other bundles (ITMS-90205)",
        fixit:
            "Embed the framework in the containing app's Frameworks folder only, and link it from the extension (CocoaPods, Carthage: embed in the app target only); move a nested extension to the app's PlugIns folder.",
        source:
            "App Store Connect ITMS-90206, ITMS-90205 (CocoaPods/CocoaPods#3905, #6289); App Extension Programming Guide: embedded frameworks go in the Frameworks copy destination"
    )
    /// The containing app, or an extension, without a 64-bit slice
    /// (ITMS-90086, ITMS-9000).
    public static let extensionNot64Bit = builtIn(
        id: "BNDL004", api: "64-bit app and extensions", category: .bundle, severity: .error,
        message:
            "App Store Connect refuses an app whose executable or extensions do not include the platform's 64-bit architecture, arm64 on iOS, x86_64 or arm64 on macOS (ITMS-90086; ITMS-9000: missing architectures [arm64])",
        fixit: "Build the app and extension targets for arm64 (ARCHS = $(ARCHS_STANDARD)).",
        source:
            "App Store Connect ITMS-90086, ITMS-9000 (lionheart/openradar-mirror#3203); App Extension Programming Guide: the app and every extension must include the 64-bit architecture of its platform"
    )

    /// Simulator slices in a file of a device app (ITMS-90087).
    public static let simulatorSlices = builtIn(
        id: "BNDL005", api: "simulator slices", category: .bundle, severity: .error,
        message:
            "App Store Connect refuses an app whose binaries hold slices for the simulator (ITMS-90087: Unsupported Architectures)",
        fixit:
            "Embed the device build of the framework (an xcframework's ios-arm64 library), or strip the simulator slices from the copy (lipo -remove x86_64 -remove i386).",
        source: "App Store Connect ITMS-90087 (JonasGessner/JGProgressHUD#54); dyld: a fat file's slice is chosen by platform")
    /// A Mach-O file that is no bundle's executable and no library in a
    /// `Frameworks` folder (ITMS-90171).
    public static let strayBinary = builtIn(
        id: "BNDL006", api: "binary outside a bundle's executable", category: .bundle, severity: .error,
        message:
            "App Store Connect refuses an app that holds a binary other than a bundle's CFBundleExecutable or a library in a Frameworks folder (ITMS-90171: Invalid Bundle Structure)",
        fixit:
            "Remove the file from the app (a build product copied as a resource, a static library, a tool), or embed it as a framework.",
        source: "App Store Connect ITMS-90171 (naoty/Timepiece#71)")
    /// Two bundles with one identifier; an extension's identifier not
    /// under its app's (ITMS-90685).
    public static let bundleIdentifier = builtIn(
        id: "BNDL007", api: "CFBundleIdentifier", category: .bundle, severity: .error,
        message:
            "App Store Connect refuses an app in which two bundles share a CFBundleIdentifier, or an extension's does not start with its app's and a dot (ITMS-90685)",
        fixit:
            "Give each bundle its own identifier, and each extension its app's followed by a dot and a name (com.example.app.share; Xcode: PRODUCT_BUNDLE_IDENTIFIER).",
        source: "App Store Connect ITMS-90685 (CocoaPods/CocoaPods#6289); App Extension Programming Guide: an extension's bundle identifier"
    )
    /// An extension's versions differ from its app's (ITMS-90473).
    public static let versionMismatch = builtIn(
        id: "BNDL008", api: "extension version", category: .bundle, severity: .warning,
        message:
            "App Store Connect warns when an extension's CFBundleVersion or CFBundleShortVersionString differs from its containing app's (ITMS-90473); the delivery goes through",
        fixit: "Give the extension target the app's version and build number (Xcode: MARKETING_VERSION, CURRENT_PROJECT_VERSION).",
        source: "App Store Connect WARNING ITMS-90473 (woocommerce/woocommerce-ios#10718, OneSignal/OneSignal-Flutter-SDK#63)")
    /// A bundle without `CFBundleVersion` or `CFBundleShortVersionString`
    /// (ITMS-90056, ITMS-90057).
    public static let missingVersion = builtIn(
        id: "BNDL009", api: "CFBundleVersion, CFBundleShortVersionString", category: .bundle, severity: .error,
        message:
            "App Store Connect refuses a bundle whose Info.plist lacks CFBundleVersion (ITMS-90056) or CFBundleShortVersionString (ITMS-90057)",
        fixit: "Add the key to the bundle's Info.plist (Xcode: CURRENT_PROJECT_VERSION, MARKETING_VERSION).",
        source: "App Store Connect ITMS-90056, ITMS-90057 (BelledonneCommunications/linphone-iphone#402)")
    /// A binary whose minimum OS is newer than its bundle's
    /// `MinimumOSVersion` (ITMS-90208).
    public static let minimumOSNewerThanInfoPlist = builtIn(
        id: "BNDL010", api: "MinimumOSVersion", category: .bundle, severity: .error,
        message:
            "App Store Connect refuses a bundle whose binary needs a newer OS (LC_BUILD_VERSION, LC_VERSION_MIN_*) than its Info.plist's MinimumOSVersion says (ITMS-90208)",
        fixit:
            "Build the binary for the bundle's deployment target, or raise MinimumOSVersion to the binary's (Xcode: IPHONEOS_DEPLOYMENT_TARGET).",
        source: "App Store Connect ITMS-90208 (elias8/libghostty#127); <mach-o/loader.h>: LC_BUILD_VERSION minos")
    /// An embedded framework whose minimum OS is newer than the app's.
    public static let frameworkNewerThanApp = builtIn(
        id: "BNDL011", api: "embedded framework's minimum OS", category: .bundle, severity: .warning,
        message:
            "dyld does not load a framework built for a newer OS than the one it runs on, so on the oldest OS the app supports the app, or an extension that links it, would not launch",
        fixit: "Build the framework for the app's deployment target, or raise the app's MinimumOSVersion to the framework's.",
        source: "dyld: a dylib built for a newer OS than the running one is not loaded; <mach-o/loader.h>: LC_BUILD_VERSION minos")
    /// An extension's `NSExtension` without what its point needs
    /// (ITMS-90362, ITMS-90363).
    public static let extensionKeys = builtIn(
        id: "BNDL012", api: "NSExtension", category: .bundle, severity: .error,
        message:
            "App Store Connect refuses an extension whose NSExtension dictionary lacks NSExtensionPointIdentifier, or, for an extension point that needs one, both NSExtensionPrincipalClass and NSExtensionMainStoryboard (ITMS-90362, ITMS-90363)",
        fixit: "Add the key to the extension's NSExtension dictionary in its Info.plist (Xcode's extension templates set them).",
        source:
            "App Store Connect ITMS-90362, ITMS-90363 (owncloud/client#4156); App Extension Programming Guide: Info.plist NSExtension keys")
    /// A binary with bitcode (ITMS-90482).
    public static let bitcode = builtIn(
        id: "BNDL013", api: "bitcode (__LLVM segment)", category: .bundle, severity: .error,
        message: "App Store Connect refuses binaries that contain bitcode, since Xcode 14 (ITMS-90482: Invalid Executable)",
        fixit:
            "Build without bitcode (ENABLE_BITCODE = NO), or strip it from a vendor's framework (xcrun bitcode_strip -r BINARY -o BINARY).",
        source: "App Store Connect ITMS-90482 (krzyzanowskim/OpenSSL#191); Xcode 14 release notes: bitcode deprecated")

    /// The bundle checks whose findings say only what App Store Connect
    /// would do on upload (``UploadChecks``): they do not make an image
    /// unsafe for extensions, nor stop one at launch.
    static func isUploadCheck(_ rule: RuleID) -> Bool {
        uploadChecks.contains { $0.id == rule }
    }

    /// The rules of ``UploadChecks``: what App Store Connect refuses (or
    /// warns about) on upload, `BNDL005`–`BNDL013`.
    public static let uploadChecks = [
        simulatorSlices, strayBinary, bundleIdentifier, versionMismatch, missingVersion, minimumOSNewerThanInfoPlist,
        frameworkNewerThanApp, extensionKeys, bitcode,
    ]

    /// The C dynamic-loader functions whose definition outside the C
    /// library is an interposition (`<dlfcn.h>`).
    public static let cLoaderFunctions: Set<String> = ["dlopen", "dlmopen", "dlsym", "dlvsym"]

    /// Whether the raw symbol name `name` is one of ``cLoaderFunctions``.
    static func isLoaderFunction(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        name.first == UInt8(ascii: "d") && cLoaderFunctions.contains { $0.utf8.elementsEqual(name) }
    }

    /// A rule of the built-in pack: no matchers (the check is code).
    private static func builtIn(
        id: RuleID, api: String, category: RuleCategory, severity: Severity, message: String, fixit: String, source: String
    ) -> Rule {
        Rule(
            id: id, api: api, category: category, severity: severity, matchers: [], message: message, fixit: fixit,
            source: source, pack: "built-in")
    }

    public static let all =
        [
            thirtyTwoBit, missingArchitecture, linkMismatch, unloadedSlices, loaderInterposition, partialInspection, missingLibrary,
            unreadableLibrary,
            unflaggedFramework, flagNotEvidence,
            unsafeLoad, safeLoad, missingLoad, guardedLoad, unguardedLoad,
            frameworkNotEmbedded, duplicateFramework, misplacedFramework, extensionNot64Bit,
        ] + uploadChecks
}
