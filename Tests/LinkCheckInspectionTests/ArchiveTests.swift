import Foundation
import LinkCheckImage
import LinkCheckInspection
import LinkCheckTestSupport
import Testing

/// `.ipa` archives: what is unpacked and named how, and hostile archives
/// (cut short, names that climb out, links, bombs), after each of which the
/// temporary folder given is empty again.
@Suite struct ArchiveTests {
    /// A test's folder: the archive goes in it, and `temporary`, the folder
    /// given to unpack into.
    struct Workspace {
        let directory: TemporaryDirectory
        let temporary: URL

        init() throws {
            directory = try Fixtures.temporaryDirectory()
            temporary = directory.path("tmp")
            try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        }

        /// What is left in ``temporary``.
        func leftOver() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: temporary.path)
        }

        /// Writes an archive named `name` with `entries`.
        func archive(_ name: String = "App.ipa", _ entries: (ZipWriter) throws -> Void) throws -> URL {
            let url = directory.path(name)
            let writer = try ZipWriter(path: url)
            try entries(writer)
            try writer.close()
            return url
        }
    }

    /// Every file under `folder`, relative to it.
    static func files(under folder: URL) throws -> Set<String> {
        var files = Set<String>()
        for relative in try FileManager.default.subpathsOfDirectory(atPath: folder.path) {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent(relative).path, isDirectory: &isDirectory),
                !isDirectory.boolValue
            {
                files.insert(relative)
            }
        }
        return files
    }

    /// The app's binaries and Info.plist files are unpacked byte for byte;
    /// its other files are resources, neither unpacked nor counted, and
    /// what is outside `Payload/*.app` is passed over.
    @Test func anIPAUnpacksTheAppsBinariesAndInfoPlists() throws {
        let workspace = try Workspace()
        let app = try MachOFixture.shopApp.path()
        let ipa = try workspace.archive("Shop.ipa") { zip in
            try zip.addDirectory(app, as: "Payload/Shop.app")
            try zip.addFile("Payload/Shop.app/Assets.car", contents: Data("asset catalogue".utf8))
            try zip.addFile("SwiftSupport/iphoneos/libswiftCore.dylib", contents: try Data(contentsOf: try MachOFixture.uploader.path()))
            try zip.addFile("iTunesMetadata.plist", contents: Data("<plist/>".utf8))
        }
        let unpacked = try UnpackedArchive.unpack(ipa.path, temporaryDirectory: workspace.temporary.path)
        let folder = URL(fileURLWithPath: unpacked.folder)
        #expect(folder.deletingLastPathComponent().path == workspace.temporary.path)
        let appFiles = try Self.files(under: app)
        #expect(try Self.files(under: folder) == Set(appFiles.map { "Payload/Shop.app/" + $0 }))
        for file in appFiles {
            #expect(
                try Data(contentsOf: folder.appendingPathComponent("Payload/Shop.app/" + file))
                    == Data(contentsOf: app.appendingPathComponent(file)))
        }
        #expect(
            unpacked.skipped.map { "\($0.path): \($0.reason)" } == [
                "\(ipa.path):SwiftSupport/iphoneos/libswiftCore.dylib: outside the app (Payload/*.app), not unpacked",
                "\(ipa.path):iTunesMetadata.plist: outside the app (Payload/*.app), not unpacked",
            ])
        unpacked.remove()
        #expect(try workspace.leftOver().isEmpty)
    }

    /// Discovery names what it found in an archive `archive:entry`, and its
    /// bundles are read from the unpacked Info.plist files.
    @Test func discoveryNamesTheArchivesEntries() throws {
        let workspace = try Workspace()
        let app = try MachOFixture.shopApp.path()
        let ipa = try workspace.archive("Shop.ipa") { try $0.addDirectory(app, as: "Payload/Shop.app") }
        try Discovery.withUnpackedInputs(paths: [ipa.path], temporaryDirectory: workspace.temporary.path) { discovery in
            #expect(discovery.errors.isEmpty)
            #expect(discovery.archives.map(\.archive) == [ipa.path])
            let images = discovery.files.filter { ImageInspector.isImage(path: $0) }
            #expect(
                Set(images.map(discovery.displayPath(of:)))
                    == Set(
                        [
                            "Shop", "Frameworks/Uploader.framework/Uploader", "Frameworks/Camera.framework/Camera",
                            "PlugIns/Share.appex/Share",
                            "PlugIns/Stickers.appex/Stickers",
                        ].map { "\(ipa.path):Payload/Shop.app/\($0)" }))
            #expect(images.map { discovery.entry(forFile: $0)?.archive } == Array(repeating: ipa.path, count: 5))
            let share = try #require(images.first { $0.hasSuffix("/Share") }.flatMap(discovery.bundles.placement(ofFile:)))
            #expect(share.role == .appExtension(type: .share))
            #expect(share.outermost.displayPath == "\(ipa.path):Payload/Shop.app")
            #expect(share.place == "PlugIns/Share.appex/Share")
            #expect(share.innermost.info?.path == "\(ipa.path):Payload/Shop.app/PlugIns/Share.appex/Info.plist")
            // dyld's search paths are named in the archive, `..` taken out.
            let unpacked = try #require(discovery.archives.first)
            #expect(
                discovery.displayPath(of: unpacked.folder + "/Payload/Shop.app/PlugIns/Share.appex/../../Frameworks")
                    == "\(ipa.path):Payload/Shop.app/Frameworks")
            #expect(!(try workspace.leftOver().isEmpty))
        }
        #expect(try workspace.leftOver().isEmpty)
    }

    /// The folder an archive was unpacked into is removed however the body
    /// of the walk's scope ends, throwing too.
    @Test func theUnpackedFilesAreRemovedWhenTheBodyThrows() throws {
        struct Stop: Error {}
        let workspace = try Workspace()
        let ipa = try workspace.archive("Shop.ipa") { try $0.addDirectory(try MachOFixture.shopApp.path(), as: "Payload/Shop.app") }
        #expect(throws: Stop.self) {
            try Discovery.withUnpackedInputs(paths: [ipa.path], temporaryDirectory: workspace.temporary.path) { discovery in
                #expect(discovery.files.count > 1)
                #expect(!(try workspace.leftOver().isEmpty))
                throw Stop()
            }
        }
        #expect(try workspace.leftOver().isEmpty)
    }

    /// A zipped xcframework, framework or app (with or without `Payload/`),
    /// as SwiftPM binary targets and CI artifacts arrive, is read like an
    /// `.ipa`: its bundles' binaries and Info.plist files are unpacked and
    /// named `archive:entry`; headers, module maps, licences, signatures
    /// and resources in the bundles are not counted as passed over, what
    /// lies outside them is.
    @Test func zippedBundlesAreReadLikeAnIPA() throws {
        let workspace = try Workspace()
        let kit = try MachOFixture.kitXCFramework.path()
        let shop = try MachOFixture.shopApp.path()
        let resources = [
            "LICENSE", "NOTICE", "Headers/Kit.h", "Modules/module.modulemap", "_CodeSignature/CodeResources", "Base.lproj/Main.nib",
            "Assets.car", "en.lproj/Localizable.strings", "icon.png", "PrivacyInfo.json",
        ]
        let xcframework = try workspace.archive("Kit.xcframework.zip") { zip in
            try zip.addDirectory(kit, as: "Kit.xcframework")
            try zip.addFile("Kit.xcframework/LICENSE", contents: Data("MIT".utf8))
            for resource in resources { try zip.addFile("Kit.xcframework/ios-arm64/Kit.framework/\(resource)", contents: Data("x".utf8)) }
            try zip.addFile("__MACOSX/Kit.xcframework/._Info.plist", contents: Data("resource fork".utf8))
        }
        let framework = try workspace.archive("Uploader.framework.zip") { zip in
            try zip.addDirectory(shop.appendingPathComponent("Frameworks/Uploader.framework"), as: "Uploader.framework")
            for resource in resources { try zip.addFile("Uploader.framework/\(resource)", contents: Data("x".utf8)) }
        }
        let app = try workspace.archive("Shop.zip") { try $0.addDirectory(shop, as: "Shop.app") }
        let payload = try workspace.archive("Shop-build-42.zip") { try $0.addDirectory(shop, as: "Payload/Shop.app") }
        try Discovery.withUnpackedInputs(paths: [workspace.directory.url.path], temporaryDirectory: workspace.temporary.path) { discovery in
            #expect(discovery.errors.isEmpty, "\(discovery.errors)")
            #expect(Set(discovery.archives.map(\.archive)) == Set([xcframework, framework, app, payload].map(\.path)))
            let images = discovery.files.filter { ImageInspector.isImage(path: $0) }.map(discovery.displayPath(of:))
            let shopImages = [
                "Shop", "Frameworks/Uploader.framework/Uploader", "Frameworks/Camera.framework/Camera", "PlugIns/Share.appex/Share",
                "PlugIns/Stickers.appex/Stickers",
            ]
            #expect(
                Set(images)
                    == Set(
                        [
                            "\(xcframework.path):Kit.xcframework/ios-arm64/Kit.framework/Kit",
                            "\(xcframework.path):Kit.xcframework/ios-arm64_x86_64-simulator/Kit.framework/Kit",
                            "\(framework.path):Uploader.framework/Uploader",
                        ]
                            + shopImages.map { "\(app.path):Shop.app/\($0)" } + shopImages.map { "\(payload.path):Payload/Shop.app/\($0)" })
            )
            #expect(
                discovery.skipped.map { "\($0.path): \($0.reason)" } == [
                    "\(xcframework.path):__MACOSX/Kit.xcframework/._Info.plist: outside the bundles (Payload/*.app; *.app, *.framework, *.xcframework, *.dSYM at the top or in Carthage/Build/; an .xcarchive's Products/Applications/*.app and dSYMs/*.dSYM), not unpacked"
                ])
            let kitImage = try #require(discovery.files.first { discovery.displayPath(of: $0).hasSuffix("ios-arm64/Kit.framework/Kit") })
            let placement = try #require(discovery.bundles.placement(ofFile: kitImage))
            #expect(placement.outermost.displayPath == "\(xcframework.path):Kit.xcframework")
            #expect(placement.library?.identifier == "ios-arm64")
            let share = try #require(
                discovery.files.first { discovery.displayPath(of: $0) == "\(app.path):Shop.app/PlugIns/Share.appex/Share" })
            #expect(discovery.bundles.placement(ofFile: share)?.role == .appExtension(type: .share))
        }
    }

    /// A Carthage zip (`carthage build --archive`): the frameworks in
    /// `Carthage/Build/<platform>/` and its `Static/`, and the DWARF file
    /// and `Info.plist` of the dSYM beside one, unpacked byte for byte; the
    /// dSYM's other files are not counted, and Carthage's version file,
    /// outside the bundles, is passed over.
    @Test func aCarthageZipUnpacksItsFrameworksAndTheirDSYMs() throws {
        let workspace = try Workspace()
        let build = try MachODebugBuild()
        let dsym = build.directory.path("Uploader.framework.dSYM")
        let dwarf = try MachODebugBuild.makeDSYM(of: build.framework, at: dsym)
        let tracker = try MachOFixture.staticFramework.path()
        let dSYMEntry = "Carthage/Build/iOS/Uploader.framework.dSYM"
        let zip = try workspace.archive("Uploader.framework.zip") { zip in
            try zip.addDirectory(build.framework.deletingLastPathComponent(), as: "Carthage/Build/iOS/Uploader.framework")
            try zip.addDirectory(dsym, as: dSYMEntry)
            try zip.addFile("\(dSYMEntry)/Contents/Info.plist", contents: Data("<plist/>".utf8))
            try zip.addFile("\(dSYMEntry)/Contents/Resources/Relocations/aarch64/Uploader.yml", contents: Data("---".utf8))
            try zip.addDirectory(tracker.deletingLastPathComponent(), as: "Carthage/Build/iOS/Static/Tracker.framework")
            try zip.addFile("Carthage/Build/.Uploader.version", contents: Data("{}".utf8))
        }
        let unpacked = try UnpackedArchive.unpack(zip.path, temporaryDirectory: workspace.temporary.path)
        let folder = URL(fileURLWithPath: unpacked.folder)
        #expect(
            try Self.files(under: folder) == [
                "Carthage/Build/iOS/Uploader.framework/Uploader", "\(dSYMEntry)/Contents/Info.plist",
                "\(dSYMEntry)/Contents/Resources/DWARF/Uploader", "Carthage/Build/iOS/Static/Tracker.framework/Tracker",
            ])
        #expect(
            try Data(contentsOf: folder.appendingPathComponent("\(dSYMEntry)/Contents/Resources/DWARF/Uploader"))
                == Data(contentsOf: dwarf))
        #expect(
            try Data(contentsOf: folder.appendingPathComponent("Carthage/Build/iOS/Static/Tracker.framework/Tracker"))
                == Data(contentsOf: tracker))
        #expect(
            unpacked.skipped.map { "\($0.path): \($0.reason)" } == [
                "\(zip.path):Carthage/Build/.Uploader.version: outside the bundles (Payload/*.app; *.app, *.framework, *.xcframework, *.dSYM at the top or in Carthage/Build/; an .xcarchive's Products/Applications/*.app and dSYMs/*.dSYM), not unpacked"
            ])
        unpacked.remove()
        #expect(try workspace.leftOver().isEmpty)
    }

    /// A zipped `.xcarchive` (`Shop.xcarchive.zip`): the app under
    /// `Products/Applications/` and the DWARF file and `Info.plist` of each
    /// dSYM of `dSYMs/`, unpacked byte for byte; the archive's own
    /// `Info.plist`, outside them, is passed over, as in the folder.
    @Test func aZippedXCArchiveUnpacksItsAppsAndDSYMs() throws {
        let workspace = try Workspace()
        let build = try MachODebugBuild()
        let dsym = build.directory.path("Uploader.framework.dSYM")
        let dwarf = try MachODebugBuild.makeDSYM(of: build.framework, at: dsym)
        let app = "Shop.xcarchive/Products/Applications/Shop.app"
        let zip = try workspace.archive("Shop.xcarchive.zip") { zip in
            try zip.addFile("Shop.xcarchive/Info.plist", contents: Data("<plist/>".utf8))
            try zip.addDirectory(try MachOFixture.shopApp.path(), as: app)
            try zip.addDirectory(dsym, as: "Shop.xcarchive/dSYMs/Uploader.framework.dSYM")
            try zip.addFile("Shop.xcarchive/dSYMs/Uploader.framework.dSYM/Contents/Info.plist", contents: Data("<plist/>".utf8))
        }
        let unpacked = try UnpackedArchive.unpack(zip.path, temporaryDirectory: workspace.temporary.path)
        let folder = URL(fileURLWithPath: unpacked.folder)
        let dSYMFiles: Set = [
            "Shop.xcarchive/dSYMs/Uploader.framework.dSYM/Contents/Info.plist",
            "Shop.xcarchive/dSYMs/Uploader.framework.dSYM/Contents/Resources/DWARF/Uploader",
        ]
        #expect(
            try Self.files(under: folder)
                == Set(try Self.files(under: try MachOFixture.shopApp.path()).map { "\(app)/\($0)" }).union(dSYMFiles))
        #expect(
            try Data(
                contentsOf: folder.appendingPathComponent("Shop.xcarchive/dSYMs/Uploader.framework.dSYM/Contents/Resources/DWARF/Uploader"))
                == Data(contentsOf: dwarf))
        #expect(
            try Data(contentsOf: folder.appendingPathComponent("\(app)/PlugIns/Share.appex/Share"))
                == Data(contentsOf: try MachOFixture.shopApp.path().appendingPathComponent("PlugIns/Share.appex/Share")))
        #expect(
            unpacked.skipped.map { "\($0.path): \($0.reason)" } == [
                "\(zip.path):Shop.xcarchive/Info.plist: outside the bundles (Payload/*.app; *.app, *.framework, *.xcframework, *.dSYM at the top or in Carthage/Build/; an .xcarchive's Products/Applications/*.app and dSYMs/*.dSYM), not unpacked"
            ])
        unpacked.remove()
        #expect(try workspace.leftOver().isEmpty)
    }

    /// A zipped `.xcframework` whose library carries its dSYM
    /// (`xcodebuild -create-xcframework … -debug-symbols`):
    /// `<library identifier>/dSYMs/X.framework.dSYM`'s DWARF file is
    /// unpacked byte for byte beside the library's framework.
    @Test func aZippedXCFrameworkKeepsItsLibrariesDSYMs() throws {
        let workspace = try Workspace()
        let build = try MachODebugBuild()
        let dsym = build.directory.path("Uploader.framework.dSYM")
        let dwarf = try MachODebugBuild.makeDSYM(of: build.framework, at: dsym)
        let library = "Uploader.xcframework/ios-arm64_x86_64-simulator"
        let zip = try workspace.archive("Uploader.xcframework.zip") { zip in
            try zip.addDirectory(build.framework.deletingLastPathComponent(), as: "\(library)/Uploader.framework")
            try zip.addDirectory(dsym, as: "\(library)/dSYMs/Uploader.framework.dSYM")
        }
        let unpacked = try UnpackedArchive.unpack(zip.path, temporaryDirectory: workspace.temporary.path)
        let folder = URL(fileURLWithPath: unpacked.folder)
        #expect(
            try Self.files(under: folder) == [
                "\(library)/Uploader.framework/Uploader", "\(library)/dSYMs/Uploader.framework.dSYM/Contents/Resources/DWARF/Uploader",
            ])
        #expect(
            try Data(
                contentsOf: folder.appendingPathComponent("\(library)/dSYMs/Uploader.framework.dSYM/Contents/Resources/DWARF/Uploader"))
                == Data(contentsOf: dwarf))
        #expect(unpacked.skipped.isEmpty)
        unpacked.remove()
        #expect(try workspace.leftOver().isEmpty)
    }

    /// A zip that holds no bundle: skipped and counted when met in a
    /// folder (a data archive beside the frameworks), an error when given.
    @Test func aZipWithoutABundleIsSkippedInAFolderAndAnErrorWhenGiven() throws {
        let workspace = try Workspace()
        let data = try workspace.archive("fixtures.zip") { zip in
            try zip.addFile("fixtures/photo.jpg", contents: Data("jpeg".utf8))
            try zip.addFile("README", contents: Data("data".utf8))
        }
        Discovery.withUnpackedInputs(paths: [workspace.directory.url.path], temporaryDirectory: workspace.temporary.path) { met in
            #expect(met.errors.isEmpty)
            #expect(met.skipped == [SkippedEntry(path: data.path, reason: "a zip archive that holds no app, framework or xcframework")])
        }
        Discovery.withUnpackedInputs(paths: [data.path], temporaryDirectory: workspace.temporary.path) { given in
            #expect(given.errors == [.archive(path: data.path, problem: .noBundle)])
            #expect(
                given.errors.first?.description
                    == "\(data.path): it holds no app, framework or xcframework (no Payload/*.app, *.app, *.framework or *.xcframework entry)"
            )
        }
        #expect(try workspace.leftOver().isEmpty)
    }

    /// Each hostile archive, and what unpacking it gives: an error naming
    /// the archive, or the entries passed over.
    enum Hostile: String, CaseIterable {
        case truncated, notAZip, climbingNames, links, bomb, emptyEntries, duplicateName, noApp
    }

    @Test(arguments: Hostile.allCases)
    func hostileArchivesLeaveNothingBehind(_ hostile: Hostile) throws {
        let workspace = try Workspace()
        let binary = try Data(contentsOf: try MachOFixture.uploader.path())
        let ipa: URL
        switch hostile {
        case .truncated:
            let whole = try workspace.archive { try $0.addDirectory(try MachOFixture.shopApp.path(), as: "Payload/Shop.app") }
            let data = try Data(contentsOf: whole)
            try data.prefix(data.count / 2).write(to: whole)
            ipa = whole
        case .notAZip:
            ipa = workspace.directory.path("App.ipa")
            try binary.write(to: ipa)
        case .climbingNames:
            ipa = try workspace.archive { zip in
                try zip.addFile("Payload/A.app/A", contents: binary)
                for name in [
                    "../evil", "Payload/A.app/../../../evil", "/tmp/evil-\(UUID().uuidString)", "Payload/A.app/..\\..\\evil",
                    "Payload/./A.app/x",
                ] {
                    try zip.addFile(name, contents: binary)
                }
            }
        case .links:
            ipa = try workspace.archive { zip in
                try zip.addSymbolicLink("Payload/A.app/Frameworks", to: "../../..")
                try zip.addSymbolicLink("Payload/A.app/A", to: "/etc/passwd")
                try zip.addFile("Payload/A.app/Frameworks/X.framework/X", contents: binary)
            }
        case .bomb:
            ipa = try workspace.archive { try $0.addZeros("Payload/Bomb.app/Bomb", size: 1 << 30) }
        case .emptyEntries:
            ipa = try workspace.archive { zip in
                for index in 0..<100_000 { try zip.addFile("Payload/E.app/\(index)", contents: Data()) }
            }
        case .duplicateName:
            ipa = try workspace.archive { zip in
                try zip.addFile("Payload/A.app/A", contents: binary)
                try zip.addFile("Payload/A.app/A", contents: binary)
            }
        case .noApp:
            ipa = try workspace.archive { try $0.addFile("README", contents: Data("no app".utf8)) }
        }
        let size = UInt64(try FileManager.default.attributesOfItem(atPath: ipa.path)[.size] as! Int)
        try Discovery.withUnpackedInputs(paths: [ipa.path], temporaryDirectory: workspace.temporary.path) { discovery in
            let problem: ArchiveProblem? = discovery.errors.first.flatMap {
                if case .archive(let path, let problem) = $0, path == ipa.path { problem } else { nil }
            }
            // The app whose executable was a link not made has none.
            #expect(discovery.errors.count == (problem == nil ? 0 : 1) + (hostile == .links ? 1 : 0))
            let limits = ArchiveLimits.standard
            switch hostile {
            case .truncated, .notAZip:
                guard case .unreadable = problem else { Issue.record("\(String(describing: problem))"); break }
            case .climbingNames:
                #expect(problem == nil)
                #expect(discovery.skipped.filter { $0.reason.contains("climbs out") }.count == 5)
                #expect(discovery.files.map(discovery.displayPath(of:)) == ["\(ipa.path):Payload/A.app/A"])
                // Nothing beside the archive and the private folder.
                #expect(try FileManager.default.contentsOfDirectory(atPath: workspace.directory.url.path).sorted() == ["App.ipa", "tmp"])
                #expect(!FileManager.default.fileExists(atPath: workspace.temporary.appendingPathComponent("evil").path))
            case .links:
                #expect(problem == nil)
                #expect(
                    discovery.skipped.filter { $0.kind == .link }.map(\.path)
                        == ["Payload/A.app/A", "Payload/A.app/Frameworks"].map { "\(ipa.path):\($0)" })
                let unpacked = try #require(discovery.archives.first)
                // The framework went into a real folder of the private one.
                let framework = unpacked.folder + "/Payload/A.app/Frameworks/X.framework/X"
                #expect(discovery.files == [framework])
                #expect(
                    discovery.errors.map(\.description) == [
                        "\(ipa.path):Payload/A.app: no executable: no Info.plist of it names its executable (CFBundleExecutable), so it is looked for as 'A', the bundle's name, and A.app/A does not exist"
                    ])
                for relative in try FileManager.default.subpathsOfDirectory(atPath: unpacked.folder) {
                    let type =
                        try FileManager.default.attributesOfItem(atPath: unpacked.folder + "/" + relative)[.type] as? FileAttributeType
                    #expect(type != .typeSymbolicLink, "\(relative)")
                }
            case .bomb:
                #expect(problem == .tooLarge(limit: limits.bytes(forArchiveOfSize: size)))
                #expect(size < 16 << 20)
            case .emptyEntries:
                #expect(limits.entries(forArchiveOfSize: size) < 100_000)
                #expect(problem == .tooManyEntries(limit: limits.entries(forArchiveOfSize: size)))
            case .duplicateName:
                #expect(problem == .conflictingEntry(entry: "Payload/A.app/A"))
            case .noApp:
                #expect(problem == .noApp)
            }
        }
        #expect(try workspace.leftOver().isEmpty)
    }

    @Test(
        arguments: [
            ("Payload/A.app/A", "Payload/A.app/A"), ("Payload/A.app/", "Payload/A.app"), ("../x", nil), ("/x", nil), ("a/../x", nil),
            ("a//x", nil), ("a/./x", nil), ("a\\..\\x", nil), ("", nil), ("..x/y", "..x/y"), ("a/x..", "a/x.."),
        ] as [(String, String?)])
    func entryNames(name: String, safe: String?) {
        #expect(UnpackedArchive.safeName(name) == safe)
    }

    @Test func limitsScaleWithTheArchive() {
        let limits = ArchiveLimits.standard
        #expect(limits.bytes(forArchiveOfSize: 1000) == 64 << 20)
        #expect(limits.bytes(forArchiveOfSize: 10 << 20) == 1000 << 20)
        #expect(limits.bytes(forArchiveOfSize: .max) == .max)
        #expect(limits.entries(forArchiveOfSize: 1000) == 4096)
        #expect(limits.entries(forArchiveOfSize: 256 << 20) == 1 << 20)
    }
}
