import Foundation
import LinkCheckTestSupport
import Testing

/// What a person reads: `linkcheck check`'s text output leads with each
/// extension's verdict, says each finding in one short line (what, where,
/// why), explains each rule once at the end, and `linkcheck rules explain`
/// says the same.
@Suite struct TextOutputTests {
    /// The lines of a finding (`PATH: SEVERITY: [ID] …`), in order.
    static func findingLines(_ lines: [String]) -> [String] {
        lines.filter { line in ["error", "warning", "note"].contains { line.contains(": \($0): [") } && !line.hasPrefix("note: [") }
    }

    /// The median length of `lines`, in characters.
    static func median(_ lines: [String]) -> Double {
        let lengths = lines.map(\.count).sorted()
        guard !lengths.isEmpty else { return 0 }
        return lengths.count % 2 == 1
            ? Double(lengths[lengths.count / 2]) : Double(lengths[lengths.count / 2 - 1] + lengths[lengths.count / 2]) / 2
    }

    /// The rules notes at the end: one `note: [ID] …; fix: …` per rule the
    /// findings cite, in id order, after every finding, before the summary,
    /// each what `rules explain ID` starts with.
    static func checkRuleNotes(_ lines: [String]) throws {
        let findings = findingLines(lines)
        let cited = Set(
            findings.compactMap { line in
                line.range(of: #"\[[A-Z]+[0-9]+\]"#, options: .regularExpression).map { String(line[$0].dropFirst().dropLast()) }
            })
        let notes = lines.filter { $0.hasPrefix("note: [") }
        #expect(notes.map { String($0.dropFirst("note: [".count).prefix { $0 != "]" }) } == cited.sorted())
        let firstNote = try #require(lines.firstIndex { $0.hasPrefix("note: [") })
        let lastFinding = try #require(lines.lastIndex { findings.contains($0) })
        #expect(lastFinding < firstNote)
        #expect(lines.last?.hasPrefix("linkcheck: ") == true)
        #expect(lines.dropLast().last?.hasPrefix("note: [") == true)
        for note in notes {
            let id = String(note.dropFirst("note: [".count).prefix { $0 != "]" })
            let explained = try Command.linkcheck(["rules", "explain", id])
            #expect(explained.status == 0)
            #expect(explained.standardOutput.hasPrefix(note.dropFirst("note: ".count) + "\n"), "\(id)")
            // The explanation is said once, not on every finding line.
            let message = String(note.dropFirst("note: [\(id)] ".count).prefix { $0 != ";" })
            #expect(!findings.contains { $0.contains(message) }, "\(id)")
        }
    }

    /// The PhotosApp sample: the inventory, the extension's verdict with
    /// its first cause, then short lines; Uploader's names its call path
    /// and the extension that links it.
    @Test func thePhotosAppLeadsWithTheExtensionsVerdict() throws {
        let app = try MachOFixtures.photosApp()
        let output = try Command.capture(
            Fixtures.linkcheckExecutable, ["check", "Photos.app"], currentDirectory: app.deletingLastPathComponent())
        #expect(output.status == 1)
        let lines = output.standardOutput.split(separator: "\n").map(String.init)
        #expect(
            Array(lines.prefix(3)) == [
                "Photos.app: 1 app, 1 extension (PhotosShare, share), 6 embedded frameworks",
                // ImageKit's simulator slice.
                "Photos.app: would be rejected on upload: ITMS-90087 (below)",
                "PhotosShare.appex (share extension): unsafe — SyncKit.framework links Uploader.framework, which calls +[UIApplication sharedApplication] from present_login",
            ])
        let findings = Self.findingLines(lines)
        #expect(findings.first == lines[3], "the findings follow the answer")
        for expected in [
            "Photos.app/Frameworks/Uploader.framework/Uploader: error: [AEX001] calls +[UIApplication sharedApplication] from -[UPUploader retry:] → present_login (linked by PhotosShare)",
            "Photos.app/Frameworks/Sneaky.framework/Sneaky: warning: [AEX001] calls by name +[UIApplication sharedApplication] from -[SNKLinkOpener openLink:] (by name only, which the compiler and the App Store accept) (linked by PhotosShare)",
            "Photos.app/Frameworks/SyncKit.framework/SyncKit: error: [AEX001] links Uploader.framework, which calls +[UIApplication sharedApplication] (linked by PhotosShare)",
            "Photos.app/PlugIns/PhotosShare.appex/PhotosShare: error: [AEX001] links SyncKit.framework → Uploader.framework, which calls +[UIApplication sharedApplication]",
            "Photos.app/Photos: note: [AEX001] calls +[UIApplication sharedApplication] from -[PHAppDelegate application:didFinishLaunchingWithOptions:] (allowed: the containing app may use it)",
            "Photos.app/Photos: note: [LOAD001] calls dlopen from -[PHAppDelegate application:didFinishLaunchingWithOptions:] → load_capture_plugin",
        ] {
            #expect(findings.contains(expected), "\(expected)")
        }
        #expect(Self.median(findings) < 200, "\(findings.map(\.count))")
        #expect(
            lines.contains(
                "note: [AEX001] UIApplication.shared is unavailable in app extensions, because an extension runs inside another app's process and has no application object of its own (UIApplication.h: \"Use view controller based solutions where appropriate instead.\"); fix: Pass in what the code needs (a view controller, window scene or NSExtensionContext) instead of reaching for the shared application, or move this code into a target that only the containing app links."
            ))
        try Self.checkRuleNotes(lines)
        // ImageKit, fat, is one image, with a note on its simulator slice.
        #expect(lines.last == "linkcheck: 8 images (1 needs review), 4 errors, 11 warnings, 13 notes; 0 files skipped, 0 files failed")

        // The JSON document keeps the full message and gives each finding's
        // line as the text says it (what the plugin prints); the findings of
        // a fat file's slices are one line, at the file with their slices.
        let json = try Command.capture(
            Fixtures.linkcheckExecutable, ["check", "--format", "json", "Photos.app"], currentDirectory: app.deletingLastPathComponent())
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        let entries = try #require(document["findings"] as? [[String: Any]])
        let entryLines = entries.map { entry in
            let slices = (entry["slices"] as? [String]).map { " (\($0.joined(separator: ", ")))" } ?? ""
            return
                "\(entry["file"] as? String ?? entry["image"] as? String ?? "")\(slices): \(entry["severity"] as? String ?? ""): \(entry["text"] as? String ?? "")"
        }
        #expect(entryLines.reduce(into: [String]()) { if $0.last != $1 { $0.append($1) } } == findings)
        #expect(entries.allSatisfy { ($0["message"] as? String ?? "").count > ($0["text"] as? String ?? "").count - 12 })
    }

    /// An app shaped like a real one: a share extension that links two
    /// Carthage-built frameworks from the public corpus, SVProgressHUD
    /// (fat, sends +[UIApplication sharedApplication]) and MBProgressHUD
    /// (fat, not flagged, uses no unavailable API).
    @Test func aRealShapedAppLeadsWithTheExtensionsVerdict() throws {
        let corpus = Fixtures.corpusDirectory.appendingPathComponent("macho")
        let directory = try Fixtures.temporaryDirectory()
        let app = try MachOFixtures.AppBundle(named: "Cards", in: directory.url)
        for (name, folder) in [
            ("SVProgressHUD", "jpsim__CardsAgainst/Carthage/Build/iOS"),
            ("MBProgressHUD", "techery-pods-mirror__carthage-test/Carthage/Build/iOS"),
        ] {
            try FileManager.default.copyItem(
                at: corpus.appendingPathComponent("\(folder)/\(name).framework/\(name)"), to: try app.addFramework(named: name))
        }
        let source = directory.path("share.m")
        try """
        #import <Foundation/Foundation.h>
        extern NSString * const SVProgressHUDDidReceiveTouchEventNotification;
        @interface HUDShareViewController : NSObject
        @end
        @implementation HUDShareViewController
        - (NSString *)touchNotification { return SVProgressHUDDidReceiveTouchEventNotification; }
        @end
        """.write(to: source, atomically: true, encoding: .utf8)
        try MachOFixtures.link(
            MachOFixtures.Image(
                sources: [source], product: .executable, applicationExtensionSafe: true,
                rpaths: ["@executable_path/../../Frameworks"],
                frameworks: ["Foundation", "SVProgressHUD", "MBProgressHUD"], frameworkSearchPaths: [app.frameworksDirectory],
                linkerFlags: ["-e", "_NSExtensionMain"]),
            to: app.addExtension(named: "HUDShare", principalClass: "HUDShareViewController"))
        try MachOFixtures.link(
            MachOFixtures.Image(
                sources: MachOFixtures.sources("app-main.m"), product: .executable, rpaths: ["@executable_path/Frameworks"],
                frameworks: ["UIKit", "Foundation", "CoreFoundation"]),
            to: app.executable)

        let output = try Command.capture(Fixtures.linkcheckExecutable, ["check", "Cards.app"], currentDirectory: directory.url)
        #expect(output.status == 1, "\(output.standardOutput)\(output.standardError)")
        let lines = output.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("Cards.app: 1 app, 1 extension (HUDShare, share), ") == true, "\(lines)")
        // Corpus frameworks built before Xcode 14, fat for the simulator.
        #expect(lines.dropFirst().first == "Cards.app: would be rejected on upload: ITMS-90087, ITMS-90482 (below)")
        let verdict = try #require(lines.dropFirst(2).first)
        #expect(verdict.hasPrefix("HUDShare.appex (share extension): unsafe — SVProgressHUD.framework"), "\(output.standardOutput)")
        #expect(verdict.contains(" calls +[UIApplication sharedApplication] from -[SVProgressHUD "), "\(verdict)")
        let findings = Self.findingLines(lines)
        // Between the extension's verdict and the findings, only verdicts
        // (of images no extension or app links).
        let firstFinding = try #require(lines.firstIndex { findings.contains($0) })
        #expect(lines[3..<firstFinding].allSatisfy { $0.contains(": unsafe — ") }, "\(output.standardOutput)")
        #expect(
            findings.contains {
                $0.hasPrefix("Cards.app/Frameworks/SVProgressHUD.framework/SVProgressHUD")
                    && $0.contains(": error: [AEX001] calls +[UIApplication sharedApplication] from -[SVProgressHUD ")
                    && $0.hasSuffix(" (linked by HUDShare)")
            }, "\(findings)")
        #expect(
            findings.contains {
                $0.hasPrefix("Cards.app/PlugIns/HUDShare.appex/HUDShare: error: [AEX001] links SVProgressHUD.framework")
                    && $0.hasSuffix(", which calls +[UIApplication sharedApplication]")
            }, "\(findings)")
        #expect(Self.median(findings) < 200, "\(findings.map(\.count))")
        try Self.checkRuleNotes(lines)
    }

    /// `rules explain ID…`: each rule's line and what it is; an unknown id
    /// is exit status 2 with the closest ids, the others still explained.
    @Test func rulesExplain() throws {
        let explained = try Command.linkcheck(["rules", "explain", "AEX001"])
        #expect(explained.status == 0)
        #expect(
            explained.standardOutput == """
                [AEX001] UIApplication.shared is unavailable in app extensions, because an extension runs inside another app's process and has no application object of its own (UIApplication.h: "Use view controller based solutions where appropriate instead."); fix: Pass in what the code needs (a view controller, window scene or NSExtensionContext) instead of reaching for the shared application, or move this code into a target that only the containing app links.
                  api: UIApplication.shared (error, unavailable-api; pack app-extension-unavailable)
                  source: UIKit UIApplication.h: NS_EXTENSION_UNAVAILABLE_IOS on +sharedApplication; marked in the iOS 9.3 to 26.5 SDKs (the newest examined)
                  marked in SDKs: iOS 9.3 and later

                """)
        #expect(explained.standardError.isEmpty)

        let builtIn = try Command.linkcheck(["rules", "explain", "flag002", "AEX201"])
        #expect(builtIn.status == 0)
        #expect(builtIn.standardOutput.hasPrefix("[FLAG002] the flag is a claim, not evidence: "))
        #expect(builtIn.standardOutput.contains("\n  api: MH_APP_EXTENSION_SAFE (warning, review-risk; pack built-in)\n"))
        #expect(builtIn.standardOutput.contains("\n  allowed in: imessage extensions\n"))

        let unknown = try Command.linkcheck(["rules", "explain", "AEX01", "AEX002"])
        #expect(unknown.status == 2)
        #expect(unknown.standardError == "linkcheck: error: no rule has the id 'AEX01' (did you mean 'AEX001'?)\n")
        #expect(unknown.standardOutput.hasPrefix("[AEX002] "), "the known id is still explained")
        let misspelt = try Command.linkcheck(["rules", "explain", "FLAGG002"])
        #expect(misspelt.status == 2)
        #expect(misspelt.standardError == "linkcheck: error: no rule has the id 'FLAGG002' (did you mean 'FLAG002'?)\n")
        let none = try Command.linkcheck(["rules", "explain"])
        #expect(none.status == 2)
        #expect(none.standardError.contains("'linkcheck rules explain' needs at least one rule ID"))
    }
}
