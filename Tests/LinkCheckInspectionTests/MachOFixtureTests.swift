import Foundation
import LinkCheckTestSupport
import Testing

/// The Mach-O fixtures and the PhotosApp sample, built from source at test
/// time, have what their recipes claim, according to LLVM's tools (so that
/// the Mach-O reader's tests can rely on them).
@Suite struct MachOFixtureTests {
    typealias Oracle = MachOOracle
    typealias Binding = MachOOracle.Binding

    static let sdkDylibs = [
        "/usr/lib/libobjc.A.dylib", "/usr/lib/libSystem.B.dylib",
        "/System/Library/Frameworks/UIKit.framework/UIKit", "/System/Library/Frameworks/Foundation.framework/Foundation",
        "/System/Library/Frameworks/CoreFoundation.framework/CoreFoundation",
    ]

    /// The messages Uploader's two sources send: `[super init]`,
    /// `[super dealloc]`, `+[NSData dataWithContentsOfURL:]`, `-length`,
    /// `+[NSURL URLWithString:]`, and in `present_login`
    /// `+[UIApplication sharedApplication]` and `-openURL:`.
    static let uploaderMessages: Set<String> = [
        "init", "dealloc", "dataWithContentsOfURL:", "length", "URLWithString:", "sharedApplication", "openURL:",
    ]

    static func buildVersion(_ path: URL, arch: String? = nil) throws -> [String: String]? {
        try Oracle.loadCommands(path, arch: arch).first { $0.command == "LC_BUILD_VERSION" }?.fields
    }

    static func commandNames(_ path: URL, arch: String? = nil) throws -> Set<String> {
        Set(try Oracle.loadCommands(path, arch: arch).map(\.command))
    }

    @Test func uploaderWithBindOpcodes() throws {
        let path = try MachOFixture.uploader.path()
        let header = try Oracle.header(path)
        #expect(
            header
                == Oracle.Header(
                    magic: "MH_MAGIC_64", cpuType: "ARM64", cpuSubtype: "ALL", fileType: "DYLIB",
                    flags: ["NOUNDEFS", "DYLDLINK", "TWOLEVEL", "NO_REEXPORTED_DYLIBS"]))
        #expect(try !Oracle.isApplicationExtensionSafe(path))

        let commands = try Self.commandNames(path)
        #expect(commands.contains("LC_DYLD_INFO_ONLY"))
        #expect(!commands.contains("LC_DYLD_CHAINED_FIXUPS"))
        let version = try #require(try Self.buildVersion(path))
        #expect(version["platform"] == "ios")
        #expect(version["minos"] == "15.0")
        #expect(version["sdk"] == "17.0")
        #expect(try Oracle.dylibsUsed(path) == ["@rpath/Uploader.framework/Uploader"] + Self.sdkDylibs)

        let imports = try Oracle.undefinedSymbols(path)
        #expect(imports["_OBJC_CLASS_$_UIApplication"] == "UIKit")
        #expect(imports["_OBJC_CLASS_$_NSURL"] == "Foundation")
        #expect(imports["_objc_msgSend"] == "libobjc")
        #expect(imports["___CFConstantStringClassReference"] == "CoreFoundation")
        let bindings = try Oracle.bindings(path)
        #expect(bindings.contains(Binding(section: "__objc_classrefs", library: "UIKit", symbol: "_OBJC_CLASS_$_UIApplication")))
        #expect(bindings.contains(Binding(section: "__la_symbol_ptr", library: "libobjc", symbol: "_objc_msgSend")))
        #expect(try Oracle.selectorReferences(path) == Self.uploaderMessages)
    }

    /// Swifty links the Swift runtime by @rpath, with /usr/lib/swift as its
    /// first LC_RPATH, as Xcode links a Swift framework.
    @Test func swiftRuntimeUser() throws {
        let path = try MachOFixture.swiftRuntimeUser.path()
        #expect(try Oracle.header(path).fileType == "DYLIB")
        #expect(
            try Oracle.dylibsUsed(path) == [
                "@rpath/Swifty.framework/Swifty", "/usr/lib/libSystem.B.dylib", "@rpath/libswiftCore.dylib",
                "@rpath/libswiftFoundation.dylib",
            ])
        #expect(
            try Oracle.loadCommands(path).filter { $0.command == "LC_RPATH" }.compactMap { $0.fields["path"] }
                == ["/usr/lib/swift", "@executable_path/Frameworks", "@loader_path/Frameworks"])
        let imports = try Oracle.undefinedSymbols(path)
        #expect(imports["_swift_retain"] == "libswiftCore")
        #expect(imports["_$s10Foundation4DataVN"] == "libswiftFoundation")
    }

    /// The chained linker writes relative method lists, whose method names
    /// are selector references too: Uploader's own methods join the list.
    @Test func uploaderWithChainedFixups() throws {
        let path = try MachOFixture.uploaderChained.path()
        #expect(try Oracle.header(path).fileType == "DYLIB")
        #expect(try !Oracle.isApplicationExtensionSafe(path))
        let commands = try Self.commandNames(path)
        #expect(commands.isSuperset(of: ["LC_DYLD_CHAINED_FIXUPS", "LC_DYLD_EXPORTS_TRIE", "LC_BUILD_VERSION"]))
        #expect(!commands.contains("LC_DYLD_INFO_ONLY"))
        #expect(!commands.contains("LC_DYLD_INFO"))
        #expect(try Self.buildVersion(path)?["platform"] == "ios")
        #expect(try Oracle.chainedPointerFormats(path) == ["DYLD_CHAINED_PTR_64"])
        #expect(try Oracle.dylibsUsed(path) == ["@rpath/Uploader.framework/Uploader"] + Self.sdkDylibs)

        #expect(try Oracle.undefinedSymbols(path)["_OBJC_CLASS_$_UIApplication"] == "UIKit")
        let bindings = try Oracle.bindings(path)
        #expect(bindings.contains(Binding(section: "__objc_classrefs", library: "UIKit", symbol: "_OBJC_CLASS_$_UIApplication")))
        #expect(bindings.contains(Binding(section: "__got", library: "libobjc", symbol: "_objc_msgSend")))
        #expect(try Oracle.sections(path).contains("__objc_methlist"))
        #expect(try Oracle.selectorReferences(path) == Self.uploaderMessages.union(["initWithEndpoint:", "upload:", "retry:"]))
    }

    @Test func fatImageKitIsFlaggedInEverySlice() throws {
        let path = try MachOFixture.imageKitFat.path()
        #expect(try Oracle.architectures(path) == ["x86_64", "arm64"])
        for (arch, cpuType, platform) in [("x86_64", "X86_64", "iossimulator"), ("arm64", "ARM64", "ios")] {
            let header = try Oracle.header(path, arch: arch)
            #expect(header.cpuType == cpuType)
            #expect(header.flags.contains("APP_EXTENSION_SAFE"), "\(arch)")
            #expect(try Oracle.isApplicationExtensionSafe(path, arch: arch), "\(arch)")
            #expect(try Self.commandNames(path, arch: arch).contains("LC_DYLD_INFO_ONLY"))
            #expect(try Self.buildVersion(path, arch: arch)?["platform"] == platform)
            // IKPreviewView subclasses UIView: its class and metaclass bind to UIKit's.
            let imports = try Oracle.undefinedSymbols(path, arch: arch)
            #expect(imports["_OBJC_CLASS_$_UIView"] == "UIKit")
            #expect(imports["_OBJC_METACLASS_$_UIView"] == "UIKit")
            #expect(
                try Oracle.bindings(path, arch: arch).contains(
                    Binding(section: "__objc_data", library: "UIKit", symbol: "_OBJC_METACLASS_$_UIView")))
            #expect(
                try Oracle.selectorReferences(path, arch: arch) == [
                    "dataWithContentsOfURL:", "mainScreen", "scale", "imageWithData:scale:", "setNeedsDisplay",
                ])
        }
    }

    /// Sneaky names UIApplication, sharedApplication and openURL: only in
    /// strings: nothing links it to UIKit.
    @Test func sneakyReachesSharedApplicationOnlyByName() throws {
        let path = try MachOFixture.sneakyFatChained.path()
        #expect(try Oracle.architectures(path) == ["x86_64", "arm64"])
        for arch in ["x86_64", "arm64"] {
            #expect(try Oracle.isApplicationExtensionSafe(path, arch: arch), "\(arch)")
            #expect(try Oracle.usesChainedFixups(path, arch: arch))
            #expect(try !Oracle.dylibsUsed(path, arch: arch).contains { $0.contains("UIKit") })
            let imports = try Oracle.undefinedSymbols(path, arch: arch)
            #expect(imports["_NSClassFromString"] == "Foundation")
            #expect(imports["_NSSelectorFromString"] == "Foundation")
            #expect(!imports.keys.contains { $0.contains("UIApplication") })
            #expect(try Oracle.selectorReferences(path, arch: arch) == ["respondsToSelector:", "performSelector:withObject:", "openLink:"])
            // The CFString literals' bytes; lld also puts class names and
            // type encodings in __cstring, and selectors in __objc_methname.
            #expect(
                Set(try Oracle.cStrings(path, arch: arch).values) == [
                    "UIApplication", "sharedApplication", "openURL:", "SNKLinkOpener", "B24@0:8@16",
                ])
        }
    }

    @Test func legacyForTheArm64Simulator() throws {
        let path = try MachOFixture.legacySimulator.path()
        #expect(try Oracle.architectures(path) == ["arm64"])
        #expect(try Oracle.header(path).cpuType == "ARM64")
        #expect(try Self.buildVersion(path)?["platform"] == "iossimulator")
        #expect(try !Oracle.isApplicationExtensionSafe(path))
        #expect(try Oracle.undefinedSymbols(path)["_OBJC_CLASS_$_NSUserDefaults"] == "Foundation")
    }

    @Test func thirtyTwoBitOnlyFramework() throws {
        let path = try MachOFixture.codec32.path()
        #expect(try Oracle.architectures(path) == ["armv7"])
        #expect(
            try Oracle.header(path)
                == Oracle.Header(
                    magic: "MH_MAGIC", cpuType: "ARM", cpuSubtype: "V7", fileType: "DYLIB",
                    flags: ["NOUNDEFS", "DYLDLINK", "TWOLEVEL", "NO_REEXPORTED_DYLIBS", "APP_EXTENSION_SAFE"]))
        #expect(try Oracle.isApplicationExtensionSafe(path))
        #expect(try Oracle.dylibsUsed(path) == ["@rpath/Codec.framework/Codec", "/usr/lib/libSystem.B.dylib"])
        #expect(try Oracle.undefinedSymbols(path) == ["dyld_stub_binder": "libSystem"])
    }

    /// lld 14 cannot link 32-bit ARM code that needs relocations, which is
    /// why the 32-bit fixture is leaf C only.
    @Test func armv7ObjectiveCDoesNotLink() throws {
        let directory = try Fixtures.temporaryDirectory()
        #expect {
            try MachOFixtures.link(
                MachOFixtures.Image(
                    sources: MachOFixtures.photosAppSources("Frameworks/Legacy/LGSettingsMigrator.m"),
                    product: .dylib(installName: "@rpath/Legacy.framework/Legacy"), target: .armv7),
                to: directory.path("Legacy"))
        } throws: { error in
            "\(error)".contains("relocation")
        }
    }

    /// Swift's lld refuses an object that names iOS in LC_BUILD_VERSION,
    /// which is why chained images are assembled without .build_version.
    @Test func theChainedLinkerRefusesObjectsWithABuildVersion() throws {
        let directory = try Fixtures.temporaryDirectory()
        let object = try MachOFixtures.compileObject(
            MachOFixtures.sourceDirectory.appendingPathComponent("static-counter.c"), for: .arm64, to: directory.path("counter.o"))
        let output = try Command.capture(
            MachOFixtures.Linker.chainedFixups.executable.path,
            [
                "-fixup_chains", "-arch", "arm64", "-platform_version", "ios", "15.0", "17.0", "-dylib",
                "-syslibroot", MachOFixtures.sdk.path, "-lSystem", "-o", directory.path("counter").path, object.path,
            ])
        #expect(output.status != 0)
        #expect(output.standardError.contains("This version of lld does not support linking for platform iOS"))
    }

    @Test func selectorStubs() throws {
        let path = try MachOFixture.selectorStubs.path()
        #expect(try Oracle.usesChainedFixups(path))
        #expect(try Oracle.sections(path).contains("__objc_stubs"))
        #expect(try Oracle.selectorReferences(path) == ["sharedApplication", "openURL:"])
        let bindings = try Oracle.bindings(path)
        #expect(bindings.contains(Binding(section: "__objc_classrefs", library: "UIKit", symbol: "_OBJC_CLASS_$_UIApplication")))
        #expect(bindings.contains(Binding(section: "__got", library: "libobjc", symbol: "_objc_msgSend")))
        #expect(
            try Oracle.undefinedSymbols(path).keys.contains("_objc_msgSend$sharedApplication") == false,
            "the stubs are defined in the image, not imported")
    }

    @Test func loadableBundle() throws {
        let path = try MachOFixture.plugInBundle.path()
        #expect(path.lastPathComponent == "FilterPlugin")
        #expect(try Oracle.header(path).fileType == "BUNDLE")
        #expect(try !Self.commandNames(path).contains("LC_ID_DYLIB"))
        #expect(try Oracle.undefinedSymbols(path)["_OBJC_CLASS_$_NSBundle"] == "Foundation")
        #expect(try Oracle.selectorReferences(path) == ["mainBundle", "bundleIdentifier"])
    }

    @Test func staticFrameworkOfObjectFiles() throws {
        let path = try MachOFixture.staticFramework.path()
        #expect(path.path.hasSuffix("Tracker.framework/Tracker"))
        #expect(try Oracle.architectures(path) == ["x86_64", "arm64"])
        for arch in ["x86_64", "arm64"] {
            #expect(try Oracle.archiveMembers(path, arch: arch) == ["static-tracker.o", "static-counter.o"])
            #expect(try Oracle.header(path, arch: arch).fileType == "OBJECT")
            #expect(try Self.commandNames(path, arch: arch).contains("LC_BUILD_VERSION"))
            // In an object file nothing says which library a symbol comes from.
            let imports = try Oracle.undefinedSymbols(path, arch: arch)
            #expect(imports["_OBJC_CLASS_$_UIApplication"] == .some(nil))
            #expect(imports["_objc_msgSend"] == .some(nil))
        }
    }

    @Test func appWithShareExtension() throws {
        let app = try MachOFixture.appWithShareExtension.path()
        #expect(app.lastPathComponent == "Mini.app")
        let appex = app.appendingPathComponent("PlugIns/Share.appex")
        let share = appex.appendingPathComponent("Share")
        let executable = app.appendingPathComponent("Mini")
        let uploader = app.appendingPathComponent("Frameworks/Uploader.framework/Uploader")

        let plist = try Data(contentsOf: appex.appendingPathComponent("Info.plist"))
        #expect(plist.starts(with: Array("bplist00".utf8)))
        let info = try #require(try PropertyListSerialization.propertyList(from: plist, format: nil) as? [String: Any])
        let nsExtension = try #require(info["NSExtension"] as? [String: Any])
        #expect(nsExtension["NSExtensionPointIdentifier"] as? String == "com.apple.share-services")
        #expect(nsExtension["NSExtensionPrincipalClass"] as? String == "SXShareViewController")
        #expect(info["CFBundlePackageType"] as? String == "XPC!")
        for bundle in [app, uploader.deletingLastPathComponent()] {
            let data = try Data(contentsOf: bundle.appendingPathComponent("Info.plist"))
            #expect(data.starts(with: Array("<?xml".utf8)), "\(bundle.lastPathComponent)")
        }

        // Linked with -application_extension, but executables never get the flag.
        #expect(try Oracle.header(share).fileType == "EXECUTE")
        #expect(try !Oracle.isApplicationExtensionSafe(share))
        #expect(try Oracle.rpaths(share) == ["@executable_path/Frameworks", "@executable_path/../../Frameworks"])
        #expect(try Self.commandNames(share).contains("LC_MAIN"))
        #expect(try Oracle.dylibsUsed(share) == Self.sdkDylibs + ["@rpath/Uploader.framework/Uploader"])
        let imports = try Oracle.undefinedSymbols(share)
        #expect(imports["_NSExtensionMain"] == "Foundation")
        #expect(imports["_OBJC_CLASS_$_UPUploader"] == "Uploader")
        #expect(imports["_OBJC_METACLASS_$_UIViewController"] == "UIKit")

        #expect(try Oracle.header(executable).fileType == "EXECUTE")
        #expect(try Oracle.rpaths(executable) == ["@executable_path/Frameworks"])
        #expect(try Oracle.undefinedSymbols(executable)["_OBJC_CLASS_$_UIApplication"] == "UIKit")
        #expect(try Oracle.dylibsUsed(uploader).first == "@rpath/Uploader.framework/Uploader")
    }

    @Test func chainedExtensionLinksAFrameworkThroughATextStub() throws {
        let path = try MachOFixture.shareExtensionChained.path()
        #expect(try Oracle.header(path).fileType == "EXECUTE")
        #expect(try Oracle.usesChainedFixups(path))
        #expect(try Self.commandNames(path).contains("LC_MAIN"))
        #expect(try Oracle.rpaths(path) == ["@executable_path/../../Frameworks"])
        #expect(try Oracle.dylibsUsed(path).last == "@rpath/Uploader.framework/Uploader")
        let bindings = try Oracle.bindings(path)
        #expect(bindings.contains(Binding(section: "__objc_classrefs", library: "Uploader", symbol: "_OBJC_CLASS_$_UPUploader")))
        #expect(bindings.contains(Binding(section: "__got", library: "Foundation", symbol: "_NSExtensionMain")))
        #expect(try Oracle.selectorReferences(path).isSuperset(of: ["extensionContext", "initWithEndpoint:", "upload:", "retry:"]))
    }

    // MARK: - The PhotosApp sample

    static let photosFrameworks = ["Uploader", "SyncKit", "ImageKit", "Legacy", "Sneaky", "Plugin"]

    @Test func photosAppBundleLayout() throws {
        let app = try MachOFixtures.photosApp()
        let files = try #require(FileManager.default.subpaths(atPath: app.path)).filter {
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: app.appendingPathComponent($0).path, isDirectory: &isDirectory)
                && !isDirectory.boolValue
        }
        #expect(
            Set(files)
                == Set(
                    ["Photos", "Info.plist", "PlugIns/PhotosShare.appex/PhotosShare", "PlugIns/PhotosShare.appex/Info.plist"]
                        + Self.photosFrameworks.flatMap { ["Frameworks/\($0).framework/\($0)", "Frameworks/\($0).framework/Info.plist"] }))

        let plist = try Data(contentsOf: app.appendingPathComponent("PlugIns/PhotosShare.appex/Info.plist"))
        #expect(plist.starts(with: Array("bplist00".utf8)))
        let info = try #require(try PropertyListSerialization.propertyList(from: plist, format: nil) as? [String: Any])
        let nsExtension = try #require(info["NSExtension"] as? [String: Any])
        #expect(nsExtension["NSExtensionPointIdentifier"] as? String == "com.apple.share-services")
        #expect(nsExtension["NSExtensionPrincipalClass"] as? String == "PSShareViewController")
        for name in Self.photosFrameworks {
            let data = try Data(contentsOf: app.appendingPathComponent("Frameworks/\(name).framework/Info.plist"))
            let framework = try #require(try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
            #expect(framework["CFBundleExecutable"] as? String == name)
            #expect(framework["CFBundlePackageType"] as? String == "FMWK")
        }
    }

    @Test(arguments: [
        ("Uploader", false), ("SyncKit", true), ("ImageKit", true), ("Legacy", false), ("Sneaky", true), ("Plugin", false),
    ])
    func photosAppFrameworkFlags(name: String, flagged: Bool) throws {
        let binary = try MachOFixtures.photosApp().appendingPathComponent("Frameworks/\(name).framework/\(name)")
        for arch in try Oracle.architectures(binary) {
            #expect(try Oracle.isApplicationExtensionSafe(binary, arch: arch) == flagged, "\(name) \(arch)")
            #expect(try Oracle.header(binary, arch: arch).fileType == "DYLIB")
            #expect(try Oracle.dylibsUsed(binary, arch: arch).first == "@rpath/\(name).framework/\(name)")
            #expect(try Oracle.usesChainedFixups(binary, arch: arch) == (name == "Plugin"), "\(name) \(arch)")
        }
        #expect(try Oracle.architectures(binary) == (name == "ImageKit" ? ["x86_64", "arm64"] : ["arm64"]))
    }

    @Test func photosAppImages() throws {
        let app = try MachOFixtures.photosApp()
        let frameworks = app.appendingPathComponent("Frameworks")

        let uploader = frameworks.appendingPathComponent("Uploader.framework/Uploader")
        #expect(try Oracle.selectorReferences(uploader) == Self.uploaderMessages)
        let syncKit = frameworks.appendingPathComponent("SyncKit.framework/SyncKit")
        #expect(try Oracle.dylibsUsed(syncKit).contains("@rpath/Uploader.framework/Uploader"))
        #expect(try Oracle.undefinedSymbols(syncKit)["_OBJC_CLASS_$_UPUploader"] == "Uploader")
        #expect(try !Oracle.undefinedSymbols(syncKit).keys.contains("_OBJC_CLASS_$_UIApplication"))

        let sneaky = frameworks.appendingPathComponent("Sneaky.framework/Sneaky")
        #expect(try Oracle.selectorReferences(sneaky) == ["respondsToSelector:", "performSelector:withObject:"])
        #expect(try Set(Oracle.cStrings(sneaky).values).isSuperset(of: ["UIApplication", "sharedApplication", "openURL:"]))

        let plugin = frameworks.appendingPathComponent("Plugin.framework/Plugin")
        #expect(try Oracle.selectorReferences(plugin) == ["defaultDeviceWithMediaType:", "startRunning", "isRunning", "stopRunning"])
        #expect(
            try Oracle.bindings(plugin).contains(
                Binding(section: "__objc_classrefs", library: "AVFoundation", symbol: "_OBJC_CLASS_$_AVCaptureSession")))

        let photos = app.appendingPathComponent("Photos")
        #expect(try Oracle.header(photos).fileType == "EXECUTE")
        #expect(try Oracle.rpaths(photos) == ["@executable_path/Frameworks"])
        let appImports = try Oracle.undefinedSymbols(photos)
        #expect(appImports["_dlopen"] == "libSystem")
        #expect(appImports["_dlsym"] == "libSystem")
        #expect(appImports["_OBJC_CLASS_$_UIApplication"] == "UIKit")
        #expect(try Oracle.cStrings(photos).values.contains("@rpath/Plugin.framework/Plugin"))
        #expect(try Oracle.selectorReferences(photos).isSuperset(of: ["sharedApplication", "currentDevice", "systemVersion"]))

        let share = app.appendingPathComponent("PlugIns/PhotosShare.appex/PhotosShare")
        #expect(try Oracle.header(share).fileType == "EXECUTE")
        #expect(try !Oracle.isApplicationExtensionSafe(share))
        #expect(try Oracle.rpaths(share) == ["@executable_path/Frameworks", "@executable_path/../../Frameworks"])
        #expect(
            try Oracle.dylibsUsed(share) == Self.sdkDylibs
                + ["SyncKit", "ImageKit", "Legacy", "Sneaky"].map { "@rpath/\($0).framework/\($0)" })
        let shareImports = try Oracle.undefinedSymbols(share)
        #expect(shareImports["_NSExtensionMain"] == "Foundation")
        #expect(!shareImports.keys.contains("_OBJC_CLASS_$_UIApplication"))
        #expect(
            try Oracle.selectorReferences(share).isSuperset(of: ["extensionContext", "completeRequestReturningItems:completionHandler:"]))
    }
}
