import Foundation
import LinkCheckTestSupport
import Testing

/// `linkcheck check --only bundle App.ipa`: the bundle checks alone, for a
/// step before upload. It answers with the ITMS codes App Store Connect
/// would refuse the app with (or that it passes), gives no extension
/// verdicts (it matched no API), and still never passes an input it could
/// not read.
@Suite struct OnlyBundleTests {
    /// Shop.app as `Payload/Shop.app` of `Shop.ipa`, with `ImageKit` (a
    /// fat file with a simulator slice) embedded when `simulatorSlice`.
    static func ipa(simulatorSlice: Bool, extra: (ZipWriter) throws -> Void = { _ in }) throws -> BundleCommandTests.Workspace {
        try BundleCommandTests.Workspace { writer in
            try writer.addDirectory(try MachOFixture.shopApp.path(), as: "Payload/Shop.app")
            if simulatorSlice {
                let framework = "Payload/Shop.app/Frameworks/ImageKit.framework"
                try writer.addFile("\(framework)/ImageKit", contents: Data(contentsOf: try MachOFixture.imageKitFat.path()))
                let info: [String: Any] = [
                    "CFBundleExecutable": "ImageKit", "CFBundleIdentifier": "com.example.ImageKit", "CFBundlePackageType": "FMWK",
                ].merging(MachOFixtures.versionKeys) { own, _ in own }
                try writer.addFile(
                    "\(framework)/Info.plist",
                    contents: try PropertyListSerialization.data(fromPropertyList: info, format: .xml, options: 0))
            }
            try extra(writer)
        }
    }

    @Test func anAppWithASimulatorSliceWouldBeRejected() throws {
        let workspace = try Self.ipa(simulatorSlice: true)
        let output = try workspace.linkcheck(["check", "--only", "bundle", "Shop.ipa"])
        #expect(output.status == 1, "\(output.standardOutput)\(output.standardError)")
        let lines = output.standardOutput.split(separator: "\n").map(String.init)
        #expect(
            Array(lines.prefix(3)) == [
                "Shop.ipa:Payload/Shop.app: 1 app, 2 extensions (Share, share; Stickers, imessage), 3 embedded frameworks",
                "Shop.ipa:Payload/Shop.app: would be rejected on upload: ITMS-90087 (below)",
                "Shop.ipa:Payload/Shop.app/Frameworks/ImageKit.framework/ImageKit: error: [BNDL005] Shop.app/Frameworks/ImageKit.framework/ImageKit has a slice for the simulator (x86_64)",
            ])
        // No API was matched: no verdict, no AEX finding, no call sites.
        #expect(!lines.contains { $0.contains("unsafe") || $0.contains("[AEX") || $0.contains("[ARCH") })
        #expect(lines.last?.hasPrefix("linkcheck: 6 images, 1 error, 0 warnings, 0 notes;") == true)

        let json = try workspace.linkcheck(["check", "--only", "bundle", "--format", "json", "Shop.ipa"])
        #expect(json.status == 1)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        #expect(document["scope"] as? String == "bundle")
        let findings = try #require(document["findings"] as? [[String: Any]])
        #expect(findings.map { "\($0["rule"] ?? "") \($0["category"] ?? "") \($0["kind"] ?? "")" } == ["BNDL005 bundle bundle"])
        if JSONSchema.isAvailable {
            let report = workspace.directory.path("report.json")
            try json.standardOutput.write(to: report, atomically: true, encoding: .utf8)
            let validation = try JSONSchema.validate(report.path, against: JSONSchema.documented("check-report.schema.json"))
            #expect(validation.status == 0, "\(validation.standardError)")
        }
    }

    @Test func anAppPutTogetherRightPasses() throws {
        let workspace = try Self.ipa(simulatorSlice: false)
        let output = try workspace.linkcheck(["check", "--only", "bundle", "Shop.ipa"])
        // The share extension's use of sharedApplication is not looked for.
        #expect(output.status == 0, "\(output.standardOutput)\(output.standardError)")
        #expect(
            output.standardOutput.split(separator: "\n").dropFirst().first
                == "Shop.ipa:Payload/Shop.app: passes the bundle checks (--only bundle: no API was checked)")
        let html = try workspace.linkcheck(["check", "--only", "bundle", "--format", "html", "Shop.ipa"])
        #expect(html.standardOutput.contains("<span class=\"verdict extension-safe\">passes</span>"))
        #expect(!html.standardOutput.contains("share extension"))
        // The graph's nodes give roles, not verdicts no API was matched for.
        #expect(html.standardOutput.contains("<svg"))
        #expect(!html.standardOutput.contains("· extension-safe"))
        #expect(html.standardOutput.contains("framework</text>"))
    }

    /// An app whose executable links a framework it does not embed would
    /// not launch (`BNDL001`): no upload refusal, and no pass either.
    @Test func anAppThatWouldNotLaunchDoesNotPass() throws {
        let directory = try Fixtures.temporaryDirectory()
        let app = directory.path("Shop.app")
        try FileManager.default.copyItem(at: try MachOFixture.shopApp.path(), to: app)
        try FileManager.default.removeItem(at: app.appendingPathComponent("Frameworks/Camera.framework"))
        let output = try Command.linkcheck(["check", "--only", "bundle", app.path])
        #expect(output.status == 1, "\(output.standardOutput)\(output.standardError)")
        #expect(output.standardOutput.contains("error: [BNDL001]"))
        #expect(!output.standardOutput.contains("passes the bundle checks"))
        let html = try Command.linkcheck(["check", "--only", "bundle", "--format", "html", app.path])
        #expect(!html.standardOutput.contains("<span class=\"verdict extension-safe\">passes</span>"))
    }

    /// A framework whose binary is no Mach-O cannot be read: exit status 2,
    /// never a pass.
    @Test func anUnreadableFrameworkIsNeverAPass() throws {
        let workspace = try Self.ipa(simulatorSlice: false) { writer in
            try writer.addFile("Payload/Shop.app/Frameworks/Broken.framework/Broken", contents: Data("not a binary\n".utf8))
            let info: [String: Any] = ["CFBundleExecutable": "Broken", "CFBundlePackageType": "FMWK"].merging(MachOFixtures.versionKeys) {
                own, _ in own
            }
            try writer.addFile(
                "Payload/Shop.app/Frameworks/Broken.framework/Info.plist",
                contents: try PropertyListSerialization.data(fromPropertyList: info, format: .xml, options: 0))
        }
        let output = try workspace.linkcheck(["check", "--only", "bundle", "Shop.ipa"])
        #expect(output.status == 2, "\(output.standardOutput)\(output.standardError)")
        // An .ipa's files that are no binaries are not unpacked, so the
        // framework has no executable.
        #expect(
            output.standardOutput.contains(
                "Shop.ipa:Payload/Shop.app/Frameworks/Broken.framework: error: cannot inspect: no executable: its Info.plist's CFBundleExecutable is 'Broken', and Broken.framework/Broken does not exist"
            ))
        #expect(!output.standardOutput.contains("passes the bundle checks"))
    }

    @Test(arguments: [["--rules", "x.json"], ["--call-sites", "full"]])
    func optionsThatChooseRulesOrCallSitesContradictIt(_ options: [String]) throws {
        let workspace = try Self.ipa(simulatorSlice: false)
        let output = try workspace.linkcheck(["check", "--only", "bundle"] + options + ["Shop.ipa"])
        #expect(output.status == 2)
        #expect(output.standardError.contains("--only bundle and \(options[0]) contradict each other"))
        let unknown = try workspace.linkcheck(["check", "--only", "apis", "Shop.ipa"])
        #expect(unknown.status == 2 && unknown.standardError.contains("unknown checks 'apis' for --only (bundle)"))
    }
}
