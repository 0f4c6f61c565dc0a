import Foundation
import LinkCheckAnalysis
import LinkCheckCodeIndex
import LinkCheckReports
import LinkCheckTestSupport
import Testing

/// Objective-C reached by name (`NSClassFromString(@"UIApplication")`,
/// `objc_getClass("UIApplication")` with a selector made from its name):
/// the class+selector rules match when the calls' literal arguments name the
/// class and the selector, and from strings and imports when which class is
/// looked up is not known (call sites not analysed, a look-up passed no
/// literal, or never seen called), saying why; strings alone are no use of
/// the method by name. A use by name is a warning either way, and the image
/// needs review (ByNamePolicyTests has the policy).
@Suite struct ObjCByNameTests {
    /// A framework built from `sources` (in `Tests/Fixtures/MachO`), thin
    /// arm64, bind opcodes, flagged `MH_APP_EXTENSION_SAFE`.
    static func framework(_ name: String, _ sources: String...) throws -> URL {
        try MachOFixtures.link(
            MachOFixtures.Image(
                sources: sources.map { MachOFixtures.sourceDirectory.appendingPathComponent($0) },
                product: .dylib(installName: "@rpath/\(name).framework/\(name)"),
                applicationExtensionSafe: true),
            to: try Fixtures.temporaryDirectory().path(name))
    }

    @Test func theCRuntimesLookUpsWithCStringsAreAUseByName() throws {
        let path = try Self.framework("Runtime", "by-name-runtime.m")
        let report = try ShippedRules.check(path)
        let finding = try #require(report.findings.first { $0.rule == "AEX001" })
        #expect(finding.kind == .objcByName)
        #expect(finding.severity == .warning)
        #expect(finding.byName != nil)
        #expect(finding.symbol == "+[UIApplication sharedApplication]")
        #expect(
            finding.typedDetail
                == .looksUpByName(
                    className: "UIApplication", selector: "sharedApplication", lookUps: ["objc_getClass"],
                    selectorMakers: ["sel_registerName"]))
        #expect(finding.callSites.map(\.label) == ["rt_shared_application", "rt_shared_application"])
        #expect(finding.path == ["rt_shared_application", "+[UIApplication sharedApplication]"])
        #expect(report.images.map(\.verdict) == [.needsReview])
    }

    @Test func stringsWithoutALookUpAreNoUseByName() throws {
        let path = try Self.framework("Strings", "by-name-strings.m")
        for callSites in [CallSiteMode.targeted, nil] {
            let report = try ShippedRules.check(path, callSites: callSites)
            #expect(!report.findings.contains { $0.rule == "AEX001" }, "call sites: \(callSites)")
            // No code makes a selector of the string: a review risk, and
            // the image's flag holds. Without call sites, which code does
            // is not known: a use by name, which the flag's claim is checked
            // against.
            #expect(
                report.findings.map(\.rule).sorted() == (callSites == nil ? ["FLAG002", "SEL001"] : ["SEL001"]), "call sites: \(callSites)")
        }
    }

    /// The image holds both names and imports NSClassFromString, but looks
    /// up UIScreen: its call sites show it; without them the strings and the
    /// import make a warning that says why. The selector's name as a string
    /// is no use by name where the call sites show that no code makes a
    /// selector of it (SEL001, from `ns_selector_name`, a review risk): the
    /// image is extension-safe; without them it needs review.
    @Test func aLookUpOfAnotherClassBesideTheStringsIsAWarningOnlyWithoutCallSites() throws {
        let path = try Self.framework("OtherClass", "by-name-strings.m", "by-name-other-class.m")
        let analysed = try ShippedRules.check(path)
        #expect(!analysed.findings.contains { $0.kind == .objcByName })
        let string = try #require(analysed.findings.first { $0.rule == "SEL001" })
        #expect(string.byName == nil)
        #expect(string.callSites.map(\.label) == ["ns_selector_name"])
        #expect(analysed.images.map(\.verdict) == [.extensionSafe])
        let unanalysed = try ShippedRules.check(path, callSites: nil)
        let finding = try #require(unanalysed.findings.first { $0.rule == "AEX001" })
        #expect(finding.kind == .objcByName)
        #expect(finding.severity == .warning)
        #expect(finding.unconfirmed)
        #expect(
            finding.typedDetail
                == .mayLookUpByName(
                    className: "UIApplication", selector: "sharedApplication", selectorHeldAsString: true, lookUps: ["NSClassFromString"],
                    unknownBecause: .callsUnseen(.turnedOff), namesUnused: false))
        #expect(finding.callSites.isEmpty)
        #expect(unanalysed.images.map(\.verdict) == [.needsReview])
    }

    /// `NSClassFromString` and `NSSelectorFromString` called from wrappers
    /// (`wr_lookup(@"UIApplication")`): at the look-up call no literal shows
    /// the class. Call sites once gave nothing (safe) where `--no-call-sites`
    /// warned; now they give the same warning, from the code that uses the
    /// names (the loads of `@"UIApplication"` and `@"sharedApplication"`),
    /// not the wrapper.
    @Test func aLookUpThroughAWrapperIsTheWarningWithoutCallSites() throws {
        let path = try Self.framework("Wrapper", "by-name-wrapper.m")
        let targeted = try ShippedRules.check(path)
        let full = try ShippedRules.check(path, callSites: .full)
        #expect(CallSiteModeTests.answers(targeted) == CallSiteModeTests.answers(full))
        let unanalysed = try ShippedRules.check(path, callSites: nil)
        for (report, why, sites) in [
            (
                targeted, FindingDetail.LookUpUnknown.notPassedALiteral(noLiteralIn: ["wr_lookup"], neverCalled: []),
                ["wr_shared_application", "wr_shared_application"]
            ),
            (unanalysed, .callsUnseen(.turnedOff), []),
        ] {
            #expect(report.findings.filter { $0.kind == .objcByName }.count == 1)
            let finding = try #require(report.findings.first { $0.rule == "AEX001" })
            #expect(finding.kind == .objcByName)
            #expect(finding.severity == .warning)
            #expect(finding.unconfirmed)
            #expect(finding.symbol == "+[UIApplication sharedApplication]")
            #expect(
                finding.typedDetail
                    == .mayLookUpByName(
                        className: "UIApplication", selector: "sharedApplication", selectorHeldAsString: true,
                        lookUps: ["NSClassFromString"],
                        unknownBecause: why, namesUnused: false))
            #expect(finding.callSites.map(\.label) == sites)
            #expect(report.images.map(\.verdict) == [.needsReview])
        }
    }

    /// `NSClassFromString` called through a pointer: no call to it is
    /// seen, so call sites give the warning that their absence gives, at
    /// the code that uses the names (the load of `@"UIApplication"` and of
    /// the selector reference).
    @Test func aLookUpThroughAPointerIsTheWarningWithoutCallSites() throws {
        let path = try Self.framework("Pointer", "by-name-pointer.m")
        let targeted = try ShippedRules.check(path)
        #expect(CallSiteModeTests.answers(targeted) == CallSiteModeTests.answers(try ShippedRules.check(path, callSites: .full)))
        for (report, why, sites) in [
            (
                targeted, FindingDetail.LookUpUnknown.notPassedALiteral(noLiteralIn: [], neverCalled: ["NSClassFromString"]),
                ["bp_shared_application", "bp_shared_application"]
            ),
            (try ShippedRules.check(path, callSites: nil), .callsUnseen(.turnedOff), []),
        ] {
            #expect(report.findings.filter { $0.kind == .objcByName }.count == 1)
            let finding = try #require(report.findings.first { $0.rule == "AEX001" })
            #expect(finding.kind == .objcByName)
            #expect(finding.severity == .warning)
            #expect(finding.unconfirmed)
            #expect(
                finding.typedDetail
                    == .mayLookUpByName(
                        className: "UIApplication", selector: "sharedApplication", selectorHeldAsString: false,
                        lookUps: ["NSClassFromString"],
                        unknownBecause: why, namesUnused: false))
            #expect(finding.callSites.map(\.label) == sites)
            #expect(report.images.map(\.verdict) == [.needsReview])
        }
    }
}
