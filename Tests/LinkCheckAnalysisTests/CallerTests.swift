import Foundation
import LinkCheckAnalysis
import LinkCheckCodeIndex
import LinkCheckReports
import LinkCheckRules
import LinkCheckTestSupport
import Testing

/// The functions findings name on Mach-O frameworks built as real ones are
/// (`-fobjc-arc`, categories, `performSelector:`, KVC, stripped local
/// symbols, the Swift runtime's compatibility code): the function whose
/// range holds the code, named by its symbol, its method list entry or its
/// address, and for a use by name the code that uses the name.
@Suite struct CallerTests {
    static let architectures = ["arm64", "x86_64"]

    /// The one finding of `rule` in `report`.
    static func finding(_ rule: RuleID, in report: Report) throws -> Finding {
        let findings = report.findings.filter { $0.rule == rule }
        try #require(findings.count == 1, "\(findings)")
        return findings[0]
    }

    /// The address `llvm-nm` gives the symbol `name` in `path`.
    static func address(of name: String, in path: URL) throws -> UInt64 {
        let output = try MachOOracle.nm(["--defined-only"], path)
        let line = try #require(output.split(separator: "\n").first { $0.hasSuffix(" " + name) })
        return try #require(UInt64(line.prefix { $0 != " " }, radix: 16))
    }

    /// Every call site's caller, by its symbol, its method list entry, or,
    /// for the static function the stripped image names no more, its
    /// address (`sub_…`, from the unstripped twin's symbol), never the
    /// exported function before it; the selector reference that
    /// `-[CLActivity applicationOf:]` passes to `performSelector:` is one.
    @Test(arguments: architectures)
    func aStrippedFrameworksCallersAreItsMethodsAndItsFunctionStarts(arch: String) throws {
        let unnamed = "sub_" + String(try Self.address(of: "_cl_unnamed", in: try MachOFixture.callers.thinSlice(arch)), radix: 16)
        for (fixture, last) in [(MachOFixture.callers, "cl_unnamed"), (.callersStripped, unnamed)] {
            let path = try fixture.thinSlice(arch)
            let report = try ShippedRules.check(path)
            let finding = try Self.finding("AEX001", in: report)
            #expect(finding.kind == .objcReference)
            #expect(finding.callSites.map(\.label) == ["-[CLActivity applicationOf:]", "+[UIApplication(CLCurrent) cl_current]", last])
            #expect(finding.byName == nil)
            #expect(CallSiteModeTests.answers(report) == CallSiteModeTests.answers(try ShippedRules.check(path, callSites: .full)))
        }
    }

    /// Uses by name checked first: each place names its function, and the
    /// finding what guards the use there: the `respondsToSelector:` of the
    /// same selector (a selector reference, or the selector
    /// `NSSelectorFromString` made) and the bundle path's `.appex` check.
    @Test(arguments: architectures)
    func usesByNameNameTheirFunctionsAndWhatGuardsThem(arch: String) throws {
        let path = try MachOFixture.byNameGuarded.thinSlice(arch)
        let report = try ShippedRules.check(path)
        #expect(CallSiteModeTests.answers(report) == CallSiteModeTests.answers(try ShippedRules.check(path, callSites: .full)))
        let (application, openURL) = ("+[BNApplicationFinder application]", "+[BNApplicationFinder openURL:]")
        let shared = try Self.finding("AEX001", in: report)
        #expect(shared.kind == .objcByName)
        #expect(
            shared.typedDetail
                == .looksUpByName(
                    className: "UIApplication", selector: "sharedApplication", lookUps: ["NSClassFromString"],
                    selectorMakers: ["valueForKey:"]))
        #expect(shared.callSites.map(\.label) == [application, application, openURL, openURL])
        #expect(
            shared.byName?.guards == [
                UseGuard(kind: .extensionCheck, function: openURL), UseGuard(kind: .respondsToSelector, function: application),
            ])
        let open = try Self.finding("AEX002", in: report)
        #expect(open.kind == .objcByName)
        #expect(
            open.typedDetail
                == .looksUpByName(
                    className: "UIApplication", selector: "openURL:", lookUps: ["NSClassFromString"],
                    selectorMakers: ["NSSelectorFromString"]))
        #expect(open.callSites.map(\.label) == [application, openURL, openURL])
        #expect(
            open.byName?.guards == [
                UseGuard(kind: .extensionCheck, function: openURL), UseGuard(kind: .respondsToSelector, function: openURL),
            ])
    }

    /// A Swift framework whose only `objc_getClass` call is the runtime's
    /// compatibility override, passed no literal: that is none of its
    /// look-ups, and the use by name is the Swift function that passes
    /// "UIApplication" to `NSClassFromString` and "sharedApplication" to
    /// `value(forKey:)`; no finding names the override.
    @Test(arguments: architectures)
    func aUseByNameIsTheCodeThatPassesTheNameNotTheRuntimesOverride(arch: String) throws {
        let path = try MachOFixture.swiftProbe.thinSlice(arch)
        let report = try ShippedRules.check(path)
        #expect(CallSiteModeTests.answers(report) == CallSiteModeTests.answers(try ShippedRules.check(path, callSites: .full)))
        let finding = try Self.finding("AEX001", in: report)
        #expect(finding.kind == .objcByName)
        #expect(!finding.unconfirmed)
        #expect(
            finding.typedDetail
                == .looksUpByName(
                    className: "UIApplication", selector: "sharedApplication", lookUps: ["NSClassFromString"],
                    selectorMakers: ["valueForKey:"]))
        #expect(finding.callSites.map(\.label) == ["SwiftKit.probe()", "SwiftKit.probe()"])
        #expect(finding.path == ["SwiftKit.probe()", "+[UIApplication sharedApplication]"])
        #expect(
            !report.findings.contains {
                $0.message.contains("swift51override") || $0.callSites.contains { $0.label.contains("swift51override") }
            })
    }

    /// The same override, and a look-up passed names it loads from an
    /// array, not as literals: the finding says no code that uses the
    /// names was found and names no function.
    @Test func aUseByNameThatNoCodeShowsNamesNoFunction() throws {
        let report = try ShippedRules.check(try MachOFixture.swiftNames.path())
        let finding = try Self.finding("AEX001", in: report)
        #expect(finding.kind == .objcByName)
        #expect(finding.unconfirmed)
        #expect(
            finding.typedDetail
                == .mayLookUpByName(
                    className: "UIApplication", selector: "sharedApplication", selectorHeldAsString: true, lookUps: ["NSClassFromString"],
                    unknownBecause: .notPassedALiteral(noLiteralIn: ["SwiftKit.firstClass()"], neverCalled: []),
                    namesUnused: true))
        #expect(finding.callSites.isEmpty)
        #expect(finding.path.isEmpty)
    }
}
