import Foundation
import LinkCheckAnalysis
import LinkCheckCodeIndex
import LinkCheckReports
import LinkCheckRules
import LinkCheckTestSupport
import Testing

/// A selector's name held as a string in a Mach-O image (`SEL001`–`SEL003`)
/// is a use by name only when code makes a selector of it; one use is one
/// finding; and the linker's flag (`FLAG001`, `FLAG002`) agrees with the
/// image's findings whether call sites are analysed or not. On Notes.app:
/// one framework built from `sources`, linked by the app and by its share
/// extension.
@Suite struct SelectorStringTests {
    /// Notes.app, built into `directory`: `Kit.framework` from
    /// `sources` (in `Tests/Fixtures/MachO`), flagged
    /// `MH_APP_EXTENSION_SAFE` when `flagged`, linked by the app and, when
    /// `shared`, by its share extension.
    static func notes(in directory: TemporaryDirectory, _ sources: String..., flagged: Bool, shared: Bool = true) throws -> URL {
        let app = try MachOFixtures.AppBundle(named: "Notes", in: directory.url)
        try MachOFixtures.link(
            MachOFixtures.Image(
                sources: sources.map { MachOFixtures.sourceDirectory.appendingPathComponent($0) },
                product: .dylib(installName: "@rpath/Kit.framework/Kit"), applicationExtensionSafe: flagged),
            to: app.addFramework(named: "Kit"))
        try MachOFixtures.link(
            MachOFixtures.Image(
                sources: MachOFixtures.sources("app-main.m"), product: .executable, rpaths: ["@executable_path/Frameworks"],
                frameworks: ["UIKit", "Foundation", "CoreFoundation", "Kit"], frameworkSearchPaths: [app.frameworksDirectory]),
            to: app.executable)
        try MachOFixtures.link(
            MachOFixtures.Image(
                sources: MachOFixtures.sources("by-name-extension.c"), product: .executable, applicationExtensionSafe: true,
                rpaths: ["@executable_path/../../Frameworks"], frameworks: shared ? ["Kit"] : [], libraries: ["System"],
                frameworkSearchPaths: [app.frameworksDirectory], linkerFlags: ["-e", "_NSExtensionMain"]),
            to: app.addExtension(named: "Share", extensionPoint: "com.apple.share-services", principalClass: "ShareViewController"))
        return app.url
    }

    /// The findings on `image` (a short name) of `rules`.
    static func findings(_ report: Report, _ image: String, _ rules: Set<RuleID>) throws -> [Finding] {
        let name = try Self.image(report, image).name
        return report.findings.filter { $0.image == name && rules.contains($0.rule) }
    }

    static func image(_ report: Report, _ name: String) throws -> ImageReport {
        try #require(
            report.images.first { $0.shortName == name || $0.name.hasSuffix("/\(name)") }, "\(report.images.map(\.name)) \(report.errors)")
    }

    /// "sharedApplication" only as text `-[SSLogger explain]` logs: with call
    /// sites, SEL001 is the rule's review-risk warning naming that function,
    /// not a use by name, so Kit stays extension-safe (its flag is right)
    /// and the extension inherits nothing. Without call sites which code
    /// uses the strings is not known: the strings and the NSClassFromString
    /// import are the use by name AEX001 tells (which names the selector, so
    /// SEL001 is that finding), and the flag is contradicted.
    @Test func aSelectorNameOnlyLoggedIsNoUseByName() throws {
        let directory = try Fixtures.temporaryDirectory()
        let app = try Self.notes(in: directory, "selector-string-log.m", flagged: true)
        let analysed = try ShippedRules.check(app, callSites: .targeted)
        let string = try #require(try Self.findings(analysed, "Kit.framework/Kit", ["SEL001"]).first)
        #expect(try Self.findings(analysed, "Kit.framework/Kit", ["SEL001", "AEX001", "FLAG001", "FLAG002"]).map(\.rule) == ["SEL001"])
        #expect(string.severity == .warning)
        #expect(string.byName == nil)
        #expect(string.callSites.map(\.label) == ["-[SSLogger explain]"])
        guard case .detail(let detail, let ruleMessage) = string.statement else { Issue.record("\(string.statement)"); return }
        #expect(detail == .holdsString("sharedApplication"))
        #expect(ruleMessage?.hasPrefix("The selector name") == true)
        #expect(string.remarks == [.loadMakesNoSelector])
        #expect(try Self.image(analysed, "Kit.framework/Kit").verdict == .extensionSafe)
        #expect(try Self.image(analysed, "Kit.framework/Kit").extensionSafeFlag == .flaggedAndClean)
        #expect(try Self.findings(analysed, "Share", ["SEL001", "AEX001"]).isEmpty)
        #expect(try Self.image(analysed, "Share").verdict == .extensionSafe)

        let unanalysed = try ShippedRules.check(app, callSites: nil)
        let held = try Self.findings(unanalysed, "Kit.framework/Kit", ["SEL001", "AEX001", "FLAG001", "FLAG002"])
        #expect(held.map(\.rule) == ["AEX001", "FLAG002"])
        #expect(held.map(\.severity) == [.warning, .warning])
        #expect(held.first?.unconfirmed == true)
        #expect(held.first?.byName != nil)
        #expect(try Self.image(unanalysed, "Kit.framework/Kit").verdict == .needsReview)
        #expect(try Self.image(unanalysed, "Kit.framework/Kit").extensionSafeFlag == .flaggedButUnsafe)
        #expect(try Self.image(unanalysed, "Share").verdict == .needsReview)

        // Where only the containing app runs Kit, the string is a note, as
        // a use of the API it names would be.
        let appOnlyDirectory = try Fixtures.temporaryDirectory()
        let appOnly = try ShippedRules.check(
            try Self.notes(in: appOnlyDirectory, "selector-string-log.m", flagged: true, shared: false), callSites: .targeted)
        let note = try Self.findings(appOnly, "Kit.framework/Kit", ["SEL001"])
        #expect(note.map(\.severity) == [.note])
        #expect(note.first?.byName == nil)
        #expect(note.first?.callSites.map(\.label) == ["-[SSLogger explain]"])
        #expect(note.first?.remarks == [.loadMakesNoSelector, .onlyContainingAppLinks])
    }

    /// "openURL:" passed to NSSelectorFromString in `+[SSOpener open:with:]`:
    /// SEL002 is a use by name at that call, and the extension that links
    /// Kit needs review too.
    @Test func aSelectorNameMadeASelectorIsAUseByNameAtTheCall() throws {
        let directory = try Fixtures.temporaryDirectory()
        let report = try ShippedRules.check(try Self.notes(in: directory, "selector-string-made.m", flagged: true), callSites: .targeted)
        let found = try Self.findings(report, "Kit.framework/Kit", ["SEL002", "FLAG001", "FLAG002"])
        #expect(found.map(\.rule) == ["FLAG002", "SEL002"])
        let string = try #require(found.last)
        #expect(string.severity == .warning)
        #expect(string.byName != nil)
        #expect(string.callSites.map(\.label) == ["+[SSOpener open:with:]"])
        #expect(string.remarks.last == .byNameOnly)
        #expect(try Self.image(report, "Kit.framework/Kit").verdict == .needsReview)
        let reached = try Self.findings(report, "Share", ["SEL002"])
        #expect(reached.map(\.severity) == [.warning])
        #expect(reached.first?.byName != nil)
        #expect(try Self.image(report, "Share").verdict == .needsReview)
    }

    /// A method reached by name (AEX001, `+[UIApplication
    /// sharedApplication]`) names the selector its string holds: one use,
    /// one finding, with call sites and without.
    @Test func aSelectorStringOfAMethodReachedByNameIsThatFinding() throws {
        let directory = try Fixtures.temporaryDirectory()
        let app = try Self.notes(in: directory, "by-name-checked-send.m", flagged: true)
        for callSites in [CallSiteMode.targeted, nil] {
            let report = try ShippedRules.check(app, callSites: callSites)
            let found = try Self.findings(report, "Kit.framework/Kit", ["SEL001", "AEX001"])
            #expect(found.map(\.rule) == ["AEX001"], "call sites: \(String(describing: callSites))")
            #expect(found.map(\.kind) == [.objcByName])
            #expect(try Self.findings(report, "Share", ["SEL001", "AEX001"]).map(\.rule) == ["AEX001"])
        }
    }

    /// An unflagged framework that reaches +[UIApplication
    /// sharedApplication] only by name needs review in both modes, and its
    /// FLAG001 says so in both: never "safe in fact" beside the use by name
    /// its strings and imports show without call sites.
    @Test func theFlagAgreesWithAUseByNameInEveryMode() throws {
        let directory = try Fixtures.temporaryDirectory()
        let app = try Self.notes(in: directory, "by-name-checked-send.m", flagged: false)
        for callSites in [CallSiteMode.targeted, nil] {
            let report = try ShippedRules.check(app, callSites: callSites)
            let kit = try Self.image(report, "Kit.framework/Kit")
            #expect(kit.verdict == .needsReview, "call sites: \(String(describing: callSites))")
            #expect(kit.extensionSafeFlag == .unflaggedAndUnsafe)
            let flag = try Self.findings(report, "Kit.framework/Kit", ["FLAG001"])
            #expect(
                flag.map(\.statement) == [
                    .detail(
                        .notFlagged(image: "Kit.framework", linkedBy: ["Share", "Kit.framework"], usesUnavailableAPI: true),
                        ruleMessage: BuiltInRules.unflaggedFramework.message)
                ])
        }
    }
}
