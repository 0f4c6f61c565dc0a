import Foundation
import LinkCheckAnalysis
import LinkCheckRules
import LinkCheckTestSupport
import Testing

/// What App Store Connect would refuse on upload (`BNDL003`, `BNDL004` and
/// ``BuiltInRules/uploadChecks``, `BNDL005`–`BNDL013`), each rule proved as
/// a rule pack's are, by its examples: a copy of Shop.app
/// (``MachOFixture/shopApp``) put together wrongly gets exactly the rule's
/// findings, and the same copy fixed gets no bundle finding at all, as
/// Shop.app itself (``BundleCheckTests/rolesComeFromTheBundle()``).
@Suite struct UploadCheckTests {
    /// One rule's example: what breaks the app, the rule's findings it
    /// must give (`place-in-app: severity rule symbol`), and what fixes it
    /// again.
    struct Example: Sendable, CustomStringConvertible {
        var rule: RuleID
        var name: String
        var expected: [String]
        var breakApp: @Sendable (URL) throws -> Void
        var fixApp: @Sendable (URL) throws -> Void

        var description: String { "\(rule) \(name)" }
    }

    /// Changes the `Info.plist` of the bundle `bundle` (a path inside
    /// `app`, empty for the app), keeping its form (XML or binary).
    static func editInfo(_ app: URL, _ bundle: String, _ change: (inout [String: Any]) -> Void) throws {
        let file = (bundle.isEmpty ? app : app.appendingPathComponent(bundle)).appendingPathComponent("Info.plist")
        var format = PropertyListSerialization.PropertyListFormat.xml
        var plist = try #require(
            try PropertyListSerialization.propertyList(from: Data(contentsOf: file), format: &format) as? [String: Any])
        change(&plist)
        try PropertyListSerialization.data(fromPropertyList: plist, format: format, options: 0).write(to: file)
    }

    /// Sets the `NSExtension` key `key` of the extension `appex` to
    /// `value` (`nil` removes it).
    static func setExtensionKey(_ app: URL, _ appex: String, _ key: String, _ value: String?) throws {
        try editInfo(app, "PlugIns/\(appex)") { plist in
            var keys = plist["NSExtension"] as? [String: Any] ?? [:]
            keys[key] = value
            plist["NSExtension"] = keys
        }
    }

    /// Embeds `binary` as `Frameworks/<name>.framework/<name>`, with its
    /// `Info.plist`.
    static func embed(_ binary: URL, as name: String, in app: URL) throws {
        let framework = app.appendingPathComponent("Frameworks/\(name).framework")
        try MachOFixtures.writeInfoPlist(
            ["CFBundleExecutable": name, "CFBundleIdentifier": "com.example.\(name)", "CFBundlePackageType": "FMWK"].merging(
                MachOFixtures.versionKeys
            ) { own, _ in own }, in: framework, format: .xml)
        let executable = framework.appendingPathComponent(name)
        if FileManager.default.fileExists(atPath: executable.path) { try FileManager.default.removeItem(at: executable) }
        try FileManager.default.copyItem(at: binary, to: executable)
    }

    /// Puts back the file `place` of Shop.app as the fixture has it.
    static func restore(_ place: String, in app: URL) throws {
        let file = app.appendingPathComponent(place)
        try FileManager.default.removeItem(at: file)
        try FileManager.default.copyItem(at: try MachOFixture.shopApp.path().appendingPathComponent(place), to: file)
    }

    static let examples: [Example] = [
        Example(
            rule: "BNDL003", name: "an extension inside another extension",
            expected: ["PlugIns/Stickers.appex/PlugIns/Share.appex/Share: error BNDL003 Share.appex"],
            breakApp: { app in
                let plugIns = app.appendingPathComponent("PlugIns/Stickers.appex/PlugIns")
                try FileManager.default.createDirectory(at: plugIns, withIntermediateDirectories: true)
                try FileManager.default.copyItem(
                    at: app.appendingPathComponent("PlugIns/Share.appex"), to: plugIns.appendingPathComponent("Share.appex"))
            },
            fixApp: { app in try FileManager.default.removeItem(at: app.appendingPathComponent("PlugIns/Stickers.appex/PlugIns")) }),
        Example(
            rule: "BNDL004", name: "a 32-bit app",
            expected: ["Shop: error BNDL004 "],
            breakApp: { app in
                try FileManager.default.removeItem(at: app.appendingPathComponent("Shop"))
                try FileManager.default.copyItem(at: try MachOFixture.thirtyTwoBitExecutable.path(), to: app.appendingPathComponent("Shop"))
            },
            fixApp: { app in try restore("Shop", in: app) }),
        Example(
            rule: "BNDL005", name: "a framework with a simulator slice",
            expected: ["Frameworks/ImageKit.framework/ImageKit[x86_64]: error BNDL005 "],
            breakApp: { app in try embed(try MachOFixture.imageKitFat.path(), as: "ImageKit", in: app) },
            fixApp: { app in try embed(try MachOFixture.imageKitFat.thinSlice("arm64"), as: "ImageKit", in: app) }),
        Example(
            rule: "BNDL005", name: "a framework built for the simulator alone",
            expected: ["Frameworks/ImageKit.framework/ImageKit: error BNDL005 "],
            breakApp: { app in try embed(try MachOFixture.imageKitFat.thinSlice("x86_64"), as: "ImageKit", in: app) },
            fixApp: { app in try embed(try MachOFixture.imageKitFat.thinSlice("arm64"), as: "ImageKit", in: app) }),
        Example(
            rule: "BNDL006", name: "a tool beside the executable",
            expected: ["Tools/uploader: error BNDL006 "],
            breakApp: { app in
                try FileManager.default.createDirectory(at: app.appendingPathComponent("Tools"), withIntermediateDirectories: true)
                try FileManager.default.copyItem(at: try MachOFixture.uploader.path(), to: app.appendingPathComponent("Tools/uploader"))
            },
            // A library in the Frameworks folder is allowed (the Swift
            // runtime's libraries were embedded so).
            fixApp: { app in
                try FileManager.default.moveItem(
                    at: app.appendingPathComponent("Tools/uploader"), to: app.appendingPathComponent("Frameworks/libuploader.dylib"))
                try FileManager.default.removeItem(at: app.appendingPathComponent("Tools"))
            }),
        Example(
            rule: "BNDL006", name: "a static framework copied into the app",
            expected: ["Frameworks/Tracker.framework/Tracker(static-counter.o): error BNDL006 "],
            breakApp: { app in
                // The arm64 archive the fat static framework is made of.
                let archive = try MachOFixture.staticFramework.path().deletingLastPathComponent().deletingLastPathComponent()
                    .appendingPathComponent("arm64/libTracker.a")
                try embed(archive, as: "Tracker", in: app)
            },
            fixApp: { app in try FileManager.default.removeItem(at: app.appendingPathComponent("Frameworks/Tracker.framework")) }),
        Example(
            rule: "BNDL007", name: "two frameworks with one identifier",
            expected: [
                "Frameworks/Camera.framework/Camera: error BNDL007 com.example.Uploader",
                "Frameworks/Uploader.framework/Uploader: error BNDL007 com.example.Uploader",
            ],
            breakApp: { app in try editInfo(app, "Frameworks/Camera.framework") { $0["CFBundleIdentifier"] = "com.example.Uploader" } },
            fixApp: { app in try editInfo(app, "Frameworks/Camera.framework") { $0["CFBundleIdentifier"] = "com.example.Camera" } }),
        Example(
            rule: "BNDL007", name: "an extension's identifier outside its app's",
            expected: ["PlugIns/Share.appex/Share: error BNDL007 com.example.ShopShare"],
            breakApp: { app in try editInfo(app, "PlugIns/Share.appex") { $0["CFBundleIdentifier"] = "com.example.ShopShare" } },
            fixApp: { app in try editInfo(app, "PlugIns/Share.appex") { $0["CFBundleIdentifier"] = "com.example.Shop.Share" } }),
        Example(
            rule: "BNDL008", name: "an extension of another version",
            expected: ["PlugIns/Share.appex/Share: warning BNDL008 CFBundleShortVersionString"],
            breakApp: { app in try editInfo(app, "PlugIns/Share.appex") { $0["CFBundleShortVersionString"] = "2.0" } },
            fixApp: { app in try editInfo(app, "PlugIns/Share.appex") { $0["CFBundleShortVersionString"] = "1.0" } }),
        Example(
            rule: "BNDL009", name: "a framework without CFBundleVersion",
            expected: ["Frameworks/Camera.framework/Camera: error BNDL009 CFBundleVersion"],
            breakApp: { app in try editInfo(app, "Frameworks/Camera.framework") { $0["CFBundleVersion"] = nil } },
            fixApp: { app in try editInfo(app, "Frameworks/Camera.framework") { $0["CFBundleVersion"] = "1" } }),
        Example(
            rule: "BNDL010", name: "an extension built for a newer OS than its Info.plist says",
            expected: ["PlugIns/Stickers.appex/Stickers: error BNDL010 "],
            breakApp: { app in try editInfo(app, "PlugIns/Stickers.appex") { $0["MinimumOSVersion"] = "14.0" } },
            fixApp: { app in try editInfo(app, "PlugIns/Stickers.appex") { $0["MinimumOSVersion"] = "15.0" } }),
        Example(
            rule: "BNDL011", name: "frameworks built for a newer OS than the app runs on",
            expected: ["Frameworks/Camera.framework/Camera: warning BNDL011 ", "Frameworks/Uploader.framework/Uploader: warning BNDL011 "],
            breakApp: { app in try editInfo(app, "") { $0["MinimumOSVersion"] = "14.2" } },
            fixApp: { app in try editInfo(app, "") { $0["MinimumOSVersion"] = "15.0" } }),
        Example(
            rule: "BNDL012", name: "an NSExtension without its point",
            expected: ["PlugIns/Share.appex/Share: error BNDL012 NSExtensionPointIdentifier"],
            breakApp: { app in try setExtensionKey(app, "Share.appex", "NSExtensionPointIdentifier", nil) },
            fixApp: { app in try setExtensionKey(app, "Share.appex", "NSExtensionPointIdentifier", "com.apple.share-services") }),
        Example(
            rule: "BNDL012", name: "an iMessage extension without a principal class or storyboard",
            expected: ["PlugIns/Stickers.appex/Stickers: error BNDL012 NSExtensionPrincipalClass"],
            breakApp: { app in try setExtensionKey(app, "Stickers.appex", "NSExtensionPrincipalClass", nil) },
            fixApp: { app in try setExtensionKey(app, "Stickers.appex", "NSExtensionMainStoryboard", "MainInterface") }),
        Example(
            rule: "BNDL013", name: "a framework with bitcode",
            expected: ["Frameworks/Camera.framework/Camera: error BNDL013 "],
            // lld drops the __LLVM segment when it links, so the binary
            // with bitcode is the object clang -fembed-bitcode writes.
            breakApp: { app in
                let camera = app.appendingPathComponent("Frameworks/Camera.framework/Camera")
                try FileManager.default.removeItem(at: camera)
                try MachOFixtures.compileObject(
                    MachOFixtures.photosAppSources("Frameworks/Plugin/Plugin.m")[0], for: .arm64, flags: ["-fembed-bitcode"], to: camera)
            },
            fixApp: { app in try restore("Frameworks/Camera.framework/Camera", in: app) }),
    ]

    /// The bundle findings of `app` (of `rule` alone, when given):
    /// `place-in-app: severity rule symbol`.
    static func bundleFindings(_ app: URL, rule: RuleID? = nil) throws -> (Report, [String]) {
        let report = try ShippedRules.check(app)
        let ids = Set(BuiltInRules.all.filter { $0.category == .bundle }.map(\.id))
        return (report, BundleCheckTests.findings(report, in: app, rules: rule.map { [$0] } ?? ids))
    }

    /// A framework copied into an extension shares its identifier with the
    /// app's copy: each finding names the other by its place in the app.
    @Test func bundlesOfOneNameSharingAnIdentifierAreNamedByPlace() throws {
        let (copy, app) = try BundleCheckTests.shopCopy { app in
            let inside = app.appendingPathComponent("PlugIns/Share.appex/Frameworks")
            try FileManager.default.createDirectory(at: inside, withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                at: app.appendingPathComponent("Frameworks/Camera.framework"), to: inside.appendingPathComponent("Camera.framework"))
        }
        defer { withExtendedLifetime(copy) {} }
        let report = try ShippedRules.check(app)
        let words = report.findings.filter { $0.rule == BuiltInRules.bundleIdentifier.id }.compactMap { finding -> String? in
            guard case .detail(.bundle(.sharedIdentifier(let bundle, _, let others)), _) = finding.statement else { return nil }
            return "\(bundle) ~ \(others.joined(separator: ", "))"
        }
        #expect(
            words.sorted() == [
                "Shop.app/Frameworks/Camera.framework ~ Shop.app/PlugIns/Share.appex/Frameworks/Camera.framework",
                "Shop.app/PlugIns/Share.appex/Frameworks/Camera.framework ~ Shop.app/Frameworks/Camera.framework",
            ])
    }

    @Test(arguments: examples)
    func theRuleFindsItsExampleAndNotTheAppFixed(_ example: Example) throws {
        let (copy, app) = try BundleCheckTests.shopCopy(example.breakApp)
        defer { withExtendedLifetime(copy) {} }
        let (broken, found) = try Self.bundleFindings(app, rule: example.rule)
        #expect(found == example.expected)
        // Each finding names its ITMS code and the fix.
        for finding in broken.findings where finding.rule == example.rule {
            let rule = try #require(broken.rules[example.rule])
            #expect(finding.fixit == rule.fixit && !rule.fixit.isEmpty)
            guard case .detail(.bundle(let problem), _) = finding.statement else {
                Issue.record("\(finding.rule) has no typed bundle problem")
                continue
            }
            #expect(problem.appStoreCode.map { finding.message.contains($0) } ?? (example.rule == BuiltInRules.frameworkNewerThanApp.id))
        }
        try example.fixApp(app)
        #expect(try Self.bundleFindings(app).1 == [])
    }
}
