import Foundation
import LinkCheckAnalysis
import LinkCheckImage
import LinkCheckInspection
import LinkCheckReports
import LinkCheckRules
import LinkCheckTestSupport
import Testing

/// Roles from the bundle, and the bundle checks (`BNDL001`–`BNDL004`; the
/// upload checks' examples are ``UploadCheckTests``), on
/// `Shop.app` (``MachOFixture/shopApp``) and copies of it put together
/// wrongly.
@Suite struct BundleCheckTests {
    /// A copy of Shop.app in a new folder, changed by `change` (given the
    /// copy's URL); the folder lasts as long as the value returned.
    static func shopCopy(_ change: (URL) throws -> Void = { _ in }) throws -> (TemporaryDirectory, URL) {
        let directory = try Fixtures.temporaryDirectory()
        let app = directory.path("Shop.app")
        try FileManager.default.copyItem(at: try MachOFixture.shopApp.path(), to: app)
        try change(app)
        return (directory, app)
    }

    /// `image`'s path inside `app`.
    static func inside(_ app: URL, _ image: String) -> String {
        image.hasPrefix(app.path + "/") ? String(image.dropFirst(app.path.count + 1)) : image
    }

    static func findings(_ report: Report, in app: URL, rules: Set<RuleID>? = nil) -> [String] {
        report.findings.filter { rules?.contains($0.rule) ?? true }.map {
            "\(inside(app, $0.image)): \($0.severity.rawValue) \($0.rule) \($0.symbol ?? "")"
        }
    }

    @Test func rolesComeFromTheBundle() throws {
        let (copy, app) = try Self.shopCopy()
        defer { withExtendedLifetime(copy) {} }
        let report = try ShippedRules.check(app)
        let roles = Dictionary(
            uniqueKeysWithValues: report.images.map {
                (
                    Self.inside(app, $0.name),
                    [$0.role.rawValue, $0.extensionType?.rawValue, $0.verdict.rawValue].compactMap { $0 }.joined(separator: " ")
                )
            })
        // Camera's capture is allowed in the iMessage extension, the only
        // extension that links it; the app may use anything; Uploader sends
        // +[UIApplication sharedApplication], so the share extension that
        // links it is unsafe.
        #expect(
            roles == [
                "Shop": "app app-only",
                "Frameworks/Uploader.framework/Uploader": "framework unsafe",
                "Frameworks/Camera.framework/Camera": "framework extension-safe",
                "PlugIns/Share.appex/Share": "extension share unsafe",
                "PlugIns/Stickers.appex/Stickers": "extension imessage extension-safe",
            ])
        #expect(
            Self.findings(report, in: app, rules: ["AEX201", "AEX202"]) == [
                "Frameworks/Camera.framework/Camera: note AEX201 AVCaptureSession",
                "Frameworks/Camera.framework/Camera: note AEX202 AVCaptureDevice",
                "PlugIns/Stickers.appex/Stickers: note AEX201 AVCaptureSession",
                "PlugIns/Stickers.appex/Stickers: note AEX202 AVCaptureDevice",
                "Shop: note AEX201 AVCaptureSession",
                "Shop: note AEX202 AVCaptureDevice",
            ])
        let messages = report.findings.filter { $0.rule == "AEX201" }.map(\.message)
        #expect(messages.map { $0.contains("(allowed in the imessage extensions that link it)") } == [true, false, false])
        #expect(messages.map { $0.contains("(allowed in imessage extensions)") } == [false, true, false])
        #expect(messages.map { $0.contains("(allowed: the containing app may use it)") } == [false, false, true])
        #expect(report.findings.filter { $0.category == .bundle || $0.rule == "LINK001" }.isEmpty)
        #expect(
            report.bundles.map(\.line) == ["\(app.path): 1 app, 2 extensions (Share, share; Stickers, imessage), 2 embedded frameworks"])
        let stickers = try #require(report.images.first { $0.name.hasSuffix("/Stickers") })
        #expect(stickers.bundle?.place == "PlugIns/Stickers.appex/Stickers")
        #expect(stickers.bundle?.innermost.info?.extensionPoint == "com.apple.message-payload-provider")
        #expect(report.notices.isEmpty)
    }

    /// `--extension Stickers=share` (or linkcheck.json) overrides the
    /// bundle: camera capture is then an error in the framework it links.
    @Test func rolesGivenByNameOverrideTheBundle() throws {
        let (copy, app) = try Self.shopCopy()
        defer { withExtendedLifetime(copy) {} }
        let report = try ShippedRules.check(app, policy: Policy(extensions: ["Stickers": .share], apps: ["Share"]))
        let roles = Dictionary(
            uniqueKeysWithValues: report.images.map {
                (Self.inside(app, $0.name), "\($0.role.rawValue) \($0.extensionType?.rawValue ?? "-")")
            })
        #expect(roles["PlugIns/Stickers.appex/Stickers"] == "extension share")
        #expect(roles["PlugIns/Share.appex/Share"] == "app -")
        #expect(roles["Shop"] == "app -")
        #expect(
            Self.findings(report, in: app, rules: ["AEX201"]) == [
                "Frameworks/Camera.framework/Camera: error AEX201 AVCaptureSession",
                "PlugIns/Stickers.appex/Stickers: error AEX201 AVCaptureSession",
                "Shop: note AEX201 AVCaptureSession",
            ])
        #expect(report.images.first { $0.name.hasSuffix("/Stickers") }?.verdict == .unsafe)
    }

    @Test func anExtensionsOwnCopyOfAFrameworkTheAppEmbeds() throws {
        let (copy, app) = try Self.shopCopy { app in
            let frameworks = app.appendingPathComponent("PlugIns/Share.appex/Frameworks")
            try FileManager.default.createDirectory(at: frameworks, withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                at: app.appendingPathComponent("Frameworks/Uploader.framework"), to: frameworks.appendingPathComponent("Uploader.framework")
            )
        }
        defer { withExtendedLifetime(copy) {} }
        let report = try ShippedRules.check(app)
        #expect(
            Self.findings(report, in: app, rules: ["BNDL002", "BNDL003"]) == [
                "PlugIns/Share.appex/Frameworks/Uploader.framework/Uploader: error BNDL003 Uploader.framework",
                "PlugIns/Share.appex/Share: warning BNDL002 Uploader.framework",
            ])
        // The copy has the identifier of the app's: two bundles with one.
        #expect(
            Self.findings(report, in: app, rules: ["BNDL007"]) == [
                "Frameworks/Uploader.framework/Uploader: error BNDL007 com.example.Uploader",
                "PlugIns/Share.appex/Frameworks/Uploader.framework/Uploader: error BNDL007 com.example.Uploader",
            ])
        let messages = report.findings.filter { ["BNDL002", "BNDL003"].contains($0.rule) }.map(\.message)
        #expect(
            messages.first?.hasPrefix(
                "Uploader.framework is in Shop.app/PlugIns/Share.appex/Frameworks, not in Shop.app's Frameworks folder: App Store Connect refuses"
            ) == true)
        #expect(
            messages.last?.hasPrefix(
                "Share.appex embeds its own copy of Uploader.framework in Shop.app/PlugIns/Share.appex/Frameworks, which Shop.app also embeds: "
            ) == true)
        #expect(
            report.bundles.map(\.line) == ["\(app.path): 1 app, 2 extensions (Share, share; Stickers, imessage), 3 embedded frameworks"])
    }

    /// The iMessage extension and the app link Camera, which the app no
    /// longer embeds: dyld would stop both at launch (`BNDL001`, an error
    /// for the app too, in place of its `LINK001`).
    @Test func aFrameworkAnExtensionLinksButTheAppDoesNotEmbed() throws {
        let (copy, app) = try Self.shopCopy { app in
            try FileManager.default.removeItem(at: app.appendingPathComponent("Frameworks/Camera.framework"))
        }
        defer { withExtendedLifetime(copy) {} }
        let report = try ShippedRules.check(app)
        #expect(
            Self.findings(report, in: app, rules: ["BNDL001", "LINK001"]) == [
                "PlugIns/Stickers.appex/Stickers: error BNDL001 @rpath/Camera.framework/Camera",
                "Shop: error BNDL001 @rpath/Camera.framework/Camera",
            ])
        let missing =
            "needs @rpath/Camera.framework/Camera, which Shop.app does not embed (dyld looks in \(app.path)/Frameworks/Camera.framework)"
        let messages: [String] = report.findings.filter { $0.rule == "BNDL001" }.map { String($0.message.prefix(missing.count + 34)) }
        #expect(
            messages == [
                missing + ": the extension would not launch: ",
                missing + ": the app would not launch: dyld s",
            ])
        #expect(report.images.first { $0.name.hasSuffix("/Stickers") }?.verdict == .unsafe)
        #expect(report.images.first { $0.role == .app }?.verdict == .unsafe)
        #expect(report.exitStatus == 1)
    }

    /// The same app's executable alone in a plain folder, no bundle around
    /// it, checked as the app (`--app Shop`): a framework found nowhere
    /// stays a `LINK001` warning (pass --search-path), and the run passes.
    @Test func outsideABundleAMissingFrameworkStaysAWarning() throws {
        let directory = try Fixtures.temporaryDirectory()
        try FileManager.default.copyItem(at: try MachOFixture.shopApp.path().appendingPathComponent("Shop"), to: directory.path("Shop"))
        let report = try ShippedRules.check(directory.url, policy: Policy(apps: ["Shop"]))
        #expect(
            Self.findings(report, in: directory.url, rules: ["BNDL001", "LINK001"]) == [
                "Shop: warning LINK001 @rpath/Camera.framework/Camera",
                "Shop: warning LINK001 @rpath/Uploader.framework/Uploader",
            ])
        #expect(report.exitStatus == 0)
    }

    /// The app links Camera weakly (`LC_LOAD_WEAK_DYLIB`), and Camera lies
    /// only inside the iMessage extension: dyld leaves the app's symbols
    /// unbound and the app launches (`LINK001`, a warning); the extension,
    /// which links it, would not.
    @Test func theAppsWeakLinkToAFrameworkDyldWouldNotFindStaysAWarning() throws {
        let (copy, app) = try Self.shopCopy { app in
            try MachOFixtures.link(
                MachOFixtures.Image(
                    sources: MachOFixtures.sources("app-main.m"), product: .executable, rpaths: ["@executable_path/Frameworks"],
                    frameworks: ["UIKit", "Foundation", "CoreFoundation", "Uploader"],
                    frameworkSearchPaths: [app.appendingPathComponent("Frameworks")],
                    linkerFlags: ["-weak_framework", "Camera"]),
                to: app.appendingPathComponent("Shop"))
            let frameworks = app.appendingPathComponent("PlugIns/Stickers.appex/Frameworks")
            try FileManager.default.createDirectory(at: frameworks, withIntermediateDirectories: true)
            try FileManager.default.moveItem(
                at: app.appendingPathComponent("Frameworks/Camera.framework"), to: frameworks.appendingPathComponent("Camera.framework"))
        }
        defer { withExtendedLifetime(copy) {} }
        let report = try ShippedRules.check(app)
        #expect(
            Self.findings(report, in: app, rules: ["BNDL001", "LINK001"]) == [
                "PlugIns/Stickers.appex/Stickers: error BNDL001 @rpath/Camera.framework/Camera",
                "Shop: warning LINK001 @rpath/Camera.framework/Camera",
            ])
        #expect(report.images.first { $0.role == .app }?.verdict != .unsafe)
    }

    /// Camera moved into the iMessage extension's own `Frameworks`, where
    /// its only run path (`@executable_path/../../Frameworks`) does not
    /// lead: found there by install name, it is still a framework dyld
    /// would not load, so the extension would not launch (`BNDL001`, which
    /// makes it unsafe) besides being misplaced (`BNDL003`); what Camera
    /// holds still reaches the extension. The app, which links Camera too,
    /// would not launch either.
    @Test func aFrameworkWhereNoneOfTheExtensionsRunPathsLeads() throws {
        let (copy, app) = try Self.shopCopy { app in
            let frameworks = app.appendingPathComponent("PlugIns/Stickers.appex/Frameworks")
            try FileManager.default.createDirectory(at: frameworks, withIntermediateDirectories: true)
            try FileManager.default.moveItem(
                at: app.appendingPathComponent("Frameworks/Camera.framework"), to: frameworks.appendingPathComponent("Camera.framework"))
        }
        defer { withExtendedLifetime(copy) {} }
        let report = try ShippedRules.check(app)
        #expect(
            Self.findings(report, in: app, rules: ["BNDL001", "BNDL003", "LINK001"]) == [
                "PlugIns/Stickers.appex/Frameworks/Camera.framework/Camera: error BNDL003 Camera.framework",
                "PlugIns/Stickers.appex/Stickers: error BNDL001 @rpath/Camera.framework/Camera",
                "Shop: error BNDL001 @rpath/Camera.framework/Camera",
            ])
        let finding = try #require(report.findings.first { $0.rule == "BNDL001" })
        #expect(
            finding.message.hasPrefix(
                "needs @rpath/Camera.framework/Camera, which dyld would not find (dyld looks in \(app.path)/Frameworks/Camera.framework): the only copy is in \(app.path)/PlugIns/Stickers.appex/Frameworks/Camera.framework: the extension would not launch: dyld stops"
            ),
            "\(finding.message)")
        let stickers = try #require(report.images.first { $0.name.hasSuffix("/Stickers") })
        #expect(stickers.verdict == .unsafe)
        #expect(stickers.links == [app.path + "/PlugIns/Stickers.appex/Frameworks/Camera.framework/Camera"])
        #expect(Self.findings(report, in: app, rules: ["AEX201"]).contains("PlugIns/Stickers.appex/Stickers: note AEX201 AVCaptureSession"))
        #expect(
            report.findings.last { $0.rule == "BNDL001" }?.message.contains(
                ": the only copy is in \(app.path)/PlugIns/Stickers.appex/Frameworks/Camera.framework: the app would not launch: ") == true)
        #expect(report.exitStatus == 1)
    }

    @Test func anExtensionWithoutA64BitSlice() throws {
        let (copy, app) = try Self.shopCopy { app in
            let old = app.appendingPathComponent("PlugIns/Old.appex")
            try FileManager.default.createDirectory(at: old, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: try MachOFixture.thirtyTwoBitExecutable.path(), to: old.appendingPathComponent("Old"))
            try MachOFixtures.writeInfoPlist(
                [
                    "CFBundleExecutable": "Old", "CFBundlePackageType": "XPC!",
                    "NSExtension": ["NSExtensionPointIdentifier": "com.apple.keyboard-service"],
                ], in: old, format: .binary)
        }
        defer { withExtendedLifetime(copy) {} }
        let report = try ShippedRules.check(app)
        #expect(
            Self.findings(report, in: app, rules: ["BNDL004", "ARCH001"]) == [
                "PlugIns/Old.appex/Old: error ARCH001 ",
                "PlugIns/Old.appex/Old: error BNDL004 ",
            ])
        #expect(
            report.findings.first { $0.rule == "BNDL004" }?.message.hasPrefix(
                "the extension Old.appex has no 64-bit slice (armv7): App Store Connect refuses") == true)
        #expect(
            report.images.first { $0.name.hasSuffix("/Old") }.map { "\($0.role.rawValue) \($0.extensionType?.rawValue ?? "-")" }
                == "extension keyboard")
    }

    /// What the text output starts with for an xcframework and a static
    /// framework; their binaries are frameworks, each of its library.
    @Test func xcframeworksAndStaticFrameworks() throws {
        let directory = try Fixtures.temporaryDirectory()
        try FileManager.default.copyItem(at: try MachOFixture.kitXCFramework.path(), to: directory.path("Kit.xcframework"))
        let tracker = directory.path("Tracker.framework")
        try FileManager.default.createDirectory(at: tracker, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: try MachOFixture.staticFramework.path(), to: tracker.appendingPathComponent("Tracker"))
        try MachOFixtures.writeInfoPlist(["CFBundleExecutable": "Tracker", "CFBundlePackageType": "FMWK"], in: tracker, format: .xml)
        let report = try ShippedRules.check(directory.url)
        #expect(
            report.bundles.map(\.line) == [
                "\(directory.url.path)/Kit.xcframework: 2 libraries (ios-arm64, ios-arm64_x86_64-simulator)",
                "\(directory.url.path)/Tracker.framework: 1 framework (static)",
            ])
        let libraries = Dictionary(grouping: report.images, by: { $0.bundle?.library?.identifier ?? "-" }).mapValues {
            $0.map { "\($0.binary.architecture.name) \($0.binary.platform?.platform.rawValue ?? "-") \($0.role.rawValue)" }.sorted()
        }
        #expect(
            libraries == [
                "ios-arm64": ["arm64 ios framework"],
                "ios-arm64_x86_64-simulator": ["arm64 ios-simulator framework", "x86_64 ios-simulator framework"],
                "-": Array(repeating: ["arm64 ios framework", "x86_64 ios-simulator framework"], count: 2).flatMap { $0 }.sorted(),
            ])
        #expect(report.findings.filter { $0.category == .bundle }.isEmpty)
    }

    /// An xcframework whose `Info.plist` lists a library that is not in it
    /// (the device library removed): the library cannot be checked, so the
    /// run says which one and exits 2; the one there is still checked.
    @Test func anXCFrameworkLibraryTheInfoPlistListsIsMissing() throws {
        let directory = try Fixtures.temporaryDirectory()
        let xcframework = directory.path("Kit.xcframework")
        try FileManager.default.copyItem(at: try MachOFixture.kitXCFramework.path(), to: xcframework)
        try FileManager.default.removeItem(at: xcframework.appendingPathComponent("ios-arm64"))
        let report = try ShippedRules.check(xcframework)
        #expect(
            report.errors.map(\.description) == [
                "\(xcframework.path): its Info.plist's AvailableLibraries lists ios-arm64/Kit.framework, which is not there"
            ])
        #expect(report.exitStatus == 2)
        #expect(Set(report.images.compactMap { $0.bundle?.library?.identifier }) == ["ios-arm64_x86_64-simulator"])
    }

    /// The library an xcframework's `Info.plist` lists is there but is no
    /// library (a static library's place filled with text): it cannot be
    /// inspected, exit 2, never a quieter summary.
    @Test func anXCFrameworkLibraryTheInfoPlistListsIsNoLibrary() throws {
        let directory = try Fixtures.temporaryDirectory()
        let xcframework = directory.path("Kit.xcframework")
        try FileManager.default.copyItem(at: try MachOFixture.kitXCFramework.path(), to: xcframework)
        let info = xcframework.appendingPathComponent("Info.plist")
        var plist = try #require(try PropertyListSerialization.propertyList(from: Data(contentsOf: info), format: nil) as? [String: Any])
        var libraries = try #require(plist["AvailableLibraries"] as? [[String: Any]])
        libraries.append([
            "LibraryIdentifier": "ios-arm64-maccatalyst", "LibraryPath": "libKit.a", "SupportedPlatform": "ios",
            "SupportedPlatformVariant": "maccatalyst", "SupportedArchitectures": ["arm64"],
        ])
        plist["AvailableLibraries"] = libraries
        try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0).write(to: info)
        try FileManager.default.createDirectory(
            at: xcframework.appendingPathComponent("ios-arm64-maccatalyst"), withIntermediateDirectories: true)
        try Data("not an archive\n".utf8).write(to: xcframework.appendingPathComponent("ios-arm64-maccatalyst/libKit.a"))
        let report = try ShippedRules.check(xcframework)
        #expect(report.errors.map(\.description) == ["\(xcframework.path)/ios-arm64-maccatalyst/libKit.a: not an ELF or Mach-O file"])
        #expect(report.exitStatus == 2)
    }

    /// An .xcarchive's app is the outermost bundle; the debug symbols
    /// beside it (`MH_DSYM`) are passed over.
    @Test func anXCArchivesApp() throws {
        let directory = try Fixtures.temporaryDirectory()
        let archive = directory.path("Shop.xcarchive")
        let applications = archive.appendingPathComponent("Products/Applications")
        try FileManager.default.createDirectory(at: applications, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: try MachOFixture.shopApp.path(), to: applications.appendingPathComponent("Shop.app"))
        // A dSYM's binary: the app's, its mach_header filetype made MH_DSYM (10).
        let dwarf = archive.appendingPathComponent("dSYMs/Shop.app.dSYM/Contents/Resources/DWARF")
        try FileManager.default.createDirectory(at: dwarf, withIntermediateDirectories: true)
        var symbols = try Data(contentsOf: applications.appendingPathComponent("Shop.app/Shop"))
        symbols.replaceSubrange(12..<16, with: [10, 0, 0, 0])
        try symbols.write(to: dwarf.appendingPathComponent("Shop"))
        let report = try ShippedRules.check(archive)
        #expect(
            report.bundles.map(\.line) == [
                "\(applications.path)/Shop.app: 1 app, 2 extensions (Share, share; Stickers, imessage), 2 embedded frameworks"
            ])
        #expect(report.images.count == 5)
        #expect(
            report.skipped.contains(
                SkippedEntry(path: dwarf.appendingPathComponent("Shop").path, reason: "debug symbols (MH_DSYM), not code that runs")))
        #expect(report.images.first { $0.role == .app }?.bundle?.place == "Shop")
    }

    /// A macOS app in the `Contents/` layout: the roles come from
    /// `Contents/Info.plist`, the versioned framework is read once (through
    /// `Versions/A`, not its links), and `@rpath` resolves as dyld would
    /// from `Contents/MacOS` and from the extension's
    /// `@executable_path/../../../../Frameworks`.
    @Test func aMacOSAppInTheContentsLayout() throws {
        let directory = try Fixtures.temporaryDirectory()
        let app = directory.path("Mail.app")
        try FileManager.default.copyItem(at: try MachOFixture.macApp.path(), to: app)
        let report = try ShippedRules.check(app)
        let roles = Dictionary(
            uniqueKeysWithValues: report.images.map {
                (
                    Self.inside(app, $0.name),
                    [$0.role.rawValue, $0.extensionType?.rawValue, $0.binary.platform?.platform.rawValue].compactMap { $0 }.joined(
                        separator: " ")
                )
            })
        #expect(
            roles == [
                "Contents/MacOS/Mail": "app macos",
                "Contents/Frameworks/Kit.framework/Versions/A/Kit": "framework macos",
                "Contents/PlugIns/Share.appex/Contents/MacOS/Share": "extension share macos",
            ])
        let kit = app.path + "/Contents/Frameworks/Kit.framework/Versions/A/Kit"
        let share = try #require(report.images.first { $0.name.hasSuffix("/Share") })
        let mail = try #require(report.images.first { $0.name.hasSuffix("/Mail") })
        #expect(share.links == [kit] && mail.links == [kit])
        #expect(share.bundle?.innermost.layout == .contents && share.bundle?.place == "Contents/PlugIns/Share.appex/Contents/MacOS/Share")
        #expect(report.images.first { $0.path == kit }?.bundle?.innermost.layout == .versioned)
        #expect(report.bundles.map(\.line) == ["\(app.path): 1 app, 1 extension (Share, share), 1 embedded framework"])
        // No missing library, no bundle problem: only Kit's selector string
        // (a review risk, not unsafe) and the flag Kit lacks, though it is
        // safe in fact.
        #expect(
            Self.findings(report, in: app) == [
                "Contents/Frameworks/Kit.framework/Versions/A/Kit: warning FLAG001 ",
                "Contents/Frameworks/Kit.framework/Versions/A/Kit: warning SEL001 sharedApplication",
            ])
        #expect(report.images.first { $0.path == kit }?.extensionSafeFlag == .unflaggedButClean)
        #expect(
            report.images.map { "\(Self.inside(app, $0.name)) \($0.verdict.rawValue)" }.sorted() == [
                "Contents/Frameworks/Kit.framework/Versions/A/Kit extension-safe",
                "Contents/MacOS/Mail extension-safe",
                "Contents/PlugIns/Share.appex/Contents/MacOS/Share extension-safe",
            ])

        // macOS also keeps extensions in Contents/Extensions.
        try FileManager.default.moveItem(
            at: app.appendingPathComponent("Contents/PlugIns"), to: app.appendingPathComponent("Contents/Extensions"))
        let moved = try ShippedRules.check(app)
        let extensions = moved.images.filter { $0.role == .extension }
        #expect(extensions.map { Self.inside(app, $0.name) } == ["Contents/Extensions/Share.appex/Contents/MacOS/Share"])
        #expect(extensions.first?.links == [kit] && extensions.first?.extensionType == .share)
        #expect(Self.findings(moved, in: app) == Self.findings(report, in: app))
    }

    /// An Info.plist that cannot be read is an error, as a malformed one
    /// is (the bundle cannot be checked as it says: the run fails); the
    /// extension is still one, of no type.
    @Test func anUnreadableInfoPlistIsAnError() throws {
        let (copy, app) = try Self.shopCopy { app in
            try Data([0x00, 0x01, 0x02]).write(to: app.appendingPathComponent("PlugIns/Stickers.appex/Info.plist"))
        }
        defer { withExtendedLifetime(copy) {} }
        let report = try ShippedRules.check(app)
        #expect(report.notices.isEmpty)
        #expect(
            report.errors.map(\.description) == [
                "\(app.path)/PlugIns/Stickers.appex/Info.plist: not a property list (XML or binary): its bundle cannot be checked as its Info.plist says"
            ])
        #expect(report.exitStatus == 2)
        #expect(
            report.images.first { $0.name.hasSuffix("/Stickers") }.map { "\($0.role.rawValue) \($0.extensionType?.rawValue ?? "-")" }
                == "extension -"
        )
    }
    /// The error of each bundle `report` could not check, its path relative
    /// to `app`'s folder.
    static func bundleErrors(_ report: Report, in app: URL) -> [String] {
        report.errors.compactMap { error in
            guard case .bundleExecutable = error else { return nil }
            return String(error.description.dropFirst(app.deletingLastPathComponent().path.count + 1))
        }
    }

    /// The share extension's executable is gone: the run says which bundle
    /// and what it expected, and exits 2, as for a file that cannot be read.
    @Test func anExtensionWhoseExecutableIsMissing() throws {
        let (copy, app) = try Self.shopCopy { app in
            try FileManager.default.removeItem(at: app.appendingPathComponent("PlugIns/Share.appex/Share"))
        }
        defer { withExtendedLifetime(copy) {} }
        let report = try ShippedRules.check(app)
        #expect(
            Self.bundleErrors(report, in: app) == [
                "Shop.app/PlugIns/Share.appex: no executable: its Info.plist's CFBundleExecutable is 'Share', and Share.appex/Share does not exist"
            ])
        #expect(report.errors.count == 1)
        #expect(report.exitStatus == 2)
        #expect(!report.images.contains { $0.role == .extension && $0.extensionType == .share })
    }

    /// A CFBundleExecutable that is no file name (a path out of the
    /// executable folder, an absolute path, nothing) names no executable of
    /// the bundle's: an error that says so, not one about links.
    @Test(arguments: ["../../Shop", "/tmp/Share", ""])
    func anExtensionWhoseExecutableNameIsNoFileName(name: String) throws {
        let (copy, app) = try Self.shopCopy { app in
            let info = app.appendingPathComponent("PlugIns/Share.appex/Info.plist")
            var plist = try #require(
                try PropertyListSerialization.propertyList(from: Data(contentsOf: info), format: nil) as? [String: Any])
            plist["CFBundleExecutable"] = name
            try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0).write(to: info)
        }
        defer { withExtendedLifetime(copy) {} }
        let report = try ShippedRules.check(app)
        #expect(
            Self.bundleErrors(report, in: app) == [
                "Shop.app/PlugIns/Share.appex: no executable: its Info.plist's CFBundleExecutable is '\(name)', which is not a file name in the bundle"
            ])
        #expect(report.exitStatus == 2)
    }

    /// The executable is there under another name than CFBundleExecutable's:
    /// the bundle is an error, and the file is still checked (as a
    /// framework: nothing says it is the extension).
    @Test func anExtensionWhoseExecutableIsNamedOtherwise() throws {
        let (copy, app) = try Self.shopCopy { app in
            let appex = app.appendingPathComponent("PlugIns/Share.appex")
            try FileManager.default.moveItem(at: appex.appendingPathComponent("Share"), to: appex.appendingPathComponent("ShareExtension"))
        }
        defer { withExtendedLifetime(copy) {} }
        let report = try ShippedRules.check(app)
        #expect(
            Self.bundleErrors(report, in: app) == [
                "Shop.app/PlugIns/Share.appex: no executable: its Info.plist's CFBundleExecutable is 'Share', and Share.appex/Share does not exist"
            ])
        #expect(report.exitStatus == 2)
        let renamed = try #require(report.images.first { $0.name.hasSuffix("/ShareExtension") })
        #expect(renamed.role == .framework && renamed.verdict == .unsafe)
    }

    /// An executable that is a symbolic link to a file inside its bundle is
    /// followed: the target is the extension, checked as one.
    @Test func anExtensionWhoseExecutableIsALinkInsideTheBundle() throws {
        let (copy, app) = try Self.shopCopy { app in
            let appex = app.appendingPathComponent("PlugIns/Share.appex")
            try FileManager.default.createDirectory(at: appex.appendingPathComponent("bin"), withIntermediateDirectories: true)
            try FileManager.default.moveItem(at: appex.appendingPathComponent("Share"), to: appex.appendingPathComponent("bin/Share"))
            try FileManager.default.createSymbolicLink(atPath: appex.appendingPathComponent("Share").path, withDestinationPath: "bin/Share")
        }
        defer { withExtendedLifetime(copy) {} }
        let report = try ShippedRules.check(app)
        #expect(report.errors.isEmpty)
        let share = try #require(report.images.first { $0.role == .extension && $0.extensionType == .share })
        #expect(Self.inside(app, share.name) == "PlugIns/Share.appex/bin/Share")
        #expect(share.verdict == .unsafe)
        #expect(
            Self.findings(report, in: app, rules: ["AEX001"]).contains(
                "PlugIns/Share.appex/bin/Share: error AEX001 +[UIApplication sharedApplication]"))
        #expect(report.exitStatus == 1)
    }

    /// A link that leads out of the bundle, or nowhere, is no executable
    /// of the bundle's own.
    @Test(arguments: ["../../Shop", "nowhere"])
    func anExtensionWhoseExecutableIsALinkOutOfTheBundleOrDangling(_ target: String) throws {
        let (copy, app) = try Self.shopCopy { app in
            let executable = app.appendingPathComponent("PlugIns/Share.appex/Share")
            try FileManager.default.removeItem(at: executable)
            try FileManager.default.createSymbolicLink(atPath: executable.path, withDestinationPath: target)
        }
        defer { withExtendedLifetime(copy) {} }
        let report = try ShippedRules.check(app)
        let what =
            target == "nowhere"
            ? "a symbolic link to nowhere, which does not exist"
            : "a symbolic link to \(app.appendingPathComponent("Shop").resolvingSymlinksInPath().path), outside the bundle"
        #expect(
            Self.bundleErrors(report, in: app) == [
                "Shop.app/PlugIns/Share.appex: no executable: its Info.plist's CFBundleExecutable is 'Share', and Share.appex/Share is \(what)"
            ])
        #expect(report.exitStatus == 2)
        #expect(!report.images.contains { $0.role == .extension && $0.extensionType == .share })
    }

    /// A framework without its binary, and an app whose executable is named
    /// otherwise and that has no Info.plist naming it, are errors too.
    @Test func aFrameworkAndAnAppWithoutTheirExecutables() throws {
        let (copy, app) = try Self.shopCopy { app in
            try FileManager.default.removeItem(at: app.appendingPathComponent("Frameworks/Camera.framework/Camera"))
            try FileManager.default.removeItem(at: app.appendingPathComponent("Info.plist"))
            try FileManager.default.moveItem(at: app.appendingPathComponent("Shop"), to: app.appendingPathComponent("ShopApp"))
        }
        defer { withExtendedLifetime(copy) {} }
        let report = try ShippedRules.check(app)
        #expect(
            Self.bundleErrors(report, in: app) == [
                "Shop.app: no executable: no Info.plist of it names its executable (CFBundleExecutable), so it is looked for as 'Shop', the bundle's name, and Shop.app/Shop does not exist",
                "Shop.app/Frameworks/Camera.framework: no executable: its Info.plist's CFBundleExecutable is 'Camera', and Camera.framework/Camera does not exist",
            ])
        #expect(report.exitStatus == 2)
    }

    /// A macOS versioned framework is made of links (`Versions/Current`,
    /// `Kit → Versions/Current/Kit`), followed inside the bundle; its
    /// binary made a link out of the bundle is an error.
    @Test func aVersionedFrameworkWhoseExecutableLinksOutOfTheBundle() throws {
        let directory = try Fixtures.temporaryDirectory()
        let app = directory.path("Mail.app")
        try FileManager.default.copyItem(at: try MachOFixture.macApp.path(), to: app)
        let binary = app.appendingPathComponent("Contents/Frameworks/Kit.framework/Versions/A/Kit")
        try FileManager.default.moveItem(at: binary, to: directory.path("Kit"))
        try FileManager.default.createSymbolicLink(atPath: binary.path, withDestinationPath: directory.path("Kit").path)
        let report = try ShippedRules.check(directory.url)
        let kit = directory.path("Kit").resolvingSymlinksInPath().path
        #expect(
            Self.bundleErrors(report, in: app) == [
                "Mail.app/Contents/Frameworks/Kit.framework: no executable: its Info.plist's CFBundleExecutable is 'Kit', and Kit.framework/Versions/A/Kit is a symbolic link to \(kit), outside the bundle"
            ])
        #expect(report.exitStatus == 2)
    }
}
