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
    /// Tests/Fixtures/SourceLines/loader.c built as `name` with `flags`.
    private func build(_ name: String, flags: [String], in directory: TemporaryDirectory) throws -> String {
        try Command.run(
            Fixtures.clang,
            ["-shared", "-fPIC"] + flags + [
                Fixtures.sourceDirectory.appendingPathComponent("SourceLines/loader.c").path, "-o", directory.path(name).path,
            ])
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

    @Test func callSitesHaveTheSymbolizersSource() throws {
        let directory = try Fixtures.temporaryDirectory()
        let library = try build("libloader.so", flags: ["-g", "-O2"], in: directory)
        let sites = try callSites(library)
        #expect(!sites.isEmpty)
        let file = Fixtures.sourceDirectory.appendingPathComponent("SourceLines/loader.c").path
        var seen: Set<AddressSource> = []
        for site in sites {
            let address = try #require(UInt64((site["address"] as? String ?? "").dropFirst(2), radix: 16))
            let expected = try #require(try Symbolizer.source(of: address, in: library))
            let source = try #require(site["source"] as? [String: Any], "no source at \(site["address"] ?? "")")
            #expect(source["file"] as? String == expected.location.file)
            #expect(source["line"] as? Int == expected.location.line)
            #expect(source["column"] as? Int == expected.location.column)
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
                "SourceLines/loader.c:5:12: warning: [DLOP011] start calls dlopen without a run-time OS version check (in \(library))",
                "SourceLines/loader.c:5:12: note: [LOAD001] calls dlopen from start (in \(library))",
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

    @Test func withoutDebugInformationCallSitesHaveNoSource() throws {
        let directory = try Fixtures.temporaryDirectory()
        let sites = try callSites(try build("libloader.so", flags: ["-O2"], in: directory))
        #expect(!sites.isEmpty)
        #expect(sites.allSatisfy { $0["source"] == nil })
    }
}
#endif
