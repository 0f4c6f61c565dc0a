import Foundation
import LinkCheckTestSupport
import Testing

/// An API its module marks `@available(iOSApplicationExtension,
/// unavailable)`, linked into one image with callers from another module
/// (SwiftPM links the targets of a package into each product statically).
/// Each call from another module's code is a `static-call` finding; the
/// definition is only the provider's note. The annotated module has many
/// more public functions than its caller, so the image is mostly its code.
@Suite struct StaticallyLinkedAPITests {
    /// libShareExtension.so, from Tests/Fixtures/ShareExtension.swift and an
    /// object file of Tests/Fixtures/Telemetry.swift, linked by `swiftc
    /// -emit-library`; and the rule pack `linkcheck rules extract` makes from
    /// Telemetry's symbol graph. With `exportingOnly`, a version script
    /// exports that symbol alone: the rest, Telemetry's API included, is
    /// local (in `.symtab` only).
    static func build(in directory: TemporaryDirectory, exportingOnly: String? = nil) throws -> (library: String, rules: String) {
        let source = Fixtures.sourceDirectory
        try Command.run(
            Fixtures.swiftc,
            [
                "-parse-as-library", "-module-name", "Telemetry", source.appendingPathComponent("Telemetry.swift").path,
                "-emit-module", "-emit-module-path", directory.path("Telemetry.swiftmodule").path,
                "-emit-symbol-graph", "-emit-symbol-graph-dir", directory.path("graphs").path,
                "-emit-object", "-o", directory.path("Telemetry.o").path,
            ])
        let library = directory.path("libShareExtension.so").path
        var versionScript: [String] = []
        if let exportingOnly {
            let map = directory.path("exports.map")
            try "{ global: \(exportingOnly); local: *; };\n".write(to: map, atomically: true, encoding: .utf8)
            versionScript = ["-Xlinker", "--version-script=\(map.path)"]
        }
        try Command.run(
            Fixtures.swiftc,
            [
                "-parse-as-library", "-module-name", "ShareExtension", "-I", directory.url.path,
                source.appendingPathComponent("ShareExtension.swift").path, directory.path("Telemetry.o").path,
                "-emit-library", "-o", library,
            ] + versionScript)
        let rules = directory.path("rules.json").path
        let extract = try Command.linkcheck(["rules", "extract", "--symbol-graph-dir", directory.path("graphs").path, "--output", rules])
        #expect(extract.status == 0, "\(extract.standardError)")
        return (library, rules)
    }

    /// Every call llvm-objdump shows to `callee`, as (address, calling
    /// function).
    static func objdumpCalls(to callee: String, in library: String) throws -> [(address: UInt64, caller: String)] {
        let output = try ELFDisassembly.of(library)
        var calls: [(UInt64, String)] = []
        var function = ""
        for line in output.split(separator: "\n") {
            if let header = try Browser.captures(#"^[0-9a-f]+ <(.+)>:$"#, in: String(line)).first {
                function = header[0]
            } else if let call = try Browser.captures(#"^\s*([0-9a-f]+):\s+callq?\s+0x[0-9a-f]+ <(.+)>$"#, in: String(line)).first,
                call[1] == callee
            {
                calls.append((UInt64(call[0], radix: 16)!, function))
            }
        }
        return calls
    }

    static func findings(_ output: CommandOutput) throws -> [[String: Any]] {
        let document = try #require(try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any])
        return try #require(document["findings"] as? [[String: Any]])
    }

    static let recordLaunch = "$s9TelemetryAAO12recordLaunchyySSFZ"

    @Test func anAnnotatedModuleLinkedIntoTheExtensionBySwiftcIsAFindingPerCall() throws {
        let directory = try Fixtures.temporaryDirectory()
        let (library, rules) = try Self.build(in: directory)
        let json = try Command.linkcheck(["check", "--format", "json", "--extension", "ShareExtension", "--rules", rules, library])
        #expect(json.status == 1)
        let findings = try Self.findings(json)
        #expect(
            findings.map { "\($0["rule"] ?? "") \($0["kind"] ?? "") \($0["severity"] ?? "") \($0["symbol"] ?? "")" } == [
                "OWN001 static-call error \(Self.recordLaunch)",
                "OWN001 provides note \(Self.recordLaunch)",
            ])
        let call = findings[0]
        #expect(call["image"] as? String == library)
        // objdump's calls to the API, but for the one from a closure of
        // Telemetry itself (in recordLaunches), which is the module's own code.
        let objdump = try Self.objdumpCalls(to: Self.recordLaunch, in: library)
        let own = objdump.filter { $0.caller.hasPrefix("$s9TelemetryAAO14recordLaunches") }
        #expect(own.count == 1, "the closure calls the API: \(objdump)")
        let sites = try #require(call["callSites"] as? [[String: Any]])
        #expect(
            sites.map { $0["address"] as? String }
                == objdump.filter { !$0.caller.hasPrefix("$s9TelemetryAAO14recordLaunches") }
                .map { "0x" + String($0.address, radix: 16) })
        #expect(
            sites.map { $0["demangled"] as? String } == [
                "ShareExtension.didSelectPost() -> ()",
                "static (extension in ShareExtension):Telemetry.Telemetry.recordShareLaunch() -> ()",
            ])
        #expect(call["path"] as? [String] == ["ShareExtension.didSelectPost()", "Telemetry.Telemetry.recordLaunch"])

        let text = try Command.linkcheck(["check", "--extension", "ShareExtension", "--rules", rules, library])
        #expect(text.status == 1)
        let lines = text.standardOutput.split(separator: "\n").map(String.init)
        #expect(
            lines.first
                == "libShareExtension.so (extension): unsafe — it calls Telemetry.Telemetry.recordLaunch from ShareExtension.didSelectPost() and 1 more",
            "\(lines)")
        #expect(
            lines.dropFirst().first
                == "\(library): error: [OWN001] calls Telemetry.Telemetry.recordLaunch (a copy linked into this image) from ShareExtension.didSelectPost() and 1 more caller"
        )
        #expect(
            lines.contains(
                "note: [OWN001] Telemetry.Telemetry.recordLaunch(_:) is unavailable in app extensions: Extensions are not launched; record an event instead; fix: Keep calls to Telemetry.Telemetry.recordLaunch(_:) out of code that extensions link, or mark the calling declaration @available(iOSApplicationExtension, unavailable) too."
            ))
        #expect(lines.last == "linkcheck: 1 image, 1 error, 0 warnings, 1 note; 0 files skipped, 0 files failed")
    }

    /// Without call sites the static call cannot be seen: the image that
    /// holds another module's annotated API gets a warning saying so, not
    /// the provider's note.
    @Test func withoutCallSitesALinkedInAnnotatedAPIIsAWarning() throws {
        let directory = try Fixtures.temporaryDirectory()
        let (library, rules) = try Self.build(in: directory)
        let output = try Command.linkcheck(["check", "--no-call-sites", "--extension", "ShareExtension", "--rules", rules, library])
        #expect(output.status == 0)
        #expect(
            output.standardOutput == """
                libShareExtension.so (extension): needs-review — provides Telemetry.Telemetry.recordLaunch(_:) (defines 'static Telemetry.Telemetry.recordLaunch(Swift.String) -> ()' ($s9TelemetryAAO12recordLaunchyySSFZ)), code of module Telemetry linked into this image: whether code of other modules in it calls the API is unknown, since call sites were not analysed (--no-call-sites)
                \(library): warning: [OWN001] provides Telemetry.Telemetry.recordLaunch(_:) (defines 'static Telemetry.Telemetry.recordLaunch(Swift.String) -> ()' ($s9TelemetryAAO12recordLaunchyySSFZ)), code of module Telemetry linked into this image: whether code of other modules in it calls the API is unknown, since call sites were not analysed (--no-call-sites)
                note: [OWN001] Telemetry.Telemetry.recordLaunch(_:) is unavailable in app extensions: Extensions are not launched; record an event instead; fix: Keep calls to Telemetry.Telemetry.recordLaunch(_:) out of code that extensions link, or mark the calling declaration @available(iOSApplicationExtension, unavailable) too.
                linkcheck: 1 image (1 needs review), 0 errors, 1 warning, 0 notes; 0 files skipped, 0 files failed

                """)
        // An image named after the module is the module's own library.
        let own = directory.path("libTelemetry.so").path
        try FileManager.default.copyItem(atPath: library, toPath: own)
        let provider = try Command.linkcheck(["check", "--no-call-sites", "--format", "json", "--rules", rules, own])
        #expect(
            try Self.findings(provider).map { "\($0["rule"] ?? "") \($0["kind"] ?? "") \($0["severity"] ?? "")" } == [
                "OWN001 provides note"
            ])
    }

    static let didSelectPost = "$s14ShareExtension13didSelectPostyyF"

    /// Only the extension's entry point exported: Telemetry's API is a
    /// local function of `.symtab`, still called from the extension's code.
    @Test func anAnnotatedAPIWhoseSymbolsAreLocalIsStillAFindingPerCall() throws {
        let directory = try Fixtures.temporaryDirectory()
        let (library, rules) = try Self.build(in: directory, exportingOnly: Self.didSelectPost)
        let exports = try Readelf.dynamicSymbolNames(library).exports
        #expect(!exports.contains(Self.recordLaunch), "the API is not exported: \(exports)")
        let json = try Command.linkcheck(["check", "--format", "json", "--extension", "ShareExtension", "--rules", rules, library])
        #expect(json.status == 1)
        let findings = try Self.findings(json)
        #expect(
            findings.map { "\($0["rule"] ?? "") \($0["kind"] ?? "") \($0["severity"] ?? "") \($0["symbol"] ?? "")" } == [
                "OWN001 static-call error \(Self.recordLaunch)",
                "OWN001 provides note \(Self.recordLaunch)",
            ])
        let objdump = try Self.objdumpCalls(to: Self.recordLaunch, in: library)
        let sites = try #require(findings.first?["callSites"] as? [[String: Any]])
        #expect(
            sites.map { $0["address"] as? String }
                == objdump.filter { !$0.caller.hasPrefix("$s9TelemetryAAO14recordLaunches") }
                .map { "0x" + String($0.address, radix: 16) })
        #expect(sites.count == 2)
    }

    @Test func withoutCallSitesAnAnnotatedAPIWhoseSymbolsAreLocalIsAWarning() throws {
        let directory = try Fixtures.temporaryDirectory()
        let (library, rules) = try Self.build(in: directory, exportingOnly: Self.didSelectPost)
        let output = try Command.linkcheck(["check", "--no-call-sites", "--extension", "ShareExtension", "--rules", rules, library])
        #expect(output.status == 0, "--no-call-sites gives warnings, not errors: the extension needs review, it is not called safe")
        #expect(
            output.standardOutput == """
                libShareExtension.so (extension): needs-review — provides Telemetry.Telemetry.recordLaunch(_:) (defines 'static Telemetry.Telemetry.recordLaunch(Swift.String) -> ()' ($s9TelemetryAAO12recordLaunchyySSFZ)), code of module Telemetry linked into this image: whether code of other modules in it calls the API is unknown, since call sites were not analysed (--no-call-sites)
                \(library): warning: [OWN001] provides Telemetry.Telemetry.recordLaunch(_:) (defines 'static Telemetry.Telemetry.recordLaunch(Swift.String) -> ()' ($s9TelemetryAAO12recordLaunchyySSFZ)), code of module Telemetry linked into this image: whether code of other modules in it calls the API is unknown, since call sites were not analysed (--no-call-sites)
                note: [OWN001] Telemetry.Telemetry.recordLaunch(_:) is unavailable in app extensions: Extensions are not launched; record an event instead; fix: Keep calls to Telemetry.Telemetry.recordLaunch(_:) out of code that extensions link, or mark the calling declaration @available(iOSApplicationExtension, unavailable) too.
                linkcheck: 1 image (1 needs review), 0 errors, 1 warning, 0 notes; 0 files skipped, 0 files failed

                """)
    }

    /// A C function a rule matches, linked in and kept local by a version
    /// script: every call to it is a finding; without call sites, a warning.
    @Test func aCFunctionARuleMatchesLinkedInAsALocalCopyIsAFindingPerCall() throws {
        let directory = try Fixtures.temporaryDirectory()
        let map = directory.path("exports.map")
        try "{ global: share_entry; local: *; };\n".write(to: map, atomically: true, encoding: .utf8)
        let library = try Fixtures.compile(
            "copy.c",
            code: """
                __attribute__((noinline)) void kit_shared(void) { __asm__ volatile(""); }
                void share_entry(void) { kit_shared(); __asm__ volatile(""); }
                """, to: directory.path("libcopy.so"), flags: ["-shared", "-Wl,--version-script=\(map.path)"]
        ).path
        let rules = directory.path("rules.json").path
        try
            #"{"format": 1, "name": "t", "version": "1", "rules": [{"id": "TST001", "api": "kit_shared", "category": "unavailable-api", "severity": "error", "match": [{"symbol": "kit_shared"}], "message": "unavailable", "fixit": "f", "source": "s"}]}"#
            .write(toFile: rules, atomically: true, encoding: .utf8)
        let objdump = try Self.objdumpCalls(to: "kit_shared", in: library)
        #expect(objdump.map(\.caller) == ["share_entry"])
        let output = try Command.linkcheck(["check", "--no-default-rules", "--rules", rules, library])
        #expect(output.status == 1)
        #expect(
            output.standardOutput == """
                libcopy.so: unsafe — it calls kit_shared from share_entry
                \(library): error: [TST001] calls kit_shared (a copy linked into this image) from share_entry
                \(library): note: [TST001] provides kit_shared (defines 'kit_shared'); its own definitions are not violations
                note: [TST001] unavailable; fix: f
                linkcheck: 1 image, 1 error, 0 warnings, 1 note; 0 files skipped, 0 files failed

                """)
        let unseen = try Command.linkcheck(["check", "--no-call-sites", "--no-default-rules", "--rules", rules, library])
        #expect(unseen.status == 0)
        #expect(
            unseen.standardOutput == """
                libcopy.so: needs-review — provides kit_shared (defines 'kit_shared'), an internal copy linked into this image: whether code in it calls the API is unknown, since call sites were not analysed (--no-call-sites)
                \(library): warning: [TST001] provides kit_shared (defines 'kit_shared'), an internal copy linked into this image: whether code in it calls the API is unknown, since call sites were not analysed (--no-call-sites)
                note: [TST001] unavailable; fix: f
                linkcheck: 1 image (1 needs review), 0 errors, 1 warning, 0 notes; 0 files skipped, 0 files failed

                """)
    }

    /// Samples/PhotoEditor: the PhotoEditorExtension product's target calls
    /// the annotated PhotoLibrary target of the same package (42 exported
    /// functions of PhotoLibrary in the image against 9 of the extension's).
    @Test func theSamplesExtensionCallsAnAnnotatedTargetOfItsOwnPackage() throws {
        let images = try Fixtures.sampleImages()
        let directory = try Fixtures.temporaryDirectory()
        let rules = directory.path("rules.json").path
        let graphs = images.deletingLastPathComponent().appendingPathComponent("symbol-graphs").path
        #expect(try Command.linkcheck(["rules", "extract", "--symbol-graph-dir", graphs, "--output", rules]).status == 0)
        let library = images.appendingPathComponent("PhotoEditor/libPhotoEditorExtension.so").path
        let output = try Command.linkcheck([
            "check", "--format", "json", "--no-default-rules", "--rules", rules, "--extension", "PhotoEditorExtension=share", library,
        ])
        #expect(output.status == 1)
        let api = "$s12PhotoLibraryAAO22scheduleBackgroundSyncyyFZ"
        let findings = try Self.findings(output).filter { $0["image"] as? String == library && $0["rule"] as? String == "OWN002" }
        #expect(
            findings.map { "\($0["kind"] ?? "") \($0["severity"] ?? "") \($0["symbol"] ?? "")" } == [
                "static-call error \(api)", "provides note \(api)",
            ])
        let sites = findings.first?["callSites"] as? [[String: Any]] ?? []
        #expect(
            sites.map { $0["demangled"] as? String } == [
                "PhotoEditorExtension.ShareViewController.didSelectPost(_: UIKit.UIImage, photoID: Swift.String) -> UIKit.UIImage"
            ])
        #expect(
            findings.first?["path"] as? [String] == [
                "PhotoEditorExtension.ShareViewController.didSelectPost(_: UIKit.UIImage, photoID: Swift.String)",
                "PhotoLibrary.PhotoLibrary.scheduleBackgroundSync",
            ])
        let objdump = try Self.objdumpCalls(to: api, in: library)
        #expect(sites.map { $0["function"] as? String } == objdump.map(\.caller), "every call, and only from the extension's module")
        #expect(sites.map { $0["address"] as? String } == objdump.map { "0x" + String($0.address, radix: 16) })
    }
}
