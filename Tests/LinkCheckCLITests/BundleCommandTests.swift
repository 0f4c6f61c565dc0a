import Foundation
import LinkCheckTestSupport
import Testing

/// `linkcheck check App.ipa` and bundles, as users run it: what the output
/// starts with, how images are named, SARIF locations, and that the
/// private folder an archive is unpacked into is gone after every run
/// (`TMPDIR` set to a folder of the test's, then looked at).
@Suite struct BundleCommandTests {
    /// A folder holding `Shop.ipa` (Shop.app as `Payload/Shop.app`), and
    /// `tmp`, the runs' `TMPDIR`.
    struct Workspace {
        let directory: TemporaryDirectory
        let temporary: URL

        init(_ entries: (ZipWriter) throws -> Void = { try $0.addDirectory(try MachOFixture.shopApp.path(), as: "Payload/Shop.app") })
            throws
        {
            directory = try Fixtures.temporaryDirectory()
            temporary = directory.path("tmp")
            try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
            let writer = try ZipWriter(path: directory.path("Shop.ipa"))
            try entries(writer)
            try writer.close()
        }

        /// Runs linkcheck in the folder, with `TMPDIR` its `tmp`.
        func linkcheck(_ arguments: [String]) throws -> CommandOutput {
            try Command.capture(
                Fixtures.linkcheckExecutable, arguments, environment: ["TMPDIR": temporary.path], currentDirectory: directory.url)
        }

        func leftOver() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: temporary.path)
        }
    }

    /// A role name that overrides the bundle of an image unpacked from an
    /// `.ipa` names it by its entry, never by the folder it was unpacked into.
    @Test func aRoleNameOverridingABundleInAnIPANamesTheEntry() throws {
        let workspace = try Workspace()
        let output = try workspace.linkcheck(["check", "--app", "Share", "Shop.ipa"])
        #expect(
            output.standardOutput.split(separator: "\n").filter { $0.contains("role name") } == [
                "linkcheck: warning: role name 'Share' makes Shop.ipa:Payload/Shop.app/PlugIns/Share.appex/Share the containing app, "
                    + "though its bundle makes it an app extension (share); the name wins"
            ], "\(output.standardOutput)")
        #expect(!output.standardOutput.contains(workspace.temporary.path))
    }

    @Test func anIPAIsCheckedUnderItsEntriesNames() throws {
        let workspace = try Workspace()
        let output = try workspace.linkcheck(["check", "Shop.ipa"])
        // The share extension links Uploader, which sends sharedApplication.
        #expect(output.status == 1, "\(output.standardOutput)\(output.standardError)")
        let lines = output.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first == "Shop.ipa:Payload/Shop.app: 1 app, 2 extensions (Share, share; Stickers, imessage), 2 embedded frameworks")
        #expect(
            lines.contains {
                $0.hasPrefix("Shop.ipa:Payload/Shop.app/Frameworks/Camera.framework/Camera: note: [AEX201] references AVCaptureSession")
            })
        #expect(
            lines.contains(
                "Shop.ipa:Payload/Shop.app/PlugIns/Share.appex/Share: error: [AEX001] links Uploader.framework, which calls +[UIApplication sharedApplication]"
            ))
        #expect(
            lines.contains {
                $0.hasPrefix("Shop.ipa:Payload/Shop.app/PlugIns/Stickers.appex/Stickers: note: [AEX201] links Camera.framework, which ")
            })
        #expect(lines.last?.hasPrefix("linkcheck: 5 images, ") == true)
        #expect(!output.standardOutput.contains(workspace.temporary.path))
        #expect(try workspace.leftOver().isEmpty)
    }

    /// The archive is unpacked while the rule packs load: a pack that
    /// cannot be read ends the run (exit 2, naming it) and the unpacked
    /// files are removed all the same.
    @Test func aBrokenRulePackEndsTheRunAndLeavesNothingBehind() throws {
        let workspace = try Workspace()
        try Data("{ \"format\": ".utf8).write(to: workspace.directory.path("broken.json"))
        let output = try workspace.linkcheck(["check", "Shop.ipa", "--rules", "broken.json"])
        #expect(output.status == 2, "\(output.standardOutput)\(output.standardError)")
        #expect(output.standardError.contains("broken.json"), "\(output.standardError)")
        #expect(output.standardOutput.isEmpty)
        #expect(try workspace.leftOver().isEmpty)
    }

    /// `inspect` reads an .ipa's binaries and names each by its entry, in
    /// text and in JSON, and leaves nothing behind.
    @Test func inspectNamesAnIPAsBinariesByTheirEntries() throws {
        let workspace = try Workspace()
        let text = try workspace.linkcheck(["inspect", "Shop.ipa"])
        #expect(text.status == 0, "\(text.standardError)")
        let headings = text.standardOutput.split(separator: "\n").filter { !$0.hasPrefix(" ") }.map(String.init)
        #expect(
            headings == [
                "Shop.ipa:Payload/Shop.app/Frameworks/Camera.framework/Camera:",
                "Shop.ipa:Payload/Shop.app/Frameworks/Uploader.framework/Uploader:",
                "Shop.ipa:Payload/Shop.app/PlugIns/Share.appex/Share:",
                "Shop.ipa:Payload/Shop.app/PlugIns/Stickers.appex/Stickers:",
                "Shop.ipa:Payload/Shop.app/Shop:",
            ])
        #expect(!text.standardOutput.contains(workspace.temporary.path))
        let json = try workspace.linkcheck(["inspect", "--format", "json", "Shop.ipa"])
        #expect(json.status == 0, "\(json.standardError)")
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: Any]])
        #expect(
            entries.map { "\($0["archive"] ?? "") \($0["entry"] ?? "") \($0["path"] ?? "")" }
                == headings.map {
                    let path = String($0.dropLast())
                    return "Shop.ipa \(path.dropFirst("Shop.ipa:".count)) \(path)"
                })
        #expect(try workspace.leftOver().isEmpty)
    }

    /// JSON names the archive and the entry, and the bundle placement; SARIF
    /// points every result at the .ipa.
    @Test func jsonAndSARIFPointAtTheArchive() throws {
        let workspace = try Workspace()
        let json = try workspace.linkcheck(["check", "--format", "json", "Shop.ipa"])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        let images = try #require(document["images"] as? [[String: Any]])
        #expect(images.count == 5)
        #expect(
            images.allSatisfy {
                ($0["path"] as? String)?.hasPrefix("Shop.ipa:Payload/Shop.app/") == true && $0["archive"] as? String == "Shop.ipa"
            })
        let stickers = try #require(images.first { ($0["entry"] as? String) == "Payload/Shop.app/PlugIns/Stickers.appex/Stickers" })
        #expect(stickers["role"] as? String == "extension")
        #expect(stickers["extensionType"] as? String == "imessage")
        let bundle = try #require(stickers["bundle"] as? [String: Any])
        #expect(bundle["outermost"] as? String == "Shop.ipa:Payload/Shop.app")
        #expect(bundle["place"] as? String == "PlugIns/Stickers.appex/Stickers")
        #expect((bundle["info"] as? [String: Any])?["extensionPoint"] as? String == "com.apple.message-payload-provider")
        #expect((document["bundles"] as? [[String: Any]])?.map { $0["path"] as? String } == ["Shop.ipa:Payload/Shop.app"])
        if JSONSchema.isAvailable {
            let report = workspace.directory.path("report.json")
            try json.standardOutput.write(to: report, atomically: true, encoding: .utf8)
            let validation = try JSONSchema.validate(report.path, against: JSONSchema.documented("check-report.schema.json"))
            #expect(validation.status == 0, "\(validation.standardError)")
        }

        let sarif = try workspace.linkcheck(["check", "--format", "sarif", "Shop.ipa"])
        let log = try #require(try JSONSerialization.jsonObject(with: Data(sarif.standardOutput.utf8)) as? [String: Any])
        let results = try #require(((log["runs"] as? [[String: Any]])?.first?["results"]) as? [[String: Any]])
        #expect(!results.isEmpty)
        for result in results {
            let location = try #require((result["locations"] as? [[String: Any]])?.first)
            let physical = try #require(location["physicalLocation"] as? [String: Any])
            #expect((physical["artifactLocation"] as? [String: Any])?["uri"] as? String == "Shop.ipa")
            #expect(physical["region"] == nil)
            let module = (location["logicalLocations"] as? [[String: Any]])?.first
            #expect((module?["fullyQualifiedName"] as? String)?.hasPrefix("Shop.ipa:Payload/Shop.app/") == true)
        }
        #expect(!sarif.standardOutput.contains(workspace.temporary.path) && !json.standardOutput.contains(workspace.temporary.path))
        #expect(try workspace.leftOver().isEmpty)
    }

    /// A hostile or damaged archive is an error naming it, exit status 2,
    /// and leaves nothing behind.
    @Test func hostileArchivesAreErrorsThatLeaveNothingBehind() throws {
        let cut = try Workspace()
        let file = cut.directory.path("Shop.ipa")
        let data = try Data(contentsOf: file)
        try data.prefix(data.count - 30).write(to: file)
        let bomb = try Workspace { try $0.addZeros("Payload/Bomb.app/Bomb", size: 1 << 30) }
        for (workspace, reason) in [
            (cut, "not a readable zip archive (truncated or corrupt): "), (bomb, "its entries unpack to more than "),
        ] {
            let output = try workspace.linkcheck(["check", "Shop.ipa"])
            #expect(output.status == 2)
            #expect(output.standardOutput.hasPrefix("Shop.ipa: error: cannot inspect: \(reason)"), "\(output.standardOutput)")
            #expect(
                output.standardError
                    == "linkcheck: error: nothing could be checked: 1 input failed (above) and no other ELF or Mach-O image was found\n")
            #expect(try workspace.leftOver().isEmpty)
        }
    }

    /// `SIGINT` while the archive is unpacked or read: the folder is
    /// removed, and the signal ends the run as it would have. The archive's
    /// three 20 MiB entries keep the run going long enough to be caught with
    /// its folder there; a run that ends first is tried again.
    @Test func anInterruptedRunRemovesItsFolder() throws {
        let workspace = try Workspace { zip in
            for index in 0..<3 {
                try zip.addFile("Payload/Slow.app/F\(index)", contents: Data([0xCF, 0xFA, 0xED, 0xFE]) + Data(count: 20 << 20))
            }
        }
        for _ in 0..<5 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Fixtures.linkcheckExecutable)
            process.arguments = ["check", "Shop.ipa"]
            process.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": workspace.temporary.path]) { $1 }
            process.currentDirectoryURL = workspace.directory.url
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            var interrupted = false
            while process.isRunning {
                if !(try workspace.leftOver()).isEmpty {
                    kill(process.processIdentifier, SIGINT)
                    interrupted = true
                    break
                }
                usleep(200)
            }
            process.waitUntilExit()
            guard interrupted else { continue }
            #expect(process.terminationReason == .uncaughtSignal)
            #expect(process.terminationStatus == SIGINT)
            #expect(try workspace.leftOver().isEmpty)
            return
        }
        Issue.record("no run lasted long enough to be interrupted with its folder there")
    }

    /// Links in the archive are passed over and counted, never made.
    @Test func linksInTheArchiveAreNotFollowed() throws {
        let workspace = try Workspace { zip in
            try zip.addDirectory(try MachOFixture.shopApp.path(), as: "Payload/Shop.app")
            try zip.addSymbolicLink("Payload/Shop.app/Frameworks/System.framework", to: "/System/Library/Frameworks/UIKit.framework")
        }
        let output = try workspace.linkcheck(["check", "--verbose", "Shop.ipa"])
        #expect(output.status == 1, "the share extension is unsafe: \(output.standardError)")
        #expect(
            output.standardOutput.contains(
                "Shop.ipa:Payload/Shop.app/Frameworks/System.framework: note: not followed: a symbolic link in the archive (to /System/Library/Frameworks/UIKit.framework), not unpacked\n"
            ))
        #expect(output.standardOutput.split(separator: "\n").last?.hasSuffix(", 1 link not followed") == true)
        #expect(try workspace.leftOver().isEmpty)
    }
    /// An extension without its executable, in an .ipa: its error line
    /// names the bundle by its entry, the summary counts it as failed, and
    /// the exit status is 2 in text and JSON, though the rest is checked.
    @Test func anExtensionWithoutItsExecutableExitsTwo() throws {
        let copy = try Fixtures.temporaryDirectory()
        let app = copy.path("Shop.app")
        try FileManager.default.copyItem(at: try MachOFixture.shopApp.path(), to: app)
        try FileManager.default.removeItem(at: app.appendingPathComponent("PlugIns/Share.appex/Share"))
        let workspace = try Workspace { try $0.addDirectory(app, as: "Payload/Shop.app") }
        let output = try workspace.linkcheck(["check", "Shop.ipa"])
        #expect(output.status == 2, "\(output.standardOutput)\(output.standardError)")
        let lines = output.standardOutput.split(separator: "\n").map(String.init)
        #expect(
            lines.contains(
                "Shop.ipa:Payload/Shop.app/PlugIns/Share.appex: error: cannot inspect: no executable: its Info.plist's CFBundleExecutable is 'Share', and Share.appex/Share does not exist"
            ))
        #expect(lines.first == "Shop.ipa:Payload/Shop.app: 1 app, 1 extension (Stickers, imessage), 2 embedded frameworks")
        #expect(lines.last?.hasPrefix("linkcheck: 4 images, ") == true && lines.last?.hasSuffix(", 1 file failed") == true)
        let json = try workspace.linkcheck(["check", "--format", "json", "Shop.ipa"])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        #expect((document["summary"] as? [String: Any])?["exitStatus"] as? Int == 2)
        #expect(
            (document["errors"] as? [[String: Any]])?.map { $0["path"] as? String } == ["Shop.ipa:Payload/Shop.app/PlugIns/Share.appex"])
        #expect(json.status == 2)
        #expect(try workspace.leftOver().isEmpty)
    }

    /// A zipped xcframework, as a SwiftPM binary target arrives, named on
    /// the command line: checked like an .ipa, its images named by their
    /// entries, its headers and licence not counted; a zip that holds no
    /// bundle is an input that cannot be checked (exit status 2).
    @Test func aZippedXCFrameworkIsCheckedUnderItsEntriesNames() throws {
        let workspace = try Workspace { try $0.addDirectory(try MachOFixture.kitXCFramework.path(), as: "Payload/Kit.app") }
        let zip = try ZipWriter(path: workspace.directory.path("Kit.xcframework.zip"))
        try zip.addDirectory(try MachOFixture.kitXCFramework.path(), as: "Kit.xcframework")
        try zip.addFile("Kit.xcframework/ios-arm64/Kit.framework/Headers/Kit.h", contents: Data("int kit(void);".utf8))
        try zip.addFile("Kit.xcframework/ios-arm64/Kit.framework/Modules/module.modulemap", contents: Data("framework module Kit {}".utf8))
        try zip.addFile("Kit.xcframework/LICENSE", contents: Data("MIT".utf8))
        try zip.close()
        let output = try workspace.linkcheck(["check", "Kit.xcframework.zip"])
        let lines = output.standardOutput.split(separator: "\n").map(String.init)
        #expect(
            lines.first == "Kit.xcframework.zip:Kit.xcframework: 2 libraries (ios-arm64, ios-arm64_x86_64-simulator)",
            "\(output.standardOutput)")
        let json = try workspace.linkcheck(["check", "--format", "json", "Kit.xcframework.zip"])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        #expect(
            (document["images"] as? [[String: Any]])?.map { "\($0["path"] ?? "") \($0["archive"] ?? "")" } == [
                "Kit.xcframework.zip:Kit.xcframework/ios-arm64/Kit.framework/Kit Kit.xcframework.zip",
                "Kit.xcframework.zip:Kit.xcframework/ios-arm64_x86_64-simulator/Kit.framework/Kit Kit.xcframework.zip",
                "Kit.xcframework.zip:Kit.xcframework/ios-arm64_x86_64-simulator/Kit.framework/Kit Kit.xcframework.zip",
            ])
        #expect(lines.last?.hasSuffix("; 0 files skipped, 0 files failed") == true, "\(output.standardOutput)")
        #expect(output.status < 2, "\(output.standardError)")
        #expect(try workspace.leftOver().isEmpty)

        let data = try ZipWriter(path: workspace.directory.path("data.zip"))
        try data.addFile("README", contents: Data("no bundle".utf8))
        try data.close()
        let named = try workspace.linkcheck(["check", "data.zip"])
        #expect(named.status == 2)
        #expect(
            named.standardOutput.hasPrefix("data.zip: error: cannot inspect: it holds no app, framework or xcframework"),
            "\(named.standardOutput)")
        #expect(try workspace.leftOver().isEmpty)
    }
}
