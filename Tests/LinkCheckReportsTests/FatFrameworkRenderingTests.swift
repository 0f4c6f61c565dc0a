import Foundation
import LinkCheckAnalysis
import LinkCheckReports
import LinkCheckTestSupport
import Testing

/// A fat framework is one image to a reader, in every output, on an app
/// shaped like a real one (``MachOFixtures/realShapedApp()``: the corpus'
/// fat SVProgressHUD, MBProgressHUD and Cartography, i386, x86_64, armv7
/// and arm64, in an arm64-only iOS 15.0 app whose share extension links
/// SVProgressHUD).
@Suite struct FatFrameworkRenderingTests {
    static func report() throws -> (Report, URL) {
        let app = try MachOFixtures.realShapedApp()
        return (try ShippedRules.check(app), app)
    }

    /// One text line per finding, with the slices that hold it; the note
    /// on the slices no process loads names the file alone.
    @Test func oneTextLinePerFindingWithItsSlices() throws {
        let (report, app) = try Self.report()
        let svProgressHUD = app.appendingPathComponent("Frameworks/SVProgressHUD.framework/SVProgressHUD").path
        let lines = TextRenderer().render(report).split(separator: "\n").map(String.init).filter { $0.hasPrefix(svProgressHUD) }
        let heads = lines.map { line in String(line.dropFirst(svProgressHUD.count).prefix { $0 != "]" }) + "]" }
        #expect(
            heads == [
                " (arm64, armv7, i386, x86_64): error: [AEX001]", ": note: [ARCH004]", ": error: [BNDL005]",
                " (arm64): warning: [FLAG001]", " (arm64, armv7, i386, x86_64): note: [LOAD008]",
                " (arm64, armv7, i386, x86_64): note: [LOAD014]",
            ])
        #expect(
            lines[0].hasSuffix(
                "[AEX001] calls +[UIApplication sharedApplication] from -[SVProgressHUD positionHUD:] and 3 more callers (linked by Share)")
        )
        #expect(
            lines[1].hasSuffix(
                "[ARCH004] slices i386, x86_64 are for the simulator and armv7 is 32-bit: no process of this iOS 15.0 app loads them"))
        let verdicts = TextRenderer().render(report).split(separator: "\n").filter { $0.hasPrefix("Share.appex") }
        #expect(
            verdicts == [
                "Share.appex (share extension): unsafe — SVProgressHUD.framework calls +[UIApplication sharedApplication] from -[SVProgressHUD positionHUD:] and 3 more"
            ])
        let summary = TextRenderer().render(report).split(separator: "\n").last ?? ""
        // SVProgressHUD's AEX001 and Share's, Cartography's nine BNDL001
        // (the Swift runtime libraries the app does not embed), and what App
        // Store Connect would refuse: the three fat frameworks' simulator
        // slices (BNDL005) and MBProgressHUD's bitcode (BNDL013).
        #expect(summary.hasPrefix("linkcheck: 5 images, 15 errors, "), "one image per file, one finding per group: \(summary)")
    }

    /// A note held only by slices no process loads is left out of what a
    /// reader reads: MBProgressHUD's armv7 and i386 slices import ARCLite's
    /// class look-ups, whose calls those slices' analysis cannot place in
    /// the toolchain's code (`LOAD013`); the JSON document keeps them.
    @Test func notesOfSlicesNoProcessLoadsAreLeftToTheJSON() throws {
        let (report, app) = try Self.report()
        let mbProgressHUD = app.appendingPathComponent("Frameworks/MBProgressHUD.framework/MBProgressHUD").path
        let unloaded = report.findings.filter { $0.image.hasPrefix(mbProgressHUD) && $0.rule == "LOAD013" }
        #expect(!unloaded.isEmpty && unloaded.allSatisfy { $0.severity == .note })
        #expect(Set(unloaded.map(\.image)) == ["\(mbProgressHUD)[armv7]", "\(mbProgressHUD)[i386]"])
        let lines = TextRenderer().render(report).split(separator: "\n").map(String.init).filter { $0.hasPrefix(mbProgressHUD) }
        #expect(
            lines.map { String($0.dropFirst(mbProgressHUD.count).prefix { $0 != "]" }) + "]" } == [
                ": note: [ARCH004]", ": error: [BNDL005]", ": error: [BNDL013]",
            ])
        #expect(!HTMLRenderer().render(report).contains("LOAD013-MBProgressHUD"))
        #expect(CheckJSON().render(report).contains("\"LOAD013\""))
    }

    /// The HTML report: the extension's verdict names SVProgressHUD's arm64
    /// sharedApplication; no slice is "linked or loaded by neither"; one
    /// card per (framework, rule) naming the slices; one graph node per file.
    @Test func htmlShowsEachFatFrameworkOnce() throws {
        let (report, app) = try Self.report()
        let html = HTMLRenderer().render(report)
        #expect(!html.contains("linked or loaded by neither"))
        let answers = try Browser.captures(#"<li class="answer ([a-z-]+)" data-image="([^"]*)">"#, in: html)
        #expect(answers == [["unsafe", app.appendingPathComponent("PlugIns/Share.appex/Share").path]])
        #expect(
            html.contains(
                "<strong>Share.appex</strong> (share extension): <span class=\"verdict unsafe\">unsafe</span> — <strong>SVProgressHUD.framework</strong> calls <a href=\"#AEX001-SVProgressHUD.framework\"><code>+[UIApplication sharedApplication]</code></a> from <code>-[SVProgressHUD positionHUD:] and 3 more</code>."
            ))
        let cards = try Browser.captures(#"<article class="card [a-z]+" id="([^"]+)""#, in: html).map { $0[0] }
        #expect(
            cards.filter { $0.contains("SVProgressHUD") }.sorted() == [
                "AEX001-SVProgressHUD.framework", "ARCH004-SVProgressHUD.framework", "BNDL005-SVProgressHUD.framework",
                "FLAG001-SVProgressHUD.framework",
                "LOAD008-SVProgressHUD.framework", "LOAD014-SVProgressHUD.framework",
            ])
        #expect(
            html.contains(
                "<span class=\"rule\">AEX001</span> UIApplication.shared <span class=\"in\">in</span> <span class=\"image\" title=\"\(app.path)/Frameworks/SVProgressHUD.framework/SVProgressHUD\">SVProgressHUD.framework (arm64, armv7, i386, x86_64)</span></h3>"
            ))
        let dot = DotRenderer().render(report)
        let nodes = try Browser.captures(#"\n    "([^"]+)" \[label"#, in: dot).map { String($0[0].dropFirst(app.path.count + 1)) }
        #expect(
            nodes.sorted() == [
                "Frameworks/Cartography.framework/Cartography", "Frameworks/MBProgressHUD.framework/MBProgressHUD",
                "Frameworks/SVProgressHUD.framework/SVProgressHUD", "Photos", "PlugIns/Share.appex/Share",
            ])
        #expect(
            dot.contains(
                "\"\(app.path)/PlugIns/Share.appex/Share\" -> \"\(app.path)/Frameworks/SVProgressHUD.framework/SVProgressHUD\" [color=\"#c9252d\", penwidth=2];"
            ))
    }

    /// SARIF gives code scanning one result per finding as a reader takes
    /// it: SVProgressHUD's sharedApplication once, on the file, with the
    /// slices that hold it.
    @Test func sarifHasOneResultPerFindingAcrossSlices() throws {
        let (report, app) = try Self.report()
        let sarif = SARIFRenderer(baseDirectory: app.path).render(report)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(sarif.utf8)) as? [String: Any])
        let results = try #require(((document["runs"] as? [[String: Any]])?.first?["results"]) as? [[String: Any]])
        let onSVProgressHUD = results.filter { result in
            let locations = result["locations"] as? [[String: Any]]
            let physical = locations?.first?["physicalLocation"] as? [String: Any]
            return (physical?["artifactLocation"] as? [String: Any])?["uri"] as? String
                == "Frameworks/SVProgressHUD.framework/SVProgressHUD"
        }
        #expect(
            onSVProgressHUD.compactMap { $0["ruleId"] as? String } == ["AEX001", "ARCH004", "BNDL005", "FLAG001", "LOAD008", "LOAD014"])
        let aex001 = try #require(onSVProgressHUD.first)
        #expect(aex001["level"] as? String == "error")
        #expect((aex001["properties"] as? [String: Any])?["slices"] as? [String] == ["arm64", "armv7", "i386", "x86_64"])
    }

    /// JSON keeps every slice, and says which file each is and which slices
    /// a finding holds in.
    @Test func jsonKeepsSlicesAndGroupsThem() throws {
        let (report, app) = try Self.report()
        let document = try #require(try JSONSerialization.jsonObject(with: Data(CheckJSON().render(report).utf8)) as? [String: Any])
        let svProgressHUD = app.appendingPathComponent("Frameworks/SVProgressHUD.framework/SVProgressHUD").path
        let files = try #require(document["files"] as? [[String: Any]])
        let file = try #require(files.first { $0["name"] as? String == svProgressHUD })
        #expect(file["verdict"] as? String == "unsafe")
        #expect(file["slices"] as? [String] == ["arm64", "armv7", "i386", "x86_64"])
        let images = try #require(document["images"] as? [[String: Any]])
        #expect(
            images.filter { $0["file"] as? String == svProgressHUD }.map { $0["verdict"] as? String }
                == ["unsafe", "not-loaded", "not-loaded", "not-loaded"])
        let findings = try #require(document["findings"] as? [[String: Any]])
        let sharedApplication = findings.filter { $0["file"] as? String == svProgressHUD && $0["rule"] as? String == "AEX001" }
        #expect(sharedApplication.map { $0["image"] as? String } == ["arm64", "armv7", "i386", "x86_64"].map { "\(svProgressHUD)[\($0)]" })
        #expect(sharedApplication.allSatisfy { $0["slices"] as? [String] == ["arm64", "armv7", "i386", "x86_64"] })
        #expect(sharedApplication.map { $0["severity"] as? String } == ["error", "note", "note", "note"])
    }
}
