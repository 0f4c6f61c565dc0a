import Foundation
import LinkCheckSourceLines
import LinkCheckTestSupport
import Testing

/// `check` on a debug build of the sample's Uploader framework
/// (``MachODebugBuild``): with its dSYM beside it, every call site in the
/// JSON report has the source `llvm-symbolizer` gives in that dSYM, the
/// text line starts with it and SARIF places the result there; a dSYM of
/// another build is a notice, and the findings stay the same.
@Suite struct MachOCallSiteSourceTests {
    /// The JSON report of `check` with `arguments`.
    private func report(_ arguments: [String]) throws -> [String: Any] {
        let output = try Command.linkcheck(["check", "--format", "json"] + arguments)
        #expect(output.status == 0 || output.status == 1, "\(output.standardError)")
        return try #require(try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any])
    }

    /// Each finding's rule and call-site addresses, and each call site's
    /// source as the report gives it.
    private func callSites(_ report: [String: Any]) throws -> [(rule: String, image: String, address: UInt64, source: [String: Any]?)] {
        let findings = try #require(report["findings"] as? [[String: Any]])
        return try findings.flatMap { finding in
            try (finding["callSites"] as? [[String: Any]] ?? []).map { site in
                (
                    finding["rule"] as? String ?? "", finding["image"] as? String ?? "",
                    try #require(UInt64((site["address"] as? String ?? "").dropFirst(2), radix: 16)), site["source"] as? [String: Any]
                )
            }
        }
    }

    @Test func callSitesHaveTheSourceOfTheDSYMBesideTheFramework() throws {
        let build = try MachODebugBuild()
        let dwarf = try MachODebugBuild.makeDSYM(of: build.framework, at: build.directory.path("Products/Uploader.framework.dSYM"))
        let framework = build.framework.deletingLastPathComponent().path
        let sites = try callSites(try report([framework]))
        #expect(sites.count >= 2)
        for site in sites {
            let slice = site.image.hasSuffix("[x86_64]") ? "x86_64" : "arm64"
            let expected = try #require(try Symbolizer.source(of: site.address, in: "\(dwarf.path):\(slice)"))
            let source = try #require(site.source, "\(site.rule) at 0x\(String(site.address, radix: 16))")
            #expect(source["file"] as? String == expected.location.file)
            #expect(source["line"] as? Int == expected.location.line)
            #expect(source["column"] as? Int == expected.location.column)
        }
        let text = try Command.linkcheck(["check", "--source-root", Fixtures.repositoryRoot.path, framework]).standardOutput
        #expect(text.contains("\nSamples/PhotosApp/Frameworks/Uploader/UPLogin.m:"), "\(text)")

        // A dSYM of another build in its place: a notice, no source, the
        // same findings at the same addresses.
        let other = try MachODebugBuild(optimization: "-O0")
        try FileManager.default.removeItem(at: build.directory.path("Products/Uploader.framework.dSYM"))
        try MachODebugBuild.makeDSYM(of: other.framework, at: build.directory.path("Products/Uploader.framework.dSYM"))
        for name in ["UPUploader", "UPLogin"] {
            for arch in ["arm64", "x86_64"] { try FileManager.default.removeItem(at: build.objectPath(name, arch)) }
        }
        let mismatched = try report([framework])
        let notices = try #require(mismatched["notices"] as? [String])
        #expect(notices.contains { $0.hasPrefix("\(dwarf.path) has UUID ") && $0.hasSuffix(": not used") })
        let unlocated = try callSites(mismatched)
        #expect(unlocated.map { "\($0.rule) \($0.address)" } == sites.map { "\($0.rule) \($0.address)" })
        #expect(unlocated.allSatisfy { $0.source == nil })
    }

    /// `--dsym` finds a dSYM kept elsewhere; SARIF puts the result at the
    /// source.
    @Test func explicitDSYMAndSARIF() throws {
        let build = try MachODebugBuild()
        let dwarf = try MachODebugBuild.makeDSYM(of: build.framework, at: build.directory.path("Symbols/Uploader.framework.dSYM"))
        for name in ["UPUploader", "UPLogin"] {
            for arch in ["arm64", "x86_64"] { try FileManager.default.removeItem(at: build.objectPath(name, arch)) }
        }
        let framework = build.framework.deletingLastPathComponent().path
        #expect(try callSites(try report([framework])).allSatisfy { $0.source == nil })
        let sites = try callSites(try report(["--dsym", build.directory.path("Symbols").path, framework]))
        #expect(!sites.isEmpty && sites.allSatisfy { $0.source != nil })
        let sarif = try Command.linkcheck([
            "check", "--format", "sarif", "--source-root", Fixtures.repositoryRoot.path, "--dsym", dwarf.path, framework,
        ])
        let log = try #require(try JSONSerialization.jsonObject(with: Data(sarif.standardOutput.utf8)) as? [String: Any])
        let results = try #require((log["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])
        let placed = results.compactMap { result -> String? in
            let location = (result["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any]
            return (location?["artifactLocation"] as? [String: String])?["uri"]
        }
        #expect(placed.contains("Samples/PhotosApp/Frameworks/Uploader/UPLogin.m"))
    }
}
