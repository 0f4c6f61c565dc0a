import Foundation
import LinkCheckAnalysis
import LinkCheckInspection
import LinkCheckReports
import LinkCheckRules
import LinkCheckTestSupport
import Testing

/// The text and JSON renderers on a report built in code.
@Suite struct RendererTests {
    static let rules = [
        Rule(
            id: "AEX001", api: "UIApplication.shared", category: .unavailableAPI, severity: .error, matchers: [],
            message: "bad.", fixit: "Do y.", source: "UIApplication.h"),
        Rule(
            id: "LOAD001", api: "dlopen", category: .conditionalLoading, severity: .note, matchers: [],
            message: "review.", fixit: "Keep it behind a version check.", source: "dlfcn.h"),
    ]
    static let report = Report(
        inputs: ["lib"],
        rulePacks: [RulePackSummary(name: "p", version: "1", path: "Rules/p.json")],
        rules: Dictionary(uniqueKeysWithValues: rules.map { ($0.id, $0) }),
        images: [
            ImageReport(
                image: TestImages.elf("lib/libA.so", soname: "libA.so", needs: ["libc.so.6"]),
                role: AssignedRole(role: .framework, extensionType: nil), verdict: .unsafe, links: [], provides: [], external: false)
        ],
        findings: [
            Finding(
                rule: "AEX001", severity: .error, category: .unavailableAPI, kind: .importedSymbol,
                image: "lib/libA.so", symbol: "$s5UIKit13UIApplicationC6sharedACvgZ",
                demangled: "static UIKit.UIApplication.shared.getter : UIKit.UIApplication",
                message: "imports 'x': bad.", fixit: "Do y.", source: "UIApplication.h"),
            Finding(
                rule: "LOAD001", severity: .note, category: .conditionalLoading, kind: .importedSymbol,
                image: "lib/libA.so", symbol: "dlopen", message: "imports 'dlopen': review."),
        ],
        errors: [.malformed(path: "lib/bad.so", format: .elf, structure: "ELF header", reason: "invalid ELF file data")],
        skipped: [SkippedEntry(path: "lib/README", reason: "not an ELF or Mach-O file")],
        notices: [])

    /// The answer (an image without roles that is unsafe, and why), one
    /// short clang-style line per finding, each rule's explanation once,
    /// then the summary.
    @Test func textIsTheAnswerThenOneClangStyleLinePerFindingThenTheRulesThenASummary() {
        #expect(
            TextRenderer().render(Self.report) == """
                libA.so: unsafe — it imports static UIKit.UIApplication.shared.getter : UIKit.UIApplication
                lib/libA.so: error: [AEX001] imports static UIKit.UIApplication.shared.getter : UIKit.UIApplication
                lib/libA.so: note: [LOAD001] imports dlopen
                lib/bad.so: error: cannot inspect: malformed ELF: ELF header: invalid ELF file data
                note: [AEX001] bad; fix: Do y.
                note: [LOAD001] review; fix: Keep it behind a version check.
                linkcheck: 1 image, 1 error, 0 warnings, 1 note; 1 file skipped, 1 file failed

                """)
    }

    @Test func colourOnlyWhenAsked() {
        #expect(!TextRenderer(color: false).render(Self.report).contains("\u{1B}["))
        #expect(TextRenderer(color: true).render(Self.report).contains("\u{1B}[1;31merror:\u{1B}[0m"))
    }

    @Test func jsonHasTheDocumentedFields() throws {
        let text = CheckJSON().render(Self.report)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(document["schemaVersion"] as? Int == 2)
        let image = try #require((document["images"] as? [[String: Any]])?.first)
        #expect(image["path"] as? String == "lib/libA.so")
        #expect(image["soname"] as? String == "libA.so")
        #expect(image["machine"] as? String == "x86_64")
        #expect(image["class"] as? Int == 64)
        #expect(image["type"] as? String == "ET_DYN")
        #expect(image["role"] as? String == "framework")
        #expect(image["verdict"] as? String == "unsafe")
        #expect(image["needed"] as? [String] == ["libc.so.6"])
        let findings = try #require(document["findings"] as? [[String: Any]])
        #expect(findings.count == 2)
        #expect(findings[0]["rule"] as? String == "AEX001")
        #expect(findings[0]["severity"] as? String == "error")
        #expect(findings[0]["category"] as? String == "unavailable-api")
        #expect(findings[0]["symbol"] as? String == "$s5UIKit13UIApplicationC6sharedACvgZ")
        #expect(findings[0]["demangled"] as? String == "static UIKit.UIApplication.shared.getter : UIKit.UIApplication")
        #expect(findings[1]["demangled"] == nil, "absent when it would equal the symbol")
        #expect(findings[1]["chain"] == nil)
        let errors = try #require(document["errors"] as? [[String: String]])
        #expect(errors.first?["path"] == "lib/bad.so")
        var summary = try #require(document["summary"] as? [String: Any])
        #expect(summary.removeValue(forKey: "complete") as? Bool == false, "a file failed")
        #expect(
            summary as? [String: Int] == [
                "images": 1, "errors": 1, "warnings": 0, "notes": 1, "skipped": 1, "failed": 1, "foldersPassedOver": 0,
                "linksNotFollowed": 0, "incomplete": 0, "needsReview": 0, "baselined": 0, "exitStatus": 2,
            ])
    }

    @Test func jsonIsDeterministic() {
        #expect(CheckJSON().render(Self.report) == CheckJSON().render(Self.report))
    }
}

/// Golden files for the text and JSON renderers.
@Suite struct RendererSnapshotTests {
    @Test func jsonSnapshot() throws {
        let actual = CheckJSON().render(RendererTests.report)
        #expect(try Snapshot.expected("check-report.json", actual: actual) == actual)
    }

    @Test func textSnapshot() throws {
        let actual = TextRenderer().render(RendererTests.report)
        #expect(try Snapshot.expected("check-report.txt", actual: actual) == actual)
    }
}

/// What was passed over, before the summary.
@Suite struct PassedOverRenderingTests {
    static let report = Report(
        inputs: ["lib"], rulePacks: [], images: [], findings: [], errors: [],
        skipped: [
            SkippedEntry(path: "lib/README", reason: "not an ELF or Mach-O file"),
            SkippedEntry(path: "lib/a/deep", reason: "nested deeper than 64 directories", kind: .folder),
            SkippedEntry(path: "lib/b/deep", reason: "nested deeper than 64 directories", kind: .folder),
            SkippedEntry(path: "lib/root", reason: "a symbolic link to /, outside the given paths", kind: .link),
        ],
        notices: [])

    @Test func foldersPassedOverAreNamedOncePerReason() {
        #expect(
            TextRenderer().render(Self.report) == """
                linkcheck: note: passed over 2 folders nested deeper than 64 directories, whose files are not read (exit status 2): lib/a/deep, lib/b/deep
                linkcheck: 0 images, 0 errors, 0 warnings, 0 notes; 1 file skipped, 0 files failed, 1 link not followed

                """)
    }

    @Test func verboseNamesEveryFileSkippedAndLinkNotFollowed() {
        #expect(
            TextRenderer(verbose: true).render(Self.report) == """
                lib/README: note: skipped: not an ELF or Mach-O file
                lib/root: note: not followed: a symbolic link to /, outside the given paths
                linkcheck: note: passed over 2 folders nested deeper than 64 directories, whose files are not read (exit status 2): lib/a/deep, lib/b/deep
                linkcheck: 0 images, 0 errors, 0 warnings, 0 notes; 1 file skipped, 0 files failed, 1 link not followed

                """)
    }

    @Test func jsonCountsEachKindAndNamesIt() throws {
        let document = try #require(try JSONSerialization.jsonObject(with: Data(CheckJSON().render(Self.report).utf8)) as? [String: Any])
        let summary = try #require(document["summary"] as? [String: Int])
        #expect(summary["skipped"] == 1)
        #expect(summary["foldersPassedOver"] == 2)
        #expect(summary["linksNotFollowed"] == 1)
        #expect(summary["exitStatus"] == 2, "folders not walked are inputs not read")
        #expect((document["skipped"] as? [[String: String]])?.map { $0["kind"] } == ["file", "folder", "folder", "link"])
    }
}

@Suite struct TextRendererLineTests {
    @Test func aNewlineInAFileNameKeepsTheDiagnosticOnOneLine() {
        let report = Report(
            inputs: [], rulePacks: [], images: [],
            findings: [
                Finding(
                    rule: "LOAD001", severity: .note, category: .conditionalLoading, kind: .importedSymbol,
                    image: "lib/odd\nname.so", symbol: "dlopen", message: "imports 'dlopen': review.")
            ],
            errors: [], skipped: [], notices: [])
        let lines = TextRenderer().render(report).split(separator: "\n")
        #expect(lines.first == "lib/odd\\u{a}name.so: note: [LOAD001] imports dlopen")
        #expect(lines.count == 2)
    }
}
