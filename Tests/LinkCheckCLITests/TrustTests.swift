import Foundation
import LinkCheckTestSupport
import Testing

/// Verdicts and exit statuses a release can be gated on: nothing that could
/// not be read passes as safe, and every input that fails fails the run.
@Suite struct TrustTests {
    /// A real library of the toolchain, large enough to cut.
    static let library = "/opt/swift/usr/lib/swift/linux/libFoundation.so"

    @Test func aFourKilobytePrefixOfARealLibraryIsIncompleteNotSafe() throws {
        let directory = try Fixtures.temporaryDirectory()
        let prefix = directory.path("libFoundation.so")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: Self.library))
        try bytes.prefix(4096).write(to: prefix)
        let output = try Command.linkcheck(["check", "--format", "json", prefix.path])
        #expect(output.status == 1, "INSP001 is an error on a framework that must be safe")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any])
        let images = try #require(report["images"] as? [[String: Any]])
        #expect(images.map { $0["verdict"] as? String } == ["incomplete"])
        let findings = try #require(report["findings"] as? [[String: Any]])
        // The section header table and PT_DYNAMIC both lie past the cut.
        #expect(findings.map { "\($0["rule"]!) \($0["severity"]!)" } == ["INSP001 error", "INSP001 error"])
        let message = try #require(findings.last?["message"] as? String)
        #expect(message.hasPrefix("no section headers, and PT_DYNAMIC (") && message.contains(") could not be read: "), "\(message)")
        let summary = try #require(report["summary"] as? [String: Int])
        #expect(summary["incomplete"] == 1)
        let text = try Command.linkcheck(["check", prefix.path])
        #expect(
            text.standardOutput.hasSuffix(
                "linkcheck: 1 image (1 incomplete), 2 errors, 0 warnings, 0 notes; 0 files skipped, 0 files failed\n"))
    }

    @Test func randomBytesBehindAnELFHeaderAreIncompleteNotSafe() throws {
        let directory = try Fixtures.temporaryDirectory()
        let file = directory.path("libnoise.so")
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.library)).prefix(64))
        var generator = SplitMix64(seed: 10)
        bytes += (0..<65_536).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        try Data(bytes).write(to: file)
        let output = try Command.linkcheck(["check", "--format", "json", file.path])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any])
        let verdicts = (report["images"] as? [[String: Any]])?.map { $0["verdict"] as? String }
        let failed = (report["summary"] as? [String: Int])?["failed"]
        // Either libelf rejects it (a failed file, exit 2) or it is read in
        // part (incomplete, exit 1): never extension-safe with exit 0.
        #expect((verdicts == ["incomplete"] && output.status == 1) || (failed == 1 && output.status == 2), "\(output.standardOutput)")
        #expect(verdicts?.contains("extension-safe") != true)
    }

    /// A library that imports kit_shared (Tests/Fixtures/linkchain.c), a
    /// copy of it with `damage`, and a rule pack that denies kit_shared.
    static func damagedUnsafeLibrary(_ damage: SectionHeaderDamage, in directory: TemporaryDirectory) throws -> (
        library: String, rules: String
    ) {
        let intact = try Fixtures.compile("linkchain.c", to: directory.path("libintact.so"), flags: ["-shared", "-DUNSAFE"])
        let library = directory.path("libunsafe.so")
        try damage.applied(to: Data(contentsOf: intact)).write(to: library)
        try FileManager.default.removeItem(at: intact)
        let rules = directory.path("rules.json")
        try
            #"{"format": 1, "name": "t", "version": "1", "rules": [{"id": "TST001", "api": "kit_shared", "category": "unavailable-api", "severity": "error", "match": [{"symbol": "kit_shared"}], "message": "unavailable", "fixit": "f", "source": "s"}]}"#
            .write(to: rules, atomically: true, encoding: .utf8)
        return (library.path, rules.path)
    }

    @Test(arguments: SectionHeaderDamage.sectionsOnly)
    func aDamagedSectionHeaderTableDoesNotLetAnUnsafeLibraryPass(_ damage: SectionHeaderDamage) throws {
        let directory = try Fixtures.temporaryDirectory()
        let (library, rules) = try Self.damagedUnsafeLibrary(damage, in: directory)
        let output = try Command.linkcheck(["check", "--format", "json", "--no-default-rules", "--rules", rules, library])
        #expect(output.status == 1)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any])
        let findings = try #require(report["findings"] as? [[String: Any]])
        #expect(findings.map { "\($0["rule"]!) \($0["severity"]!)" } == ["INSP001 error", "TST001 error"])
        #expect((report["images"] as? [[String: Any]])?.map { $0["verdict"] as? String } == ["unsafe"])
    }

    @Test func randomBytesAfterTheELFHeaderAtFullSizeAreNeverSafe() throws {
        let directory = try Fixtures.temporaryDirectory()
        let (library, rules) = try Self.damagedUnsafeLibrary(.everythingAfterTheHeader, in: directory)
        let output = try Command.linkcheck(["check", "--format", "json", "--no-default-rules", "--rules", rules, library])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any])
        let verdicts = (report["images"] as? [[String: Any]])?.map { $0["verdict"] as? String }
        let failed = (report["summary"] as? [String: Int])?["failed"]
        #expect((verdicts == ["incomplete"] && output.status == 1) || (failed == 1 && output.status == 2), "\(output.standardOutput)")
    }

    @Test func aMissingInputFailsTheRunButTheRestIsChecked() throws {
        let output = try Command.linkcheck(["check", "/nonexistent", Self.library])
        #expect(output.status == 2)
        #expect(output.standardOutput.contains("/nonexistent: error: cannot inspect: cannot read: No such file or directory"))
        #expect(output.standardOutput.contains("linkcheck: 1 image, "))
        let json = try Command.linkcheck(["check", "--format", "json", "/nonexistent", Self.library])
        #expect(json.status == 2)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        #expect((report["summary"] as? [String: Int])?["exitStatus"] == 2)
        #expect((report["summary"] as? [String: Int])?["images"] == 1)
    }

    @Test func aFileInATreeThatCannotBeInspectedFailsTheRun() throws {
        let directory = try Fixtures.temporaryDirectory()
        try Fixtures.compile("linkchain.c", to: directory.path("libclean.so"), flags: ["-shared", "-DCLEAN"])
        try Data("\u{7f}ELF\u{02}\u{01}not an ELF header at all".utf8).write(to: directory.path("libbroken.so"))
        let output = try Command.linkcheck(["check", directory.url.path])
        #expect(output.status == 2)
        #expect(output.standardOutput.contains("libbroken.so: error: cannot inspect: malformed ELF: "))
        #expect(output.standardOutput.hasSuffix("linkcheck: 1 image, 0 errors, 0 warnings, 0 notes; 0 files skipped, 1 file failed\n"))
    }

    @Test func verdictsAgreeWithFindingsUnderABaseline() throws {
        let images = try Fixtures.sampleImages().appendingPathComponent("PhotoEditor").path
        let directory = try Fixtures.temporaryDirectory()
        let baseline = directory.path("baseline.json").path
        let roles = ["--extension", "PhotoEditorExtension=share", "--app", "PhotoEditorApp"]
        let written = try Command.linkcheck(["check", "--format", "json", "--write-baseline", baseline] + roles + [images])
        #expect(written.status == 1)
        let all = try #require(try JSONSerialization.jsonObject(with: Data(written.standardOutput.utf8)) as? [String: Any])
        let count = try #require((all["findings"] as? [Any])?.count)
        let html = directory.path("report.html").path
        let output = try Command.linkcheck(["check", "--format", "json", "--baseline", baseline, "--html", html] + roles + [images])
        #expect(output.status == 0)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any])
        #expect((report["findings"] as? [Any])?.isEmpty == true)
        #expect((report["summary"] as? [String: Int])?["baselined"] == count)
        let verdicts = try #require((report["images"] as? [[String: Any]])?.compactMap { $0["verdict"] as? String })
        #expect(!verdicts.contains("unsafe"), "no image is unsafe without an error finding listed for it")
        let page = try String(contentsOfFile: html, encoding: .utf8)
        #expect(
            page.contains(
                "<strong>libPhotoEditorExtension.so</strong> (share extension): <span class=\"verdict extension-safe\">extension-safe</span>"
            ))
        #expect(!page.contains("<span class=\"verdict unsafe\">"))
        let text = try Command.linkcheck(["check", "--baseline", baseline] + roles + [images])
        #expect(text.standardOutput.hasSuffix("; \(count) findings in the baseline\n"))
    }
    @Test func aBaselinedPartialImageStaysIncomplete() throws {
        let directory = try Fixtures.temporaryDirectory()
        let prefix = directory.path("libFoundation.so")
        try Data(contentsOf: URL(fileURLWithPath: Self.library)).prefix(4096).write(to: prefix)
        let baseline = directory.path("baseline.json").path
        _ = try Command.linkcheck(["check", "--write-baseline", baseline, prefix.path])
        let written = try String(contentsOfFile: baseline, encoding: .utf8)
        #expect(!written.contains("INSP001"), "what could not be read is never accepted: \(written)")
        let output = try Command.linkcheck(["check", "--format", "json", "--baseline", baseline, prefix.path])
        #expect(output.status == 1)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any])
        #expect((report["images"] as? [[String: Any]])?.map { $0["verdict"] as? String } == ["incomplete"])
    }

    /// `Feed.app` links the corpus's SVProgressHUD (its arm64 slice, as a
    /// device app embeds it), which only the app links: its `INSP001` for
    /// a cut file is a warning, yet the run did not read it all, so the
    /// exit status is not 0, and JSON and SARIF say the run is incomplete.
    @Test func anAppOnlyFrameworkReadInPartFailsTheRun() throws {
        let directory = try Fixtures.temporaryDirectory()
        let app = try MachOFixtures.AppBundle(named: "Feed", in: directory.url)
        let corpus = Fixtures.corpusDirectory.appendingPathComponent(
            "macho/jpsim__CardsAgainst/Carthage/Build/iOS/SVProgressHUD.framework/SVProgressHUD")
        let framework = try MachOFixtures.thin(corpus, architecture: "arm64", to: app.addFramework(named: "SVProgressHUD"))
        try MachOFixtures.link(
            MachOFixtures.Image(
                sources: MachOFixtures.sources("app-main.m"), product: .executable, rpaths: ["@executable_path/Frameworks"],
                frameworks: ["UIKit", "Foundation", "CoreFoundation"], inputs: [framework]),
            to: app.executable)
        // The cut falls in the string table: the symbols' names are lost.
        try Data(contentsOf: framework).prefix(100_000).write(to: framework)
        let output = try Command.linkcheck(["check", "--format", "json", app.url.path])
        #expect(output.status == 1, "\(output.standardError)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any])
        let findings = try #require(report["findings"] as? [[String: Any]])
        let partial = findings.filter { $0["rule"] as? String == "INSP001" }
        // The framework's own, and the app's through it: warnings, as only the app runs it.
        #expect(
            partial.map { "\($0["kind"]!) \($0["severity"]!) \(URL(fileURLWithPath: $0["image"] as! String).lastPathComponent)" } == [
                "transitive warning Feed", "partial-inspection warning SVProgressHUD", "partial-inspection warning SVProgressHUD",
            ], "\(partial)")
        #expect(!findings.contains { $0["severity"] as? String == "error" }, "nothing else fails the run")
        let summary = try #require(report["summary"] as? [String: Any])
        #expect(summary["complete"] as? Bool == false)
        #expect(summary["exitStatus"] as? Int == 1)

        let sarif = try Command.linkcheck(["check", "--format", "sarif", app.url.path])
        #expect(sarif.status == 1)
        let log = try #require(try JSONSerialization.jsonObject(with: Data(sarif.standardOutput.utf8)) as? [String: Any])
        let invocation = try #require(((log["runs"] as? [[String: Any]])?.first?["invocations"] as? [[String: Any]])?.first)
        #expect(invocation["executionSuccessful"] as? Bool == false)
        #expect(invocation["exitCode"] as? Int == 1)
        let notifications = (invocation["toolExecutionNotifications"] as? [[String: Any]] ?? [])
            .compactMap { ($0["message"] as? [String: Any])?["text"] as? String }
        #expect(
            notifications.contains {
                $0.hasPrefix(
                    "\(app.url.path)/Frameworks/SVProgressHUD.framework/SVProgressHUD was read only in part: LC_SYMTAB at file offset 0x850: "
                )
            }, "\(notifications)")
        let text = try Command.linkcheck(["check", app.url.path])
        #expect(text.status == 1)
        // The text gives one line for the file, saying how many more
        // structures could not be read; JSON and SARIF list each.
        let lines = text.standardOutput.split(separator: "\n").filter { $0.contains("SVProgressHUD: warning: [INSP001]") }
        #expect(lines.count == 1, "\(lines)")
        #expect(lines.first?.hasSuffix("(and 1 more problem with its structure: --format json lists them)") == true, "\(lines)")
        let results = (log["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]] ?? []
        #expect(results.filter { $0["ruleId"] as? String == "INSP001" }.count == 3, "the file's two, and the app's through it")
    }

    @Test func aSuppressionOfINSP001IsAConfigurationError() throws {
        let directory = try Fixtures.temporaryDirectory()
        let config = directory.path("linkcheck.json")
        try #"{"suppressions": [{"rule": "INSP001", "image": "libFoundation.so", "reason": "known"}]}"#.write(
            to: config, atomically: true, encoding: .utf8)
        let output = try Command.linkcheck(["check", "--config", config.path, Self.library])
        #expect(output.status == 2)
        #expect(output.standardError.contains("$.suppressions[0].rule: INSP001 cannot be suppressed"), "\(output.standardError)")
    }

}
