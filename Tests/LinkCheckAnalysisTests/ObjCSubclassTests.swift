import Foundation
import LinkCheckAnalysis
import LinkCheckCodeIndex
import LinkCheckImage
import LinkCheckInspection
import LinkCheckMachO
import LinkCheckReports
import LinkCheckRules
import LinkCheckTestSupport
import Testing

/// A class the image defines counts as a reference to its superclasses:
/// `[SAApplication sharedApplication]`, or `[self sharedApplication]` in a
/// method of `SSApplication`, where both are subclasses of UIApplication, is
/// a use of `+[UIApplication sharedApplication]`, from bind opcodes and from
/// chained fixups, on arm64 and x86_64.
@Suite struct ObjCSubclassTests {
    static let builds: [(MachOFixtures.Linker, MachOFixtures.Target)] = [
        (.opcodes, .arm64), (.chainedFixups, .arm64), (.opcodes, .x86_64Simulator), (.chainedFixups, .x86_64Simulator),
    ]

    /// A framework built from `source` (in `Tests/Fixtures/MachO`) against
    /// the stand-in SDK, not flagged `MH_APP_EXTENSION_SAFE`.
    static func framework(
        _ linker: MachOFixtures.Linker, _ target: MachOFixtures.Target, source: String = "subclass-app.m", name: String = "Sub"
    ) throws -> URL {
        try MachOFixtures.link(
            MachOFixtures.Image(
                sources: MachOFixtures.sources(source), product: .dylib(installName: "@rpath/\(name).framework/\(name)"),
                target: target, linker: linker, frameworks: ["UIKit", "Foundation", "CoreFoundation"]),
            to: try Fixtures.temporaryDirectory().path(name))
    }

    @Test(arguments: builds)
    func theSuperclassChainEndsAtTheImportedClass(linker: MachOFixtures.Linker, target: MachOFixtures.Target) throws {
        let image = try #require(try MachOReader.read(path: try Self.framework(linker, target).path).first)
        #expect(image.objcClassReferences == ["SAApplication", "SAGrandchild", "SAHelper"])
        #expect(
            image.objcSuperclasses == [
                "SAApplication": ["UIApplication"], "SAGrandchild": ["SAApplication", "UIApplication"], "SAHelper": ["NSObject"],
            ])
    }

    @Test(arguments: builds)
    func aClassMethodSentToASubclassMatchesTheSuperclassesRule(linker: MachOFixtures.Linker, target: MachOFixtures.Target) throws {
        let path = try Self.framework(linker, target)
        let report = try ShippedRules.check(path)
        let shared = try #require(report.findings.first { $0.rule == "AEX001" })
        #expect(shared.kind == .objcReference)
        #expect(shared.severity == .error)
        #expect(
            shared.typedDetail
                == .references(ObjCName("+[UIApplication sharedApplication]")!, subclasses: ["SAApplication", "SAGrandchild"]))
        // SAHelper's own +sharedApplication is not UIApplication's.
        #expect(shared.callSites.map(\.label) == ["sa_open", "sa_grandchild"])
        // The instance method, sent to what the class method returns; the
        // iOS 17.0 SDK the image records no longer marks it.
        let open = try #require(report.findings.first { $0.rule == "AEX002" })
        #expect(open.severity == .warning)
        #expect(open.typedDetail == .references(ObjCName("-[UIApplication openURL:]")!, subclasses: ["SAApplication", "SAGrandchild"]))
        #expect(open.callSites.map(\.label) == ["sa_open"])
        #expect(report.images.map(\.verdict) == [.unsafe])
    }

    /// `SSApplication : UIApplication` sends `sharedApplication` to `self`
    /// (`[self sharedApplication]`, `[[self class] sharedApplication]`): the
    /// image has the selector reference but no class reference at all, only
    /// the superclass field bound to `_OBJC_CLASS_$_UIApplication`. Defining
    /// the subclass uses UIApplication; the sends to `self`, whose class is
    /// not known, are the call sites. Once called safe in fact (FLAG001,
    /// exit 0) in every call-site mode.
    @Test(arguments: builds)
    func aSubclassSendingTheClassMethodToItselfIsUnsafe(linker: MachOFixtures.Linker, target: MachOFixtures.Target) throws {
        let path = try Self.framework(linker, target, source: "subclass-self-send.m", name: "SelfSend")
        let image = try #require(try MachOReader.read(path: path.path).first)
        #expect(image.objcClassReferences == [])
        #expect(image.objcSuperclasses == ["SSApplication": ["UIApplication"]])
        let targeted = try ShippedRules.check(path, callSites: .targeted)
        let full = try ShippedRules.check(path, callSites: .full)
        #expect(CallSiteModeTests.answers(targeted) == CallSiteModeTests.answers(full))
        for (report, sites) in [
            (targeted, ["+[SSApplication mine]", "-[SSApplication inst]"]), (try ShippedRules.check(path, callSites: nil), []),
        ] {
            #expect(report.findings.map(\.rule).sorted() == ["AEX001", "FLAG001"])
            #expect(
                report.findings.first { $0.rule == "FLAG001" }?.typedDetail
                    == .notFlagged(image: "SelfSend.framework", linkedBy: nil, usesUnavailableAPI: true))
            let shared = try #require(report.findings.first { $0.rule == "AEX001" })
            #expect(shared.kind == .objcReference)
            #expect(shared.severity == .error)
            #expect(shared.symbol == "+[UIApplication sharedApplication]")
            #expect(shared.typedDetail == .references(ObjCName("+[UIApplication sharedApplication]")!, subclasses: ["SSApplication"]))
            #expect(shared.callSites.map(\.label) == sites)
            #expect(report.images.map(\.verdict) == [.unsafe])
        }
    }

    /// A subclass of UIApplication that never references a selector a rule
    /// names gives nothing: a class+selector rule needs the selector too.
    @Test(arguments: [CallSiteMode.targeted, .full, nil])
    func aSubclassWithoutTheRulesSelectorGivesNothing(callSites: CallSiteMode?) throws {
        let path = try Self.framework(.chainedFixups, .arm64, source: "subclass-quiet.m", name: "Quiet")
        let image = try #require(try MachOReader.read(path: path.path).first)
        #expect(image.objcSuperclasses == ["SQApplication": ["UIApplication"]])
        let report = try ShippedRules.check(path, callSites: callSites)
        #expect(report.findings.map(\.rule) == ["FLAG001"])
        #expect(report.findings.first?.typedDetail == .notFlagged(image: "Quiet.framework", linkedBy: nil, usesUnavailableAPI: false))
        #expect(report.images.map(\.verdict) == [.extensionSafe])
    }

    /// A category on UIApplication whose class method sends
    /// sharedApplication to self: the category's class is a reference to
    /// UIApplication, so +[UIApplication sharedApplication] matches, an
    /// error from the category's method.
    @Test(arguments: builds)
    func aCategoryOnUIApplicationSendingToItselfIsUnsafe(linker: MachOFixtures.Linker, target: MachOFixtures.Target) throws {
        let path = try Self.framework(linker, target, source: "category-app.m", name: "Cat")
        let image = try #require(try MachOReader.read(path: path.path).first)
        #expect(image.objcClassReferences == ["UIApplication"])
        for mode in [CallSiteMode.targeted, .full, nil] {
            let report = try ShippedRules.check(path, callSites: mode)
            let shared = try #require(report.findings.first { $0.rule == "AEX001" }, "\(String(describing: mode))")
            #expect(shared.severity == .error)
            #expect(shared.typedDetail == .references(ObjCName("+[UIApplication sharedApplication]")!, subclasses: []))
            if mode != nil {
                #expect(shared.callSites.map(\.label) == ["+[UIApplication(CAGrab) ca_grab]"], "\(shared.callSites.map(\.label))")
            }
            #expect(report.exitStatus == 1)
        }
    }
}
