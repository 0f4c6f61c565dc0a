import Foundation
import LinkCheckImage
import LinkCheckInspection
import LinkCheckTestSupport
import Testing

/// What the bundles around image files say, on bundles built from the
/// Mach-O fixtures and on the corpus's Carthage builds, with the
/// `Info.plist` values checked against the toolchain's `plutil`.
@Suite struct BundleLayoutTests {
    /// The images among `discovery`'s files, by path relative to `root`,
    /// with their placements.
    static func placements(_ discovery: Discovery, under root: URL) -> [String: BundlePlacement] {
        var placements: [String: BundlePlacement] = [:]
        for file in discovery.files where ImageInspector.isImage(path: file) {
            placements[String(file.dropFirst(root.path.count + 1))] = discovery.bundles.placement(ofFile: file)
        }
        return placements
    }

    /// The top dictionary of the property list at `path`, as `plutil
    /// -convert json` prints it.
    static func plutil(_ path: String) throws -> [String: Any] {
        let tool = URL(fileURLWithPath: Fixtures.clang).deletingLastPathComponent().appendingPathComponent("plutil").path
        let output = try Command.run(tool, ["-convert", "json", "-o", "-", path])
        return try #require(try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any])
    }

    /// `info` holds what `plutil` reads from its file.
    static func expectAgreesWithPlutil(_ info: InfoPlist?, file: String) throws {
        let info = try #require(info, "\(file)")
        let dictionary = try plutil(file)
        #expect(info.executable == dictionary["CFBundleExecutable"] as? String, "\(file)")
        #expect(info.identifier == dictionary["CFBundleIdentifier"] as? String, "\(file)")
        #expect(info.packageType == dictionary["CFBundlePackageType"] as? String, "\(file)")
        #expect(info.version == dictionary["CFBundleShortVersionString"] as? String, "\(file)")
        #expect(info.minimumOS == (dictionary["MinimumOSVersion"] ?? dictionary["LSMinimumSystemVersion"]) as? String, "\(file)")
        #expect(info.extensionPoint == (dictionary["NSExtension"] as? [String: Any])?["NSExtensionPointIdentifier"] as? String, "\(file)")
    }

    @Test func anAppsBundlesGiveEachImageItsRole() throws {
        let app = try MachOFixture.shopApp.path()
        let discovery = Discovery(paths: [app.path])
        let placements = Self.placements(discovery, under: app)
        #expect(
            placements.mapValues(\.role) == [
                "Shop": .app,
                "Frameworks/Uploader.framework/Uploader": .framework,
                "Frameworks/Camera.framework/Camera": .framework,
                "PlugIns/Share.appex/Share": .appExtension(type: .share),
                "PlugIns/Stickers.appex/Stickers": .appExtension(type: .imessage),
            ])
        #expect(placements.values.allSatisfy { $0.isExecutable && $0.outermost.path == app.path && $0.containingApp?.path == app.path })
        #expect(placements.mapValues(\.place) == Dictionary(uniqueKeysWithValues: placements.keys.map { ($0, $0) }))
        #expect(
            placements.mapValues(\.innermost.folderName) == [
                "Shop": "Shop.app", "Frameworks/Uploader.framework/Uploader": "Uploader.framework",
                "Frameworks/Camera.framework/Camera": "Camera.framework", "PlugIns/Share.appex/Share": "Share.appex",
                "PlugIns/Stickers.appex/Stickers": "Stickers.appex",
            ])
        #expect(placements.values.allSatisfy { $0.innermost.layout == .flat })
        #expect(placements["PlugIns/Share.appex/Share"]?.embeddingFolder == app.appendingPathComponent("PlugIns/Share.appex").path)
        #expect(placements["Frameworks/Camera.framework/Camera"]?.embeddingFolder == app.appendingPathComponent("Frameworks").path)
        // The share extension's Info.plist is binary, the others XML.
        for placement in placements.values {
            let file = placement.innermost.path + "/Info.plist"
            try Self.expectAgreesWithPlutil(placement.innermost.info, file: file)
            let binary = try Data(contentsOf: URL(fileURLWithPath: file)).starts(with: Array("bplist00".utf8))
            #expect(binary == (placement.innermost.name == "Share"), "\(file)")
        }
        #expect(discovery.bundles.incompleteBundles.isEmpty)
        #expect(discovery.bundles.assignsRoles)
    }

    @Test func anXCFrameworksLibrariesComeFromItsInfoPlist() throws {
        let xcframework = try MachOFixture.kitXCFramework.path()
        let placements = Self.placements(Discovery(paths: [xcframework.path]), under: xcframework)
        #expect(Set(placements.keys) == ["ios-arm64/Kit.framework/Kit", "ios-arm64_x86_64-simulator/Kit.framework/Kit"])
        #expect(
            placements["ios-arm64/Kit.framework/Kit"]?.library
                == XCFrameworkLibrary(
                    identifier: "ios-arm64", libraryPath: "Kit.framework", platform: "ios", variant: nil, architectures: ["arm64"]))
        #expect(
            placements["ios-arm64_x86_64-simulator/Kit.framework/Kit"]?.library
                == XCFrameworkLibrary(
                    identifier: "ios-arm64_x86_64-simulator", libraryPath: "Kit.framework", platform: "ios", variant: "simulator",
                    architectures: ["arm64", "x86_64"]))
        for placement in placements.values {
            #expect(placement.role == .framework)
            #expect(placement.outermost.kind == .xcframework)
            #expect(placement.innermost.kind == .framework)
            #expect(placement.isExecutable)
            #expect(placement.containingApp == nil)
            try Self.expectAgreesWithPlutil(placement.innermost.info, file: placement.innermost.path + "/Info.plist")
        }
        let info = try #require(placements.values.first?.outermost.info)
        #expect(info.packageType == "XFWK")
        #expect(info.libraries.map(\.identifier) == ["ios-arm64", "ios-arm64_x86_64-simulator"])
    }

    /// The corpus's Carthage builds: flat iOS and tvOS frameworks with binary
    /// plists, versioned macOS ones with XML plists, xcframework libraries
    /// without the xcframework's Info.plist (named by their folders), and a
    /// static framework.
    @Test func corpusFrameworks() throws {
        let corpus = Fixtures.corpusDirectory.appendingPathComponent("macho")
        let placements = Self.placements(Discovery(paths: [corpus.path]), under: corpus)
        let frameworks = placements.filter { $0.key.contains(".framework/") }
        #expect(frameworks.count == 8)
        // The macOS and Mac Catalyst builds are versioned (RxRelay's copy
        // holds the binary at the top, where the link to it was).
        let versioned = ["Qase__QuantiLogger/", "kkoless__LocationsApp/Carthage/Build/SnapKit.xcframework/", "stotic-dev__"]
        for (file, placement) in frameworks {
            #expect(placement.role == .framework, "\(file)")
            #expect(placement.isExecutable, "\(file)")
            #expect(placement.innermost.layout == (versioned.contains(where: file.hasPrefix) ? .versioned : .flat), "\(file)")
            let plist =
                placement.innermost.layout == .versioned
                ? placement.innermost.path + "/Versions/A/Resources/Info.plist" : placement.innermost.path + "/Info.plist"
            try Self.expectAgreesWithPlutil(placement.innermost.info, file: plist)
        }
        let snapKit = try #require(
            frameworks["kkoless__LocationsApp/Carthage/Build/SnapKit.xcframework/macos-arm64_x86_64/SnapKit.framework/Versions/A/SnapKit"])
        #expect(snapKit.outermost.folderName == "SnapKit.xcframework")
        #expect(snapKit.outermost.info == nil)
        #expect(
            snapKit.library
                == XCFrameworkLibrary(
                    identifier: "macos-arm64_x86_64", libraryPath: nil, platform: "macos", variant: nil, architectures: ["arm64", "x86_64"])
        )
        let rxRelay = try #require(frameworks.first { $0.key.hasSuffix("RxRelay.framework/RxRelay") }?.value)
        #expect(rxRelay.library?.variant == "maccatalyst")
        // Not in bundles: gimli-rs's loose test binaries.
        #expect(placements.keys.filter { $0.hasPrefix("gimli-rs__object-testfiles/") }.isEmpty)
    }

    @Test(arguments: [
        (
            "ios-arm64",
            XCFrameworkLibrary(identifier: "ios-arm64", libraryPath: nil, platform: "ios", variant: nil, architectures: ["arm64"])
        ),
        (
            "ios-arm64_x86_64-simulator",
            XCFrameworkLibrary(
                identifier: "ios-arm64_x86_64-simulator", libraryPath: nil, platform: "ios", variant: "simulator",
                architectures: ["arm64", "x86_64"])
        ),
        (
            "watchos-arm64_32_armv7k",
            XCFrameworkLibrary(
                identifier: "watchos-arm64_32_armv7k", libraryPath: nil, platform: "watchos", variant: nil,
                architectures: ["arm64_32", "armv7k"])
        ),
        (
            "ios-arm64e_arm64",
            XCFrameworkLibrary(
                identifier: "ios-arm64e_arm64", libraryPath: nil, platform: "ios", variant: nil, architectures: ["arm64e", "arm64"])
        ),
    ])
    func libraryFolderNames(name: String, library: XCFrameworkLibrary) {
        #expect(XCFrameworkLibrary(folderName: name) == library)
    }

    @Test(arguments: ["Headers", "ios", "ios-", "ios-sparc", "ios-arm64-watch", "ios-arm64_", "ios-x86", "ios-arm64-simulator-extra"])
    func notLibraryFolderNames(name: String) {
        #expect(XCFrameworkLibrary(folderName: name) == nil)
    }

    /// A damaged Info.plist, or one whose keys have values of the wrong
    /// type, is an error named by its file: the bundle cannot be checked as
    /// it says; it is still one, of its default executable.
    @Test(arguments: [
        ("not a property list", "not a property list (XML or binary)"),
        ("<?xml version=\"1.0\"?><plist version=\"1.0\"><array/></plist>", "its top level is not a dictionary"),
        (BundleLayoutTests.plist("<key>CFBundleExecutable</key><integer>7</integer>"), "its CFBundleExecutable is not a string"),
        (BundleLayoutTests.plist("<key>NSExtension</key><string>share</string>"), "its NSExtension is not a dictionary"),
        (
            BundleLayoutTests.plist("<key>NSExtension</key><dict><key>NSExtensionPointIdentifier</key><true/></dict>"),
            "its NSExtension.NSExtensionPointIdentifier is not a string"
        ),
        (
            BundleLayoutTests.plist(
                "<key>AvailableLibraries</key><array><dict><key>LibraryPath</key><string>Kit.framework</string></dict></array>"),
            "its AvailableLibraries[0] is not a library (a dictionary with a LibraryIdentifier and a SupportedPlatform)"
        ),
    ])
    func aDamagedInfoPlistIsAnError(contents: String, reason: String) throws {
        let directory = try Fixtures.temporaryDirectory()
        let framework = directory.path("Broken.framework")
        try FileManager.default.createDirectory(at: framework, withIntermediateDirectories: true)
        try contents.write(to: framework.appendingPathComponent("Info.plist"), atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(at: try MachOFixture.uploader.path(), to: framework.appendingPathComponent("Broken"))
        let discovery = Discovery(paths: [directory.url.path])
        let plist = framework.appendingPathComponent("Info.plist").path
        #expect(discovery.errors == [.infoPlist(path: plist, reason: reason)])
        #expect(discovery.errors.first?.description == "\(plist): \(reason): its bundle cannot be checked as its Info.plist says")
        let placement = try #require(discovery.bundles.placement(ofFile: framework.appendingPathComponent("Broken").path))
        #expect(placement.innermost.info == nil)
        #expect(placement.isExecutable)
        #expect(placement.role == .framework)
    }

    /// The keys the upload checks read: `CFBundleVersion` and the
    /// `NSExtension` entry's; one of the wrong type reads as absent (the
    /// check that wants it then says it is missing), the plist still read.
    @Test func theKeysTheUploadChecksReadAreRead() throws {
        let directory = try Fixtures.temporaryDirectory()
        let file = directory.path("Info.plist")
        try BundleLayoutTests.plist(
            "<key>CFBundleVersion</key><string>240</string><key>NSExtension</key><dict>"
                + "<key>NSExtensionPointIdentifier</key><string>com.apple.share-services</string>"
                + "<key>NSExtensionMainStoryboard</key><string>MainInterface</string>"
                + "<key>NSExtensionPrincipalClass</key><integer>1</integer></dict>"
        ).write(to: file, atomically: true, encoding: .utf8)
        let info = try InfoPlist(contentsOf: file.path)
        #expect(info.bundleVersion == "240")
        #expect(
            info.nsExtension
                == InfoPlist.ExtensionKeys(
                    pointIdentifier: "com.apple.share-services", principalClass: nil, mainStoryboard: "MainInterface"))
        try BundleLayoutTests.plist("<key>CFBundleVersion</key><integer>240</integer>").write(to: file, atomically: true, encoding: .utf8)
        let bare = try InfoPlist(contentsOf: file.path)
        #expect(bare.bundleVersion == nil && bare.nsExtension == nil)
    }

    /// An XML property list whose top dictionary holds `keys`.
    static func plist(_ keys: String) -> String {
        "<?xml version=\"1.0\"?><plist version=\"1.0\"><dict>\(keys)</dict></plist>"
    }

    @Test func anInfoPlistLargerThanAnyRealOneIsNotRead() throws {
        let directory = try Fixtures.temporaryDirectory()
        let app = directory.path("Big.app")
        try FileManager.default.createDirectory(at: app, withIntermediateDirectories: true)
        let file = app.appendingPathComponent("Info.plist")
        #expect(FileManager.default.createFile(atPath: file.path, contents: nil))
        let handle = try FileHandle(forWritingTo: file)
        try handle.truncate(atOffset: UInt64(InfoPlist.maximumSize + 1))
        try handle.close()
        #expect(
            throws: InfoPlist.Problem(
                path: file.path, reason: "\(InfoPlist.maximumSize + 1) bytes, more than an Info.plist can be (\(InfoPlist.maximumSize))")
        ) {
            try InfoPlist(contentsOf: file.path)
        }
    }
}
