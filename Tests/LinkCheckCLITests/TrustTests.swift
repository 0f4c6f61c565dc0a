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
        #expect(findings.map { "\($0["rule"]!) \($0["severity"]!)" } == ["INSP001 error"])
        let summary = try #require(report["summary"] as? [String: Int])
        #expect(summary["incomplete"] == 1)
        let text = try Command.linkcheck(["check", prefix.path])
        #expect(text.standardOutput.hasSuffix("linkcheck: 1 image (1 incomplete), 1 error, 0 warnings, 0 notes; 0 files skipped, 0 files failed\n"))
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
        #expect(page.contains("<strong>libPhotoEditorExtension.so</strong> (share extension): <span class=\"verdict extension-safe\">extension-safe</span>"))
        #expect(!page.contains("<span class=\"verdict unsafe\">"))
        let text = try Command.linkcheck(["check", "--baseline", baseline] + roles + [images])
        #expect(text.standardOutput.hasSuffix("; \(count) findings in the baseline\n"))
    }
}

/// A small deterministic random number generator (SplitMix64), so that a
/// test's random bytes are the same on every run.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
