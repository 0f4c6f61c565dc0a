#if canImport(CLibDW)  // ELF source lines read through libdw: not in a build without libelf (Package.swift)
import Foundation
import LinkCheckSourceLines
import LinkCheckTestSupport
import Testing

/// `check --format json` gives each call site of an image built with `-g`
/// its source (file, line, column, inline chain), equal to what
/// `llvm-symbolizer` says of the call's address, and the text output puts
/// it first; an image built without `-g` gets none.
@Suite struct CallSiteSourceTests {
    /// Tests/Fixtures/SourceLines/loader.c (or `source`) built as `name`
    /// with `flags`.
    private func build(
        _ name: String, flags: [String], source: String = "SourceLines/loader.c", in directory: TemporaryDirectory
    ) throws -> String {
        try Command.run(
            Fixtures.clang,
            ["-shared", "-fPIC"] + flags + [Fixtures.sourceDirectory.appendingPathComponent(source).path, "-o", directory.path(name).path])
        return directory.path(name).path
    }

    /// The call sites of the JSON report's findings, with their sources.
    private func callSites(_ library: String) throws -> [[String: Any]] {
        let output = try Command.linkcheck(["check", "--format", "json", library])
        #expect(output.status == 0, "\(output.standardError)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any])
        let findings = try #require(report["findings"] as? [[String: Any]])
        return findings.flatMap { $0["callSites"] as? [[String: Any]] ?? [] }
    }

    /// Expects the JSON call site `site` to have the file, line and column
    /// `llvm-symbolizer` gives for its address in `library`; the site's
    /// `source` and the symbolizer's answer.
    private func expectSymbolizersPlace(_ site: [String: Any], in library: String) throws -> ([String: Any], AddressSource) {
        let address = try #require(UInt64((site["address"] as? String ?? "").dropFirst(2), radix: 16))
        let expected = try #require(try Symbolizer.source(of: address, in: library))
        let source = try #require(site["source"] as? [String: Any], "no source at \(site["address"] ?? "")")
        #expect(source["file"] as? String == expected.location.file)
        #expect(source["line"] as? Int == expected.location.line)
        #expect(source["column"] as? Int == expected.location.column)
        return (source, expected)
    }

    @Test func callSitesHaveTheSymbolizersSource() throws {
        let directory = try Fixtures.temporaryDirectory()
        let library = try build("libloader.so", flags: ["-g", "-O2"], in: directory)
        let sites = try callSites(library)
        #expect(!sites.isEmpty)
        let file = Fixtures.sourceDirectory.appendingPathComponent("SourceLines/loader.c").path
        var seen: Set<AddressSource> = []
        for site in sites {
            let (source, expected) = try expectSymbolizersPlace(site, in: library)
            let chain = (source["inlinedInto"] as? [[String: Any]] ?? []).map { call in
                AddressSource.InlinedCall(
                    function: call["function"] as? String,
                    location: (call["file"] as? String).map {
                        SourcePosition(file: $0, line: call["line"] as? Int ?? 0, column: call["column"] as? Int)
                    })
            }
            #expect(chain == expected.inlinedInto)
            #expect(source["function"] as? String == (chain.isEmpty ? nil : expected.function))
            seen.insert(expected)
        }
        // The inlined call (load_plugin's dlopen, line 5, inlined into start
        // at line 8) and the direct one (line 9).
        #expect(
            seen == [
                AddressSource(
                    location: SourcePosition(file: file, line: 5, column: 12), function: "load_plugin",
                    inlinedInto: [.init(function: "start", location: SourcePosition(file: file, line: 8, column: 20))]),
                AddressSource(location: SourcePosition(file: file, line: 9, column: 30), function: "start"),
            ])
    }

    @Test(.enabled(if: JSONSchema.isAvailable, "needs Python's jsonschema"))
    func reportWithSourcesFollowsTheSchema() throws {
        let directory = try Fixtures.temporaryDirectory()
        let library = try build("libloader.so", flags: ["-g", "-O2"], in: directory)
        let output = try Command.linkcheck(["check", "--format", "json", library])
        #expect(output.status == 0, "\(output.standardError)")
        #expect(output.standardOutput.contains("\"inlinedInto\""))
        try output.standardOutput.write(to: directory.path("report.json"), atomically: true, encoding: .utf8)
        let validation = try JSONSchema.validate(
            directory.path("report.json").path, against: JSONSchema.documented("check-report.schema.json"))
        #expect(validation.status == 0, "\(validation.standardOutput)\(validation.standardError)")
    }

    /// The text output puts the source first, relative to the current
    /// directory (the default `--source-root`), or to `--source-root`, and
    /// names the image after; the line of an image without debug
    /// information starts with the image.
    @Test func textLinesStartWithTheSource() throws {
        let directory = try Fixtures.temporaryDirectory()
        let library = try build("libloader.so", flags: ["-g", "-O2"], in: directory)
        let fromSources = try Command.capture(
            Fixtures.linkcheckExecutable, ["check", library], currentDirectory: Fixtures.sourceDirectory)
        let lines = fromSources.standardOutput.split(separator: "\n").map(String.init)
        #expect(
            lines.prefix(3) == [
                "SourceLines/loader.c:9:30: warning: [DLOP003] loads libfallback.so from start (in \(library))",
                "SourceLines/loader.c:5:12: warning: [DLOP011] start calls dlopen without a run-time OS version check (written in load_plugin, inlined into start at loader.c:8:20) (in \(library))",
                "SourceLines/loader.c:5:12: note: [LOAD001] calls dlopen from start (written in load_plugin, inlined into start at loader.c:8:20) (in \(library))",
            ])
        let rooted = try Command.linkcheck([
            "check", "--source-root", Fixtures.sourceDirectory.appendingPathComponent("SourceLines").path, library,
        ])
        #expect(rooted.standardOutput.hasPrefix("loader.c:9:30: warning: [DLOP003] loads libfallback.so from start (in \(library))\n"))
        let plain = try build("libplain.so", flags: ["-O2"], in: directory)
        let withoutSources = try Command.linkcheck(["check", plain])
        #expect(withoutSources.standardOutput.hasPrefix("\(plain): warning: [DLOP003] loads libfallback.so from start\n"))
    }

    /// SARIF places a result with a source line at the source, relative to
    /// `SRCROOT` (`--source-root`), with the binary as a related location;
    /// its fingerprint is the one the same library built without `-g` gets
    /// (no line in it), and the log follows the SARIF 2.1.0 schema.
    @Test func sarifResultsAreAtTheSource() throws {
        let directory = try Fixtures.temporaryDirectory()
        try FileManager.default.createDirectory(at: directory.path("plain"), withIntermediateDirectories: true)
        let library = try build("libloader.so", flags: ["-g", "-O2"], in: directory)
        _ = try build("plain/libloader.so", flags: ["-O2"], in: directory)
        let root = Fixtures.sourceDirectory.path
        let (text, log) = try SARIFTests.sarif(["--source-root", root, "libloader.so"], in: directory.url, status: 0)
        let run = try #require((log["runs"] as? [[String: Any]])?.first)
        #expect((run["originalUriBaseIds"] as? [String: [String: String]])?["SRCROOT"]?["uri"] == "file://\(root)/")
        let results = try #require(run["results"] as? [[String: Any]])
        let located = try #require(results.first { $0["ruleId"] as? String == "DLOP003" })
        let location = try #require((located["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])
        #expect(location["artifactLocation"] as? [String: String] == ["uri": "SourceLines/loader.c", "uriBaseId": "SRCROOT"])
        #expect(location["region"] as? [String: Int] == ["startLine": 9, "startColumn": 30])
        let related = try #require((located["relatedLocations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])
        #expect((related["artifactLocation"] as? [String: String])?["uri"] == "libloader.so")
        #expect((related["region"] as? [String: Int])?["byteLength"] == 1)
        let (_, plainLog) = try SARIFTests.sarif(["plain/libloader.so"], in: directory.url, status: 0)
        let plainResults = try #require((plainLog["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])
        #expect(
            results.map { $0["partialFingerprints"] as? [String: String] }
                == plainResults.map { $0["partialFingerprints"] as? [String: String] })
        #expect(plainResults.allSatisfy { $0["relatedLocations"] == nil })
        if let schema = SARIFTests.schema {
            try text.write(to: directory.path("loader.sarif"), atomically: true, encoding: .utf8)
            let validation = try JSONSchema.validate(directory.path("loader.sarif").path, against: schema)
            #expect(validation.status == 0, "\(validation.standardOutput)\(validation.standardError)")
        }
    }

    /// A call written in one C function and inlined into another: the JSON
    /// document keeps the names as the debug information gives them (no
    /// `demangled`: a C name demangles to itself, as for callers); the
    /// finding's line (text, the JSON `text`) and the SARIF message say what
    /// it was inlined into, as `llvm-symbolizer` names the frames;
    /// `sourceLocation` is the place the text line starts with.
    @Test func inlinedCallsSayWhatTheyWereInlinedInto() throws {
        let directory = try Fixtures.temporaryDirectory()
        let library = try build("libloader.so", flags: ["-g", "-O2"], in: directory)
        let output = try Command.linkcheck(["check", "--format", "json", library])
        #expect(output.status == 0, "\(output.standardError)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any])
        let findings = try #require(report["findings"] as? [[String: Any]])
        let inlined = try #require(
            findings.flatMap { $0["callSites"] as? [[String: Any]] ?? [] }.first { ($0["source"] as? [String: Any])?["inlinedInto"] != nil }
        )
        let address = try #require(UInt64((inlined["address"] as? String ?? "").dropFirst(2), radix: 16))
        let raw = try #require(try Symbolizer.source(of: address, in: library))
        // The symbolizer's frames demangled: function, then place, innermost first.
        let frames = try Command.run(Symbolizer.tool, ["--obj=\(library)", "0x" + String(address, radix: 16)]).standardOutput
            .split(separator: "\n").map(String.init)
        #expect(frames.count == 4, "\(frames)")
        let source = try #require(inlined["source"] as? [String: Any])
        #expect(source["function"] as? String == raw.function)
        #expect(source["demangled"] == nil && frames[0] == raw.function)
        let into = try #require((source["inlinedInto"] as? [[String: Any]])?.first)
        #expect(into["function"] as? String == raw.inlinedInto.first?.function)
        #expect(into["demangled"] == nil && frames[2] == raw.inlinedInto.first?.function)
        let call = try #require(raw.inlinedInto.first?.location)
        let words = "(written in \(frames[0]), inlined into \(frames[2]) at loader.c:\(call.line):\(call.column ?? 0))"
        // Each finding placed at the inlined call says so, in its line and
        // in the JSON's text.
        let placed = findings.filter { finding in
            let location = finding["sourceLocation"] as? [String: Any]
            return location?["line"] as? Int == raw.location.line && location?["column"] as? Int == raw.location.column
        }
        #expect(placed.count == 2, "DLOP011 and LOAD001")
        #expect(placed.allSatisfy { ($0["text"] as? String ?? "").hasSuffix(words) }, "\(placed.map { $0["text"] ?? "" })")
        #expect(placed.allSatisfy { ($0["sourceLocation"] as? [String: Any])?["file"] as? String == raw.location.file })
        let text = try Command.linkcheck(["check", "--source-root", Fixtures.sourceDirectory.path, library])
        let expectedLine =
            "SourceLines/loader.c:\(raw.location.line):\(raw.location.column ?? 0): warning: [DLOP011] start calls dlopen without a run-time OS version check \(words) (in \(library))"
        #expect(text.standardOutput.split(separator: "\n").contains { $0 == expectedLine }, "\(text.standardOutput)")
        let (_, log) = try SARIFTests.sarif(["--source-root", Fixtures.sourceDirectory.path, library], in: directory.url, status: 0)
        let results = try #require((log["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])
        let messages = results.compactMap { ($0["message"] as? [String: Any])?["text"] as? String }
        #expect(messages.count { $0.hasSuffix(" \(words)") } == 2, "\(messages)")
    }

    /// The HTML report's cards give each call site's place (relative to
    /// `--source-root`, as `llvm-symbolizer` says) and the line written
    /// there, escaped (a line holding `<script>` and `&` is text), the
    /// place alone when the source file is gone, and what an inlined call
    /// was inlined into; nothing is fetched and no script from a source
    /// line runs.
    @Test(.enabled(if: Browser.executable != nil, "needs Debian's chromium"))
    func htmlCardsShowTheSourceLines() throws {
        let directory = try Fixtures.temporaryDirectory()
        let hostile = "    return dlopen(name, flags & RTLD_NOW);  // <script>document.title='pwned'</script>"
        try "#include <dlfcn.h>\nvoid *open_plugin(const char *name, int flags) {\n\(hostile)\n}\n".write(
            to: directory.path("plugin.c"), atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(at: directory.path("plugin.c"), to: directory.path("gone.c"))
        try FileManager.default.copyItem(
            at: Fixtures.sourceDirectory.appendingPathComponent("SourceLines/loader.c"), to: directory.path("loader.c"))
        var libraries: [String: String] = [:]
        for (name, flags) in [("plugin", "-O0"), ("gone", "-O0"), ("loader", "-O2")] {
            let built = try Command.capture(
                Fixtures.clang, ["-shared", "-fPIC", "-g", flags, "\(name).c", "-o", "lib\(name).so"], currentDirectory: directory.url)
            #expect(built.status == 0, "\(built.standardError)")
            libraries[name] = directory.path("lib\(name).so").path
        }
        try FileManager.default.removeItem(at: directory.path("gone.c"))
        let html = directory.path("report.html")
        let run = try Command.capture(
            Fixtures.linkcheckExecutable, ["check", "--html", html.path, "libplugin.so", "libgone.so", "libloader.so"],
            currentDirectory: directory.url)
        #expect(run.status == 0, "\(run.standardError)")
        let page = try Browser.load(html)
        #expect(page.dom.contains("<title>linkcheck report</title>"), "no script from a source line ran")
        #expect(page.consoleMessages.isEmpty, "console output: \(page.log)")
        func escaped(_ text: String) -> String {
            text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;")
        }
        func place(_ library: String, _ name: String) throws -> (SourcePosition, String) {
            let address = try #require(try callAddresses(library).first)
            let source = try #require(try Symbolizer.source(of: address, in: library))
            return (source.location, "\(name):\(source.location.line):\(source.location.column ?? 0)")
        }
        let (pluginPosition, pluginPlace) = try place(libraries["plugin"]!, "plugin.c")
        #expect(pluginPosition.line == 3)
        let shown =
            "<code class=\"place\">\(pluginPlace)</code> <code class=\"line\">\(escaped(hostile.trimmingCharacters(in: .whitespaces)))</code>"
        #expect(page.dom.contains(shown), "\(shown)")
        #expect(!page.dom.contains("<script>document.title"))
        let (_, gonePlace) = try place(libraries["gone"]!, "gone.c")
        #expect(page.dom.contains("<code class=\"place\">\(gonePlace)</code></span>"), "the place alone: the file is gone")
        let inlined = try #require(
            try callAddresses(libraries["loader"]!).compactMap { try Symbolizer.source(of: $0, in: libraries["loader"]!) }
                .first { !$0.inlinedInto.isEmpty })
        let call = try #require(inlined.inlinedInto.first?.location)
        #expect(
            page.dom.contains(
                "<code class=\"place\">loader.c:\(inlined.location.line):\(inlined.location.column ?? 0)</code> <code class=\"line\">return dlopen(name, RTLD_NOW);</code> <span class=\"inlined\">(written in load_plugin, inlined into start at loader.c:\(call.line):\(call.column ?? 0))</span>"
            ))
    }

    /// The addresses of the call sites `check --format json` gives for
    /// `library`.
    private func callAddresses(_ library: String) throws -> [UInt64] {
        try callSites(library).compactMap { UInt64(($0["address"] as? String ?? "").dropFirst(2), radix: 16) }
    }

    /// A static `helper` in each of two files, each calling dlopen: two
    /// callers of one name. The text line counts the other one, and the
    /// SARIF result, at the first call, has the other call's source among
    /// its related locations, as `llvm-symbolizer` places it.
    @Test func twoFunctionsOfOneNameAreTwoCallers() throws {
        let directory = try Fixtures.temporaryDirectory()
        let sources = ["twin-a.c", "twin-b.c"].map { Fixtures.sourceDirectory.appendingPathComponent("SourceLines/\($0)").path }
        let library = directory.path("libtwin.so").path
        try Command.run(Fixtures.clang, ["-shared", "-fPIC", "-g", "-O1"] + sources + ["-o", library])
        let root = Fixtures.sourceDirectory.path
        let text = try Command.linkcheck(["check", "--source-root", root, library]).standardOutput
        #expect(text.contains("note: [LOAD001] calls dlopen from from_a → helper and 1 more caller (in "), "\(text)")
        let (_, log) = try SARIFTests.sarif(["--source-root", root, "libtwin.so"], in: directory.url, status: 0)
        let results = try #require((log["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])
        let load = try #require(results.first { $0["ruleId"] as? String == "LOAD001" })
        let related = try #require(load["relatedLocations"] as? [[String: Any]])
        #expect(related.count == 2, "the binary, then the other call")
        let other = try #require(related.last)
        let place = try #require(other["physicalLocation"] as? [String: Any])
        let sites = try callSites(library).filter { ($0["source"] as? [String: Any])?["file"] as? String == sources[1] }
        let address = try #require(UInt64((sites.first?["address"] as? String ?? "").dropFirst(2), radix: 16))
        let expected = try #require(try Symbolizer.source(of: address, in: library))
        #expect(expected.location.file == sources[1])
        #expect(place["artifactLocation"] as? [String: String] == ["uri": "SourceLines/twin-b.c", "uriBaseId": "SRCROOT"])
        #expect(place["region"] as? [String: Int] == ["startLine": expected.location.line, "startColumn": expected.location.column ?? 0])
        #expect((other["message"] as? [String: String])?["text"] == "also called from helper")
    }

    /// `-gsplit-dwarf` (DWARF 5): the image keeps skeleton units and the
    /// line table, the entries go to a `.dwo` file. Each call site has the
    /// line table's place, the one `llvm-symbolizer` gives without the
    /// `.dwo`.
    @Test func splitDWARFGivesTheLineTablesPlace() throws {
        let directory = try Fixtures.temporaryDirectory()
        let library = try build("libloader.so", flags: ["-g", "-gdwarf-5", "-gsplit-dwarf", "-O2"], in: directory)
        for dwo in try FileManager.default.contentsOfDirectory(atPath: directory.url.path) where dwo.hasSuffix(".dwo") {
            try FileManager.default.removeItem(at: directory.path(dwo))
        }
        let sites = try callSites(library)
        #expect(sites.count >= 2)
        for site in sites { _ = try expectSymbolizersPlace(site, in: library) }
    }

    @Test func withoutDebugInformationCallSitesHaveNoSource() throws {
        let directory = try Fixtures.temporaryDirectory()
        let sites = try callSites(try build("libloader.so", flags: ["-O2"], in: directory))
        #expect(!sites.isEmpty)
        #expect(sites.allSatisfy { $0["source"] == nil })
    }
}
#endif
