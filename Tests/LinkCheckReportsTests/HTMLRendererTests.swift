import Foundation
import LinkCheckAnalysis
import LinkCheckImage
import LinkCheckInspection
import LinkCheckReports
import LinkCheckRules
import LinkCheckSourceLines
import LinkCheckTestSupport
import Testing

@Suite struct HTMLRendererTests {
    static func image(_ path: String, role: Role = .framework, verdict: Verdict = .extensionSafe, links: [String] = []) -> ImageReport {
        ImageReport(
            image: TestImages.elf(path), role: AssignedRole(role: role, extensionType: nil), verdict: verdict, links: links,
            provides: [], external: false)
    }

    static let rules: RuleSet = {
        let rule = Rule(
            id: "TST001", api: "UIApplication.shared", category: .unavailableAPI, severity: .error,
            matchers: [.symbol("kit_shared")], message: "unavailable in extensions", fixit: "Pass it in.",
            source: "UIKit.h",
            sdk: SDKRange(
                platform: .iOS, markedFrom: SDKVersion("9.3")!, markedUntil: SDKVersion("16.5")!, unmarkedFrom: SDKVersion("17.0")!))
        let string = Rule(
            id: "TST002", api: "TRUEPREDICATE", category: .configuration, severity: .error,
            matchers: [.string("TRUEPREDICATE")], message: "a placeholder", fixit: "Replace it.", source: "Guide")
        return RuleSet.build(packs: [RulePack(path: "t.json", name: "t", version: "1", rules: [rule, string])]).0
    }()

    /// The report of an analysis of `images` under `policy`, as `check`
    /// makes it.
    static func report(_ images: [BinaryImage], _ policy: Policy) -> Report {
        let outcome = Analyzer(images: images, rules: rules, policy: policy).run()
        return Report(
            inputs: ["/t"], rulePacks: [], rules: Dictionary(rules.rules.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first }),
            images: outcome.images, findings: outcome.findings, errors: [], skipped: [], notices: [])
    }

    /// Two extensions and the app link SyncKit, which links Uploader, which
    /// imports the unsafe API; Legacy, which only the app links, imports it
    /// too.
    static let app = [
        TestImages.elf("/t/libShare.so", needs: ["libSync.so"]),
        TestImages.elf("/t/libWidget.so", needs: ["libSync.so"]),
        TestImages.elf("/t/libApp.so", needs: ["libSync.so", "libLegacy.so"]),
        TestImages.elf("/t/libSync.so", needs: ["libUploader.so"]),
        TestImages.elf("/t/libUploader.so", imports: ["kit_shared"]),
        TestImages.elf("/t/libLegacy.so", imports: ["kit_shared"]),
    ]
    static let roles = Policy(extensions: ["Share": .share, "Widget": .widget], apps: ["App"])

    /// The cards' opening tags: severity, rule, image.
    static func cards(_ html: String) throws -> [[String]] {
        try Browser.captures(
            #"<article class="card [a-z]+" id="([^"]*)" data-severity="([a-z]+)" data-rule="([^"]*)" data-image="([^"]*)""#, in: html)
    }

    /// Each call site with a source gives its place relative to the source
    /// root and the line written there, trimmed and escaped; a file past
    /// whose end the line lies, larger than 8 MiB, not a regular file, or
    /// missing gives the place alone.
    @Test func callSitesShowTheirSourceLines() throws {
        let directory = try Fixtures.temporaryDirectory()
        try "first\n\t  let x = a < b && c  \nthird\n".write(to: directory.path("ok.swift"), atomically: true, encoding: .utf8)
        try Data(repeating: UInt8(ascii: "a"), count: (8 << 20) + 1).write(to: directory.path("huge.swift"))
        let places =
            [
                ("ok.swift", 2), ("ok.swift", 9), ("huge.swift", 1), ("missing.swift", 1),
            ].map { (directory.path($0.0).path, $0.1) } + [("/dev/zero", 1)]
        var report = Self.report(Self.app, Self.roles)
        let index = try #require(report.findings.firstIndex { $0.image == "/t/libUploader.so" })
        report.findings[index].callSites = places.enumerated().map { offset, place in
            var site = FindingCallSite(function: "f\(offset)", demangled: nil, address: 0x1000 + UInt64(offset), fileOffset: 0)
            site.source = AddressSource(location: SourcePosition(file: place.0, line: place.1, column: 5), function: nil)
            return site
        }
        let html = HTMLRenderer(sourceRoot: SourceRoot(directory.url.path)).render(report)
        #expect(html.contains("<code class=\"place\">ok.swift:2:5</code> <code class=\"line\">let x = a &lt; b &amp;&amp; c</code></span>"))
        for place in ["ok.swift:9:5", "huge.swift:1:5", "missing.swift:1:5", "/dev/zero:1:5"] {
            #expect(html.contains("<code class=\"place\">\(place)</code></span>"), "\(place)")
        }
        #expect(html.components(separatedBy: "<code class=\"line\">").count == 2, "one line shown")
    }

    @Test func everyStringIsEscaped() {
        let hostile = "<script>alert('x')</script> & \"quoted\""
        let report = Report(
            inputs: [hostile], rulePacks: [RulePackSummary(name: hostile, version: hostile, path: hostile)],
            images: [Self.image("/t/\(hostile)")],
            findings: [
                Finding(
                    rule: "TST001", severity: .error, category: .unavailableAPI, kind: .importedSymbol,
                    image: "/t/\(hostile)", symbol: hostile, demangled: hostile, chain: [hostile, hostile],
                    message: hostile, fixit: hostile, source: hostile)
            ],
            errors: [.malformed(path: hostile, format: .elf, structure: hostile, reason: hostile)], skipped: [], notices: [hostile])
        let html = HTMLRenderer().render(report)
        #expect(!html.contains("<script>alert"))
        #expect(!html.contains("\"quoted\""))
        #expect(html.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;quoted&quot;"))
        #expect(html.components(separatedBy: "<script>").count == 2, "only the report's own script")
        #expect(html.contains("<li class=\"answer incomplete\">1 file could not be inspected"))
        // Graphviz's label of the node, escaped by Graphviz.
        #expect(html.contains(">script&gt; &amp; &quot;quoted&quot;</text>"), "its file name, after the last slash")
    }

    /// Graphviz reads escapes and entities in labels: a name holding them
    /// is still drawn as it is.
    @Test func labelsAreTheNamesCharacterForCharacter() throws {
        let name = #"lib&amp;&#65;\N\G\n"q".so"#
        let html = HTMLRenderer().render(
            Report(
                inputs: [], rulePacks: [], images: [Self.image("/t/\(name)")], findings: [], errors: [], skipped: [], notices: []))
        let label = try #require(try Browser.captures(#"<g id="lcn0"[^>]*>.*?<text [^>]*>([^<]*)</text>"#, in: html).first?.first)
        #expect(label == #"lib&amp;amp;&amp;#65;\N\G\n&quot;q&quot;.so"#)
    }

    /// Images of one file name in several folders are told apart by as
    /// many folders as it takes, in the graph and on the page.
    @Test func sameFileNamesAreToldApartByTheirFolders() throws {
        let report = Report(
            inputs: [], rulePacks: [],
            images: ["/a/x86/libcodec.so", "/a/arm/libcodec.so", "/b/arm/libcodec.so"].map { Self.image($0) }
                + [Self.image("/a/libz.so", verdict: .unsafe)],
            findings: [], errors: [], skipped: [], notices: [])
        let html = HTMLRenderer().render(report)
        let labels = try Browser.captures(#"<g id="lcn\d+" data-image="([^"]*)"[^>]*>.*?<text [^>]*>([^<]*)</text>"#, in: html)
        #expect(
            Dictionary(uniqueKeysWithValues: labels.map { ($0[0], $0[1]) }) == [
                "/a/x86/libcodec.so": "x86/libcodec.so", "/a/arm/libcodec.so": "a/arm/libcodec.so",
                "/b/arm/libcodec.so": "b/arm/libcodec.so", "/a/libz.so": "libz.so",
            ])
        #expect(html.contains("<span class=\"chip extension-safe\" data-image=\"/b/arm/libcodec.so\">b/arm/libcodec.so <small>"))
    }

    @Test func graphHasANodePerImageAndAnEdgePerLink() throws {
        let report = Report(
            inputs: [], rulePacks: [],
            images: [
                Self.image("/t/libExt.so", role: .extension, verdict: .unsafe, links: ["/t/libKit.so", "/t/libUI.so"]),
                Self.image("/t/libKit.so", verdict: .unsafe, links: ["/t/libUI.so"]),
                Self.image("/t/libUI.so"),
            ],
            findings: [], errors: [], skipped: [], notices: [])
        let html = HTMLRenderer().render(report)
        let geometry = try GraphGeometry(html: html)
        #expect(Set(geometry.nodes.keys) == ["/t/libExt.so", "/t/libKit.so", "/t/libUI.so"])
        #expect(
            Set(geometry.edges.map { "\($0.from) → \($0.to)" }) == [
                "/t/libExt.so → /t/libKit.so", "/t/libExt.so → /t/libUI.so", "/t/libKit.so → /t/libUI.so",
            ])
        #expect(html.contains("<g id=\"lcn0\" data-image=\"/t/libExt.so\" class=\"node unsafe extension\">"))
        #expect(html.contains("<title>libExt.so links libKit.so</title>"))
        #expect(!html.contains("xlink"), "nothing of Graphviz's document outside the drawing")
        #expect(html.contains("<span class=\"verdict unsafe\">unsafe</span>"))
    }

    /// 30 images, some in chains: Graphviz's layered layout routes every
    /// edge around the boxes it does not connect, from and to distinct
    /// points, and a cycle still lays out.
    @Test(arguments: [false, true]) func largeGraphsKeepEdgesOutOfOtherBoxes(cycle: Bool) throws {
        var links = Array(repeating: [String](), count: 30)
        for top in 0..<4 { for framework in 4..<30 where framework % 4 == top { links[top].append("/t/lib\(framework).so") } }
        for framework in 4..<26 { links[framework].append("/t/lib\(framework + 4).so") }
        if cycle { links[29].append("/t/lib9.so") }
        let images = (0..<30).map { Self.image("/t/lib\($0).so", role: $0 < 4 ? .extension : .framework, links: links[$0]) }
        let html = HTMLRenderer().render(
            Report(inputs: [], rulePacks: [], images: images, findings: [], errors: [], skipped: [], notices: []))
        let geometry = try GraphGeometry(html: html)
        #expect(geometry.nodes.count == 30)
        #expect(geometry.edges.count == links.joined().count)
        for (edge, node) in geometry.edgesThroughOtherNodes() {
            Issue.record("\(edge.from) → \(edge.to) passes through \(node)")
        }
        #expect(geometry.sharedPorts(closerThan: 4).isEmpty)
        for edge in geometry.edges where !cycle {
            #expect(geometry.nodes[edge.to]!.minY > geometry.nodes[edge.from]!.maxY, "links point down")
        }
    }

    /// The browser tests' geometry check sees an edge that crosses a third
    /// box, and two edges that leave a box at one point.
    @Test func theGeometryCheckSeesAnEdgeThroughABox() throws {
        let svg = """
            <g id="lcn0" data-image="a" class="node"><title>a</title><polygon points="0,0 10,0 10,10 0,10 0,0"/></g>
            <g id="lcn1" data-image="b" class="node"><polygon points="0,100 10,100 10,110 0,110 0,100"/></g>
            <g id="lcn2" data-image="c" class="node"><polygon points="0,50 10,50 10,60 0,60 0,50"/></g>
            <g id="lce0" data-from="a" data-to="b" class="edge"><path d="M5,10C5,40 5,70 5,100"/></g>
            <g id="lce1" data-from="a" data-to="c" class="edge"><path d="M5,10C5,20 5,30 5,50"/></g>
            """
        let geometry = try GraphGeometry(html: svg)
        #expect(geometry.edgesThroughOtherNodes().map { "\($0.edge.from) → \($0.edge.to) through \($0.node)" } == ["a → b through c"])
        #expect(geometry.sharedPorts(closerThan: 4).map { "\($0.0.to) \($0.1.to)" } == ["b c"])
    }

    /// A framework's finding is one card that names the extensions it
    /// reaches, not a card on every image that links it; errors come
    /// first, ordered by how many extensions they reach.
    @Test func aFrameworksFindingIsOneCardWithTheExtensionsItReaches() throws {
        let report = Self.report(Self.app, Self.roles)
        let html = HTMLRenderer().render(report)
        let cards = try Self.cards(html)
        #expect(
            cards.map { [$0[1], $0[2], $0[3]] } == [
                ["error", "TST001", "/t/libUploader.so"],
                ["note", "TST001", "/t/libLegacy.so"],
            ])
        let card = try #require(
            try Browser.captures(#"(<article class="card error" id="TST001-libUploader.so".*?</article>)"#, in: html).first?.first)
        #expect(
            card.contains(
                "Reaches <span class=\"reach error\" data-image=\"/t/libShare.so\"><strong>libShare.so</strong> (share extension) through libSync.so <small>error</small></span> <span class=\"reach error\" data-image=\"/t/libWidget.so\"><strong>libWidget.so</strong> (widget extension) through libSync.so <small>error</small></span> <span class=\"reach note\" data-image=\"/t/libApp.so\"><strong>libApp.so</strong> (app) through libSync.so <small>note</small></span>"
            ))
        #expect(card.contains("<p class=\"fixit\"><strong>Fix:</strong> Pass it in.</p>"))
        #expect(
            card.contains(
                "<p class=\"source\">Source: UIKit.h · Marked in SDKs: iOS 9.3–16.5 (not marked from 17.0) · <a class=\"permalink\" href=\"#TST001-libUploader.so\">#TST001-libUploader.so</a></p>"
            ))
        // Legacy's note is where what only the app runs is, collapsed.
        #expect(try Browser.captures(#"<details class="group" id="group-app-only">.*?id="(TST001-libLegacy.so)""#, in: html).count == 1)
    }

    /// The first lines: each extension, its type and verdict, and in one
    /// sentence what makes it unsafe; the app and what only it runs after.
    @Test func theAnswerNamesEachExtensionAndWhatMakesItUnsafe() throws {
        var images = Self.app
        images[0] = TestImages.elf("/t/libShare.so", needs: ["libSync.so"])
        let report = Self.report(images, Self.roles)
        let html = HTMLRenderer().render(report)
        let answers = try Browser.captures(#"(<li class="answer [^"]*" data-image="[^"]*">.*?</li>)\n"#, in: html).map { $0[0] }
        #expect(
            answers == [
                "<li class=\"answer unsafe\" data-image=\"/t/libShare.so\"><strong>libShare.so</strong> (share extension): <span class=\"verdict unsafe\">unsafe</span> — <strong>libSync.so</strong> links <strong>libUploader.so</strong>, which imports <a href=\"#TST001-libUploader.so\"><code>kit_shared</code></a>.</li>",
                "<li class=\"answer unsafe\" data-image=\"/t/libWidget.so\"><strong>libWidget.so</strong> (widget extension): <span class=\"verdict unsafe\">unsafe</span> — <strong>libSync.so</strong> links <strong>libUploader.so</strong>, which imports <a href=\"#TST001-libUploader.so\"><code>kit_shared</code></a>.</li>",
            ])
        let answer = try #require(try Browser.captures(#"(<section id="answer">.*?</section>)"#, in: html).first?.first)
        #expect(
            answer.contains(
                "<p class=\"quiet\">Containing app: <span class=\"chip app-only\" data-image=\"/t/libApp.so\">libApp.so <small>app-only</small></span>, which may use any API; frameworks only the app links or loads: <span class=\"chip app-only\" data-image=\"/t/libLegacy.so\">libLegacy.so <small>app-only</small></span>.</p>"
            ))
        let first = try #require(html.range(of: "<li class=\"answer"))
        #expect(!html[..<first.lowerBound].contains("<section id=\"graph\""), "the answer comes before the graph")
    }

    /// Images of two apps are answered under each app's name, in the
    /// report's order, and the images in no bundle after them; the images
    /// of one app alone get no heading.
    @Test func theAnswerIsGroupedByApp() throws {
        func placement(_ app: String) -> BundlePlacement {
            let folder = BundleFolder(path: "/t/\(app)", displayPath: app, kind: .app, layout: .flat, info: nil)
            return BundlePlacement(
                outermost: folder, innermost: folder, containingApp: folder, place: "", isExecutable: false, role: nil, library: nil)
        }
        var report = Self.report(Self.app, Self.roles)
        for index in report.images.indices {
            switch report.images[index].path {
            case "/t/libShare.so", "/t/libSync.so", "/t/libUploader.so": report.images[index].bundle = placement("Share.app")
            case "/t/libWidget.so": report.images[index].bundle = placement("Widget.app")
            default: break
            }
        }
        let html = HTMLRenderer().render(report)
        let answer = try #require(try Browser.captures(#"(<section id="answer">.*?</section>)"#, in: html).first?.first)
        let headings = try Browser.captures(#"<h3 class="bundle"[^>]*>([^<]*)</h3>"#, in: answer).map { $0[0] }
        #expect(headings == ["Share.app", "Widget.app", "Images in no bundle"])
        let order = try Browser.captures(
            #"<h3 class="bundle"[^>]*>([^<]*)</h3>|<li class="answer [a-z-]+" data-image="([^"]*)">"#, in: answer
        )
        .map { $0[0].isEmpty ? $0[1] : $0[0] }
        #expect(order == ["Share.app", "/t/libShare.so", "Widget.app", "/t/libWidget.so", "Images in no bundle", "/t/libLegacy.so"])
        #expect(
            answer.contains("Containing app: <span class=\"chip app-only\" data-image=\"/t/libApp.so\">"),
            "the loose app is answered in its group")

        for index in report.images.indices { report.images[index].bundle = placement("Photos.app") }
        #expect(!HTMLRenderer().render(report).contains("<h3 class=\"bundle\""))
    }

    /// A hop made by dlopen is said as such ("loads", not "links"), and
    /// the images table names who links or loads an image, never the image
    /// itself.
    @Test func theAnswerSaysLoadsForADlopenHop() throws {
        let app = try MachOFixture.loadingApp.path()
        let report = try ShippedRules.check(app)
        let html = HTMLRenderer().render(report)
        let answer = try #require(
            try Browser.captures(#"(<li class="answer [^"]*" data-image="[^"]*/Ext">.*?</li>)"#, in: html).first?.first)
        #expect(
            answer.contains(
                "<strong>Loader.framework</strong> loads <strong>Uploader.framework</strong>, which calls <a href=\"#AEX001-Uploader.framework\"><code>+[UIApplication sharedApplication]</code></a> from <code>present_login</code>"
            ), "\(answer)")
        let rows = try Browser.captures(#"<tr data-image="([^"]*)">(?:<td>.*?</td>){4}<td>([^<]*)</td>"#, in: html)
        let linkedBy = Dictionary(uniqueKeysWithValues: rows.map { (String($0[0].dropFirst(app.path.count + 1)), $0[1]) })
        #expect(
            linkedBy == [
                "Loads": "",
                "PlugIns/Ext.appex/Ext": "",
                "Frameworks/Loader.framework/Loader": "Ext.appex",
                "Frameworks/Uploader.framework/Uploader": "Loads.app, Ext.appex",
            ])
    }

    /// Without roles, the unsafe images lead, each with its causes.
    @Test func withoutRolesTheUnsafeFrameworksLead() throws {
        let report = Self.report(
            [
                TestImages.elf("/t/libSync.so", needs: ["libUploader.so"]),
                TestImages.elf("/t/libUploader.so", imports: ["kit_shared"]),
                TestImages.elf("/t/libSafe.so"),
            ], Policy())
        let html = HTMLRenderer().render(report)
        let answers = try Browser.captures(#"<li class="answer ([a-z-]+)" data-image="([^"]*)">"#, in: html)
        #expect(answers == [["unsafe", "/t/libSync.so"], ["unsafe", "/t/libUploader.so"]])
        #expect(
            html.contains(
                "<strong>libUploader.so</strong>: <span class=\"verdict unsafe\">unsafe</span> — it imports <a href=\"#TST001-libUploader.so\"><code>kit_shared</code></a>.</li>"
            ))
        #expect(
            html.contains(
                "<p class=\"quiet\">Extension-safe: <span class=\"chip extension-safe\" data-image=\"/t/libSafe.so\">libSafe.so <small>extension-safe</small></span>.</p>"
            ))
    }

    /// Notes that an image provides an API are one collapsed group; a
    /// provides note of an (image, rule) that has an error stays on its card.
    @Test func providedNotesAreGroupedAndNoPairIsOnTwoCards() throws {
        let provides = { (image: String, rule: RuleID) in
            Finding(
                rule: rule, severity: .note, category: .unavailableAPI, kind: .providedSymbol, image: image, symbol: "s",
                message: "provides it")
        }
        var error = Finding(
            rule: "TST001", severity: .error, category: .unavailableAPI, kind: .staticCall, image: "/t/libExt.so",
            symbol: "s", message: "calls s: unavailable in extensions")
        error.callSites = (0..<5).map { FindingCallSite(function: "f\($0)", demangled: nil, address: 0x100 + UInt64($0), fileOffset: 0) }
        let report = Report(
            inputs: [], rulePacks: [], rules: Dictionary(Self.rules.rules.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first }),
            images: [Self.image("/t/libExt.so", role: .extension, verdict: .unsafe), Self.image("/t/libUIKit.so")],
            findings: [
                error, provides("/t/libExt.so", "TST001"), provides("/t/libUIKit.so", "TST001"), provides("/t/libUIKit.so", "TST002"),
            ],
            errors: [], skipped: [], notices: [])
        let html = HTMLRenderer().render(report)
        #expect(
            try Self.cards(html).map { [$0[2], $0[3]] } == [
                ["TST001", "/t/libExt.so"], ["TST001", "/t/libUIKit.so"], ["TST002", "/t/libUIKit.so"],
            ])
        let group = try #require(
            try Browser.captures(#"(<details class="group" id="group-provided">.*?</details>\n)"#, in: html).first?.first)
        #expect(try Self.cards(group).map(\.[3]) == ["/t/libUIKit.so", "/t/libUIKit.so"])
        // The error's card: both findings, each with its severity; the
        // call sites after the first three collapsed.
        let card = try #require(try Browser.captures(#"(<article class="card error".*?</article>)"#, in: html).first?.first)
        #expect(card.contains("<span class=\"level error\">error</span>"))
        #expect(card.contains("<span class=\"level note\">note</span>"))
        #expect(
            card.contains(
                "<code title=\"f2\">f2</code> at <code>0x102</code> <details class=\"more inline\"><summary>and 2 more</summary><code title=\"f3\">f3</code> at <code>0x103</code>, "
            ))
        #expect(html.contains("it calls <a href=\"#TST001-libExt.so\"><code>s</code></a> from <code>f0 and 4 more</code>"))
    }

    /// The footer gives the command line, words quoted as a shell needs.
    @Test func theFooterSaysHowToReproduceTheRun() {
        var report = Report(inputs: [], rulePacks: [], images: [], findings: [], errors: [], skipped: [], notices: [])
        report.invocation = Invocation(
            arguments: ["check", "--html", "my report.html", "it's", "PhotoEditor"], workingDirectory: "/w/Samples")
        let html = HTMLRenderer().render(report)
        #expect(
            html.contains(
                "<code class=\"command\">cd /w/Samples &amp;&amp; linkcheck check --html &#39;my report.html&#39; &#39;it&#39;\\&#39;&#39;s&#39; PhotoEditor</code>"
            ))
    }
}
