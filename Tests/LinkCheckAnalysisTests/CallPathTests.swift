import Foundation
import LinkCheckAnalysis
import LinkCheckImage
import LinkCheckInspection
import LinkCheckReports
import LinkCheckRules
import LinkCheckTestSupport
import Testing

/// Findings that point at code: call sites, call paths from entry points,
/// statically linked copies, conditional loading and its version checks, on
/// Tests/Fixtures/callsites.c.
@Suite struct CallPathTests {
    /// The shipped rules and a rule for `kit_shared*`.
    static func rules() throws -> RuleSet {
        let shared = Rule(
            id: "TST001", api: "kit_shared", category: .unavailableAPI, severity: .error,
            matchers: [.glob("kit_shared*")], message: "unavailable", fixit: "f", source: "s")
        return try ShippedRules.ruleSet(adding: [RulePack(path: "t.json", name: "t", version: "1", rules: [shared])])
    }

    /// libcallsites.so built for `target`, and (when `plugin`) a libplugin.so
    /// beside it for its dlopen to find.
    static func check(_ target: String, plugin: Bool, in directory: TemporaryDirectory) throws -> Report {
        let library = try Fixtures.compile(
            "callsites.c", to: directory.path("libcallsites.so"), target: target,
            flags: ["-shared", "-O2", "-Wl,-rpath,$ORIGIN/plugins"])
        if plugin {
            try FileManager.default.createDirectory(at: directory.path("plugins"), withIntermediateDirectories: true)
            try Fixtures.compile("linkchain.c", to: directory.path("plugins/libplugin.so"), target: target, flags: ["-shared", "-DUNSAFE"])
        }
        return CheckRun.check(paths: [library.path], rules: try rules(), policy: Policy(extensions: ["callsites": nil]), jobs: 1)
    }

    static func finding(_ report: Report, _ rule: RuleID, _ symbol: String) -> Finding? {
        report.findings.first { $0.rule == rule && $0.symbol == symbol && $0.image.hasSuffix("libcallsites.so") }
    }

    @Test(arguments: ["x86_64-linux-gnu", "aarch64-linux-gnu"])
    func anImportFindingNamesItsCallerAndThePathFromTheExportedFunction(target: String) throws {
        let directory = try Fixtures.temporaryDirectory()
        let report = try Self.check(target, plugin: true, in: directory)
        let shared = try #require(Self.finding(report, "TST001", "kit_shared"))
        #expect(shared.callSites.map(\.function) == ["open_in_app"])
        #expect(shared.path == ["share_photo", "open_in_app", "kit_shared"])
        #expect(shared.callSites.first?.address ?? 0 > 0)
        let staticCopy = try #require(Self.finding(report, "TST001", "kit_shared_static"))
        #expect(staticCopy.kind == .staticCall)
        #expect(staticCopy.callSites.map(\.function) == ["use_static_copy"])
        #expect(staticCopy.severity == .error)
    }

    @Test(arguments: ["x86_64-linux-gnu", "aarch64-linux-gnu"])
    func conditionalLoadingWithArgumentsResolutionAndVersionChecks(target: String) throws {
        let directory = try Fixtures.temporaryDirectory()
        let report = try Self.check(target, plugin: true, in: directory)
        let image = try #require(report.images.first { $0.path.hasSuffix("libcallsites.so") })
        #expect(image.callSites == .analysed)
        #expect(
            image.loads == [
                LoadReport(
                    name: "libplugin.so", image: directory.path("plugins/libplugin.so").path, verdict: .unsafe,
                    function: "load_plugin", address: image.loads.first?.address, source: .call),
                LoadReport(
                    name: "unknown", image: nil, verdict: .unknown, function: "load_named",
                    address: image.loads.last?.address, source: .call),
            ])
        let load = try #require(Self.finding(report, "DLOP001", "libplugin.so"))
        #expect(load.severity == .error, "an extension loads unsafe code at run time")
        #expect(image.verdict == .unsafe)
        #expect(report.images.contains { $0.path.hasSuffix("plugins/libplugin.so") && $0.external })
        let guarded = report.findings.filter { $0.rule == "DLOP010" }.flatMap(\.callSites).compactMap(\.function)
        let unguarded = report.findings.filter { $0.rule == "DLOP011" }.flatMap(\.callSites).compactMap(\.function)
        #expect(guarded == ["load_plugin"])
        #expect(unguarded == ["load_named"])
        let dlopen = try #require(Self.finding(report, "LOAD001", "dlopen"))
        #expect(Set(dlopen.callSites.compactMap(\.function)) == ["load_plugin", "load_named"])
    }

    /// A version check in the caller guards a load (DLOP010, naming the
    /// caller) only when every caller checks: load_shared, called from
    /// entry_checked_too after uname and from entry_unchecked without, is
    /// unguarded (DLOP011), and so is the exported load_exported, which
    /// other images may call without a check; Swift's `#available` check
    /// (`_stdlib_isOSVersionAtLeast`) guards as uname does.
    @Test(arguments: ["x86_64-linux-gnu", "aarch64-linux-gnu"])
    func aLoadIsGuardedByItsCallersOnlyWhenEveryCallerChecks(target: String) throws {
        let directory = try Fixtures.temporaryDirectory()
        let library = try Fixtures.compile(
            "version-guards.c", to: directory.path("libguards.so"), target: target, flags: ["-shared", "-O0"])
        let report = CheckRun.check(paths: [library.path], rules: try Self.rules(), policy: Policy(extensions: ["guards": nil]), jobs: 1)
        let checks = report.findings.filter { $0.rule.rawValue.hasPrefix("DLOP01") }.map {
            "\($0.rule) \($0.callSites.compactMap(\.function))"
        }
        #expect(
            checks.sorted() == [
                "DLOP010 [\"load_available\"]", "DLOP010 [\"load_guarded\"]", "DLOP011 [\"load_exported\"]", "DLOP011 [\"load_shared\"]",
            ])
        let guarded = try #require(report.findings.first { $0.rule == "DLOP010" && $0.callSites.first?.function == "load_guarded" })
        #expect(
            guarded.typedDetail
                == .loaderCall(
                    caller: .function("load_guarded"), loader: "dlopen", versionChecks: [.init(query: "uname", caller: "entry_checked")])
        )
        let available = try #require(report.findings.first { $0.rule == "DLOP010" && $0.callSites.first?.function == "load_available" })
        guard case .loaderCall(_, _, let checks)? = available.typedDetail else {
            Issue.record("\(available)")
            return
        }
        #expect(checks.contains { $0.query.contains("_stdlib_isOSVersionAtLeast") && $0.caller == "entry_available" }, "\(checks)")
    }

    @Test func aLoadedLibraryThatIsMissingOrSafe() throws {
        let missing = try Self.check("x86_64-linux-gnu", plugin: false, in: try Fixtures.temporaryDirectory())
        let warning = try #require(Self.finding(missing, "DLOP003", "libplugin.so"))
        #expect(warning.severity == .warning)
        guard case .loads("libplugin.so", .call("load_plugin", _)?, .notFound)? = warning.typedDetail else {
            Issue.record("\(warning)")
            return
        }
    }

    @Test func otherMachinesSayCallSitesAreNotAnalysed() throws {
        let directory = try Fixtures.temporaryDirectory()
        let report = try Self.check("armv7-linux-gnueabihf", plugin: false, in: directory)
        let shared = try #require(Self.finding(report, "TST001", "kit_shared"))
        #expect(shared.callSites.isEmpty)
        let armv7 = try #require(report.images.first?.binary.architecture)
        #expect(armv7.name == "armv7")
        #expect(shared.remarks == [.callSitesNotAnalysed(architecture: armv7, format: .elf)])
        #expect(report.images.first?.callSites == .unsupported)
    }
}

/// `.note.dlopen` loads join the image's loads and are resolved like calls.
@Suite struct DeclaredLoadTests {
    @Test func declaredLoadsAreResolved() throws {
        let directory = try Fixtures.temporaryDirectory()
        let library = try Fixtures.compile("dlopen-note.s", to: directory.path("libnote.so"))
        let report = CheckRun.check(paths: [library.path], rules: try CallPathTests.rules(), policy: Policy(), jobs: 1)
        let image = try #require(report.images.first { $0.path == library.path })
        let load = try #require(image.loads.first)
        #expect(load.name == "libzstd.so.1")
        #expect(load.source == .note)
        let expected: LoadVerdict =
            FileManager.default.fileExists(atPath: "/usr/lib/x86_64-linux-gnu/libzstd.so.1") ? .extensionSafe : .missing
        #expect(load.verdict == expected)
        #expect(
            report.findings.contains {
                guard case .loads(_, .dlopenNote?, _)? = $0.typedDetail else { return false }
                return $0.rule == (expected == .missing ? "DLOP003" : "DLOP002")
            })
    }
}

/// Loader calls linkcheck cannot name a function or a library for
/// (Tests/Fixtures/loader-names.c, stripped).
@Suite struct LoaderNameTests {
    static func check() throws -> (Report, TemporaryDirectory) {
        let directory = try Fixtures.temporaryDirectory()
        let library = try Fixtures.compile("loader-names.c", to: directory.path("libloader.so"), flags: ["-shared", "-O2", "-Wl,-s"])
        return (CheckRun.check(paths: [library.path], rules: try CallPathTests.rules(), policy: Policy(), jobs: 1), directory)
    }

    @Test func aPrintfFormatIsNoLibraryNameSoTheLoadIsUnknown() throws {
        let (report, _) = try Self.check()
        let image = try #require(report.images.first)
        let byFunction = Dictionary(image.loads.map { ($0.function ?? "", $0.name) }, uniquingKeysWith: { $1 })
        #expect(byFunction["load_module"] == "unknown", "\(image.loads)")
        #expect(!report.findings.contains { $0.message.contains("%") }, "\(report.findings.map(\.message))")
    }

    @Test func aLoaderCallNoSymbolCoversIsNamedByItsAddress() throws {
        let (report, _) = try Self.check()
        let image = try #require(report.images.first)
        let hidden = try #require(image.loads.first { $0.name == "libhidden.so" })
        #expect(hidden.function == nil)
        let address = try #require(hidden.address)
        let unguarded = report.findings.filter { $0.rule == "DLOP011" }.map(\.typedDetail)
        #expect(
            unguarded.contains(.loaderCall(caller: .uncoveredCode(addresses: [address]), loader: "dlopen", versionChecks: [])),
            "\(unguarded)")
        let missing = try #require(report.findings.first { $0.rule == "DLOP003" && $0.symbol == "libhidden.so" })
        #expect(
            missing.typedDetail
                == .loads(library: "libhidden.so", site: .call(function: nil, address: address), outcome: .notFound(searched: nil)),
            "\(missing)")
    }
}
