import Foundation
import LinkCheckAnalysis
import LinkCheckCodeIndex
import LinkCheckReports
import LinkCheckTestSupport
import Testing

/// One policy for every framework (Rules/README.md, "Uses by name"): a
/// direct use of an API unavailable in extensions keeps its rule's
/// severity; a use only by name, which the compiler and the App Store
/// accept, is a warning that says so, and the image's verdict is
/// `needs-review`, never `extension-safe`; a project can make uses by name
/// errors. On Reader.app, shaped like an app shipping SDWebImage 5,
/// Kingfisher 7, MDFInternationalization and AFNetworking 3.
@Suite struct ByNamePolicyTests {
    /// Reader.app, built into `directory`: four frameworks that reach
    /// `+[UIApplication sharedApplication]`, three by name (`Checked`:
    /// NSClassFromString and NSSelectorFromString, checked with
    /// respondsToSelector:; `Performer`: performSelector: of a selector
    /// reference; `KeyValue`: valueForKey:) and one directly (`Direct`); the
    /// share extension links all four, the action extension the three by
    /// name.
    static func reader(in directory: TemporaryDirectory) throws -> URL {
        let app = try MachOFixtures.AppBundle(named: "Reader", in: directory.url)
        let byName = ["Checked": "by-name-checked-send.m", "Performer": "by-name-perform-selector.m", "KeyValue": "by-name-key-value.m"]
        for (name, source) in byName {
            try MachOFixtures.link(
                MachOFixtures.Image(
                    sources: MachOFixtures.sources(source), product: .dylib(installName: "@rpath/\(name).framework/\(name)"),
                    applicationExtensionSafe: true),
                to: app.addFramework(named: name))
        }
        try MachOFixtures.link(
            MachOFixtures.Image(
                sources: MachOFixtures.sources("direct-shared-application.m"),
                product: .dylib(installName: "@rpath/Direct.framework/Direct"),
                frameworks: ["UIKit", "Foundation", "CoreFoundation"]),
            to: app.addFramework(named: "Direct"))
        try MachOFixtures.link(
            MachOFixtures.Image(
                sources: MachOFixtures.sources("app-main.m"), product: .executable, rpaths: ["@executable_path/Frameworks"],
                frameworks: ["UIKit", "Foundation", "CoreFoundation"]),
            to: app.executable)
        for (name, point, frameworks) in [
            ("Share", "com.apple.share-services", byName.keys.sorted() + ["Direct"]),
            ("Action", "com.apple.ui-services", byName.keys.sorted()),
        ] {
            try MachOFixtures.link(
                MachOFixtures.Image(
                    sources: MachOFixtures.sources("by-name-extension.c"), product: .executable, applicationExtensionSafe: true,
                    rpaths: ["@executable_path/../../Frameworks"], frameworks: frameworks, libraries: ["System"],
                    frameworkSearchPaths: [app.frameworksDirectory], linkerFlags: ["-e", "_NSExtensionMain"]),
                to: app.addExtension(named: name, extensionPoint: point, principalClass: "\(name)ViewController"))
        }
        return app.url
    }

    static func image(_ report: Report, _ name: String) throws -> ImageReport {
        try #require(report.images.first { $0.shortName == name || $0.name.hasSuffix("/\(name)") })
    }

    /// The findings about `sharedApplication` on an image: the method's
    /// rule and the selector string's.
    static func sharedApplication(_ report: Report, _ image: ImageReport) -> [Finding] {
        report.findings.filter { $0.image == image.name && ["AEX001", "SEL001"].contains($0.rule) }
    }

    @Test func theSameEvidenceGetsTheSameSeverityInEveryFramework() throws {
        let directory = try Fixtures.temporaryDirectory()
        let report = try ShippedRules.check(try Self.reader(in: directory))
        for name in ["Checked.framework", "Performer.framework", "KeyValue.framework"] {
            let image = try Self.image(report, name)
            let findings = Self.sharedApplication(report, image)
            #expect(!findings.isEmpty, "\(name)")
            #expect(findings.allSatisfy { $0.severity == .warning && $0.byName != nil }, "\(name): \(findings.map(\.message))")
            #expect(findings.allSatisfy { $0.remarks.contains(.byNameOnly) })
            #expect(image.verdict == .needsReview, "\(name)")
        }
        // How each is told: the look-up's literals, the selector reference
        // performSelector: is given, the literal key valueForKey: is given.
        let checked = try #require(
            Self.sharedApplication(report, try Self.image(report, "Checked.framework")).first { $0.rule == "AEX001" })
        #expect(checked.kind == .objcByName)
        #expect(
            checked.typedDetail
                == .looksUpByName(
                    className: "UIApplication", selector: "sharedApplication", lookUps: ["NSClassFromString"],
                    selectorMakers: ["NSSelectorFromString"]))
        let performer = try #require(
            Self.sharedApplication(report, try Self.image(report, "Performer.framework")).first { $0.rule == "AEX001" })
        #expect(performer.kind == .objcByName)
        #expect(
            performer.typedDetail
                == .looksUpByName(
                    className: "UIApplication", selector: "sharedApplication", lookUps: ["NSClassFromString"], selectorMakers: nil))
        let keyValue = Self.sharedApplication(report, try Self.image(report, "KeyValue.framework"))
        // The method reached by name names the selector its string holds:
        // one use, one finding.
        #expect(keyValue.map(\.rule) == ["AEX001"])
        let read = try #require(keyValue.first { $0.rule == "AEX001" })
        #expect(read.kind == .objcByName)
        #expect(
            read.typedDetail
                == .looksUpByName(
                    className: "UIApplication", selector: "sharedApplication", lookUps: ["NSClassFromString"],
                    selectorMakers: ["valueForKey:"]))
        #expect(read.callSites.map(\.label) == ["+[BNKeyValueReader currentApplication]", "+[BNKeyValueReader currentApplication]"])

        let direct = try Self.image(report, "Direct.framework")
        let sent = Self.sharedApplication(report, direct)
        #expect(sent.map(\.rule) == ["AEX001"])
        #expect(sent.map(\.kind) == [.objcReference])
        #expect(sent.map(\.severity) == [.error])
        #expect(sent.first?.byName == nil)
        #expect(direct.verdict == .unsafe)
    }

    /// An extension that reaches an API only by name needs review; one that
    /// also links the direct use is unsafe. Warnings leave the exit status
    /// alone: the share extension's errors make it 1.
    @Test func extensionsTakeTheVerdictOfWhatTheyReach() throws {
        let directory = try Fixtures.temporaryDirectory()
        let app = try Self.reader(in: directory)
        let report = try ShippedRules.check(app)
        let share = try Self.image(report, "Share")
        let action = try Self.image(report, "Action")
        #expect(share.verdict == .unsafe)
        #expect(action.verdict == .needsReview)
        let reached = report.findings.filter { $0.image == action.name && $0.kind == .transitive }
        #expect(!reached.isEmpty)
        #expect(reached.allSatisfy { $0.severity == .warning && $0.byName != nil })
        // Each framework's method reached by name travels, and so its
        // selector string does not.
        for name in ["Checked", "Performer", "KeyValue"] {
            #expect(reached.contains { $0.rule == "AEX001" && $0.chainImages.last?.hasSuffix("\(name).framework/\(name)") == true })
            #expect(!reached.contains { $0.rule == "SEL001" && $0.chainImages.last?.hasSuffix("\(name).framework/\(name)") == true })
        }
        #expect(report.count(.needsReview) == 4)
        #expect(report.exitStatus == 1)

        // The summary line, the JSON summary and the HTML headline count
        // and show them.
        let text = try Command.capture(Fixtures.linkcheckExecutable, ["check", app.path])
        #expect(text.status == 1)
        #expect(text.standardOutput.contains("\nlinkcheck: 7 images (4 needs review), "))
        let html = directory.path("report.html")
        let json = try Command.capture(Fixtures.linkcheckExecutable, ["check", "--format", "json", "--html", html.path, app.path])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        #expect((document["summary"] as? [String: Any])?["needsReview"] as? Int == 4)
        let page = try String(contentsOf: html, encoding: .utf8)
        #expect(
            page.contains(
                "<strong>Action.appex</strong> (action extension): <span class=\"verdict needs-review\">needs-review</span> — 3 causes:"))
        #expect(
            page.contains(
                "<li><strong>KeyValue.framework</strong> calls by name <a href=\"#AEX001-KeyValue.framework\"><code>+[UIApplication sharedApplication]</code></a> from <code>+[BNKeyValueReader currentApplication]</code>.</li>"
            ))
        #expect(page.contains("(4 needs review)"))
    }

    /// A run with only uses by name, as warnings, exits 0; asked to make
    /// them errors (`linkcheck.json`'s `byNameUses`, `--by-name-as-error`),
    /// every one is an error, the frameworks and both extensions unsafe.
    @Test func byNameUsesAsErrorsFailTheBuild() throws {
        let directory = try Fixtures.temporaryDirectory()
        let app = try Self.reader(in: directory)
        let keyValue = app.appendingPathComponent("Frameworks/KeyValue.framework/KeyValue").path
        let rules = try ShippedRules.ruleSet()
        let alone = CheckRun.check(paths: [keyValue], rules: rules, policy: Policy(), jobs: 1)
        #expect(alone.images.map(\.verdict) == [.needsReview])
        #expect(alone.exitStatus == 0)

        var strict = Policy()
        strict.byNameUses = .error
        #expect(CheckRun.check(paths: [keyValue], rules: rules, policy: strict, jobs: 1).exitStatus == 1)
        let report = try ShippedRules.check(app, policy: strict)
        for name in ["Checked.framework", "Performer.framework", "KeyValue.framework", "Share", "Action"] {
            let image = try Self.image(report, name)
            #expect(image.verdict == .unsafe, "\(name)")
            let findings = report.findings.filter { $0.image == image.name && $0.byName != nil && ["AEX001", "SEL001"].contains($0.rule) }
            #expect(!findings.isEmpty && findings.allSatisfy { $0.severity == .error }, "\(name)")
            #expect(findings.allSatisfy { $0.remarks.contains(.byNameOnlyMadeError) })
        }
    }

    @Test func theConfigurationAndTheCommandLineAskForErrors() throws {
        let directory = try Fixtures.temporaryDirectory()
        let config = directory.path("linkcheck.json")
        try #"{"byNameUses": "error"}"#.write(to: config, atomically: true, encoding: .utf8)
        #expect(try Configuration.load(path: config.path).get().byNameUses == .error)
        try #"{"byNameUses": "note"}"#.write(to: config, atomically: true, encoding: .utf8)
        guard case .failure(let failure) = Configuration.load(path: config.path) else {
            Issue.record("a note is no severity for uses by name")
            return
        }
        #expect(failure.problems.map(\.description) == ["\(config.path): $.byNameUses: expected \"warning\" or \"error\""])

        let keyValue = try Self.reader(in: directory).appendingPathComponent("Frameworks/KeyValue.framework/KeyValue").path
        let warned = try Command.capture(Fixtures.linkcheckExecutable, ["check", keyValue])
        #expect(warned.status == 0)
        #expect(warned.standardOutput.contains("(1 needs review)"))
        let failed = try Command.capture(Fixtures.linkcheckExecutable, ["check", "--by-name-as-error", keyValue])
        #expect(failed.status == 1)
        #expect(failed.standardOutput.contains("error: [AEX001]"))
    }
}
