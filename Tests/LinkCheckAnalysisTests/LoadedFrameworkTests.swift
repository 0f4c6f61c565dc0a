import Foundation
import LinkCheckAnalysis
import LinkCheckImage
import LinkCheckInspection
import LinkCheckReports
import LinkCheckRules
import LinkCheckTestSupport
import Testing

/// A framework that loads another at run time (`dlopen`): what the loaded
/// one holds reaches whoever must run the loader, also when the loaded one
/// could be read only in part, and also when the loader is a framework
/// nothing links.
@Suite struct LoadedFrameworkTests {
    /// A copy of the fixture (``MachOFixture/loadingApp`` or
    /// ``MachOFixture/loadingFrameworksAlone``) to change; the folder lasts
    /// as long as the value returned.
    static func app(withExtension: Bool) throws -> (TemporaryDirectory, URL) {
        let directory = try Fixtures.temporaryDirectory()
        let app = directory.path("Loads.app")
        let fixture: MachOFixture = withExtension ? .loadingApp : .loadingFrameworksAlone
        try FileManager.default.copyItem(at: try fixture.path(), to: app)
        return (directory, app)
    }

    static func findings(_ report: Report, in app: URL, rules: Set<RuleID>) -> [String] {
        report.findings.filter { rules.contains($0.rule) }.map {
            "\(BundleCheckTests.inside(app, $0.image)): \($0.severity.rawValue) \($0.rule) \($0.message.prefix { $0 != ":" })"
        }
    }

    @Test func anExtensionReachesWhatItsFrameworkLoads() throws {
        let (directory, app) = try Self.app(withExtension: true)
        defer { withExtendedLifetime(directory) {} }
        let report = try ShippedRules.check(app)
        #expect(
            Self.findings(report, in: app, rules: ["AEX001", "DLOP001"]).filter { !$0.hasPrefix("Loads:") } == [
                "Frameworks/Loader.framework/Loader: error DLOP001 loads @rpath/Uploader.framework/Uploader → \(app.path)/Frameworks/Uploader.framework/Uploader (from load_uploader at 0x\(try Self.loadAddress(report, app)))",
                "Frameworks/Uploader.framework/Uploader: error AEX001 references +[UIApplication sharedApplication] (the class UIApplication and the selector sharedApplication)",
                "PlugIns/Ext.appex/Ext: error AEX001 reached through Ext → Loader.framework → Uploader.framework (dlopen) → +[UIApplication sharedApplication]",
            ])
        #expect(report.exitStatus == 1)
    }

    /// The reviewer's case: the loaded framework is cut short. The load is
    /// still found (before, the loader had learnt the extension's rpath only
    /// after its loads were resolved, and the truncated file has no install
    /// name to be found by: DLOP003 "not found"), and what could not be read
    /// is an error on every image that must be safe: the framework, the
    /// loader (never DLOP002 "extension-safe"), the extension. The
    /// framework gets no FLAG001 "safe in fact".
    @Test func aLoadedFrameworkReadOnlyInPartMakesTheExtensionIncomplete() throws {
        let (directory, app) = try Self.app(withExtension: true)
        defer { withExtendedLifetime(directory) {} }
        let uploader = app.appendingPathComponent("Frameworks/Uploader.framework/Uploader")
        try Data(try Data(contentsOf: uploader).prefix(1000)).write(to: uploader)
        let report = try ShippedRules.check(app)
        let inspection = Self.findings(report, in: app, rules: ["INSP001", "DLOP002", "DLOP003", "FLAG001"])
        #expect(
            inspection.filter { !$0.hasPrefix("Frameworks/Uploader.framework/Uploader: error INSP001 ") } == [
                "Frameworks/Loader.framework/Loader: error INSP001 loads @rpath/Uploader.framework/Uploader → \(uploader.path) (from load_uploader at 0x\(try Self.loadAddress(report, app))), which could be read only in part",
                "Loads: warning INSP001 links Loads → Uploader, which could be read only in part",
                "PlugIns/Ext.appex/Ext: error INSP001 links Ext → Loader.framework → Uploader (dlopen), which could be read only in part",
            ])
        #expect(inspection.contains { $0.hasPrefix("Frameworks/Uploader.framework/Uploader: error INSP001 ") })
        let verdicts = Dictionary(uniqueKeysWithValues: report.images.map { (BundleCheckTests.inside(app, $0.name), $0.verdict) })
        #expect(verdicts["PlugIns/Ext.appex/Ext"] == .incomplete && verdicts["Frameworks/Loader.framework/Loader"] == .incomplete)
        #expect(report.images.first { $0.path == uploader.path }?.extensionSafeFlag == nil)
        #expect(report.exitStatus == 1)
    }

    /// A framework nothing links has to be safe in its own right, so the
    /// unsafe framework it loads is an error on it, not a note that claims
    /// only the app runs it.
    @Test func aFrameworkNothingLinksLoadingAnUnsafeOneIsAnError() throws {
        let (directory, app) = try Self.app(withExtension: false)
        defer { withExtendedLifetime(directory) {} }
        let report = try ShippedRules.check(app)
        #expect(
            Self.findings(report, in: app, rules: ["DLOP001"]) == [
                "Frameworks/Loader.framework/Loader: error DLOP001 loads @rpath/Uploader.framework/Uploader → \(app.path)/Frameworks/Uploader.framework/Uploader (from load_uploader at 0x\(try Self.loadAddress(report, app)))"
            ])
        #expect(!report.findings.contains { $0.remarks.contains(.onlyContainingAppRuns) })
        #expect(report.images.first { $0.name.hasSuffix("/Loader") }?.verdict == .unsafe)
    }

    /// Uploader moved into the extension's own `Frameworks`, where none of
    /// the run paths dyld uses for Loader (the extension's
    /// `@executable_path/../../Frameworks`, the app's
    /// `@executable_path/Frameworks`) leads: the dlopen finds nothing
    /// (`DLOP003`), though a copy with that install name is in the bundle,
    /// so what Uploader calls does not reach the extension; the app, which
    /// links Uploader, would not launch (`BNDL001`).
    @Test func aDlopenResolvesOnlyWhereDyldLooks() throws {
        let (directory, app) = try Self.app(withExtension: true)
        defer { withExtendedLifetime(directory) {} }
        let frameworks = app.appendingPathComponent("PlugIns/Ext.appex/Frameworks")
        try FileManager.default.createDirectory(at: frameworks, withIntermediateDirectories: true)
        try FileManager.default.moveItem(
            at: app.appendingPathComponent("Frameworks/Uploader.framework"), to: frameworks.appendingPathComponent("Uploader.framework"))
        let report = try ShippedRules.check(app)
        #expect(
            Self.findings(report, in: app, rules: ["DLOP001", "DLOP002", "DLOP003", "BNDL001", "BNDL003", "LINK001"]) == [
                "Frameworks/Loader.framework/Loader: warning DLOP003 loads @rpath/Uploader.framework/Uploader (from load_uploader at 0x\(try Self.loadAddress(report, app))), which is not found where the loader would look (dyld looks in \(app.path)/Frameworks/Uploader.framework)",
                "Loads: error BNDL001 needs @rpath/Uploader.framework/Uploader, which dyld would not find (dyld looks in \(app.path)/Frameworks/Uploader.framework)",
                "PlugIns/Ext.appex/Frameworks/Uploader.framework/Uploader: error BNDL003 Uploader.framework is in Loads.app/PlugIns/Ext.appex/Frameworks, not in Loads.app's Frameworks folder",
            ])
        let verdicts = Dictionary(uniqueKeysWithValues: report.images.map { (BundleCheckTests.inside(app, $0.name), $0.verdict) })
        #expect(verdicts["PlugIns/Ext.appex/Ext"] == .extensionSafe)
        #expect(verdicts["Loads"] == .unsafe)
        #expect(report.images.first { $0.name.hasSuffix("/Loader") }?.loads.map(\.verdict) == [.missing])
        #expect(report.exitStatus == 1)
    }

    /// Uploader replaced by a framework that makes a selector of
    /// `openURL:` from a string (`SEL002`, a use by name: its verdict is
    /// needs-review): the load is never called extension-safe (`DLOP002`);
    /// the loader gets `DLOP003`, naming the loaded library's verdict.
    @Test func aLoadedFrameworkThatNeedsReviewIsNotCalledSafe() throws {
        let (directory, app) = try Self.app(withExtension: true)
        defer { withExtendedLifetime(directory) {} }
        try MachOFixtures.link(
            MachOFixtures.Image(
                sources: MachOFixtures.sources("selector-string-made.m"), product: .dylib(installName: "@rpath/Uploader.framework/Uploader")
            ),
            to: app.appendingPathComponent("Frameworks/Uploader.framework/Uploader"))
        let report = try ShippedRules.check(app)
        let uploader = app.path + "/Frameworks/Uploader.framework/Uploader"
        #expect(
            Self.findings(report, in: app, rules: ["DLOP001", "DLOP002", "DLOP003", "SEL002"]) == [
                "Frameworks/Loader.framework/Loader: warning DLOP003 loads @rpath/Uploader.framework/Uploader → \(uploader) (from load_uploader at 0x\(try Self.loadAddress(report, app))), whose verdict is needs-review (SEL002)",
                "Frameworks/Uploader.framework/Uploader: warning SEL002 read-only data holds the string \"openURL",
                "Loads: note SEL002 reached through Loads → Uploader.framework → openURL",
                "PlugIns/Ext.appex/Ext: warning SEL002 reached through Ext → Loader.framework → Uploader.framework (dlopen) → openURL",
            ])
        #expect(report.images.first { $0.path == uploader }?.verdict == .needsReview)
        #expect(report.images.first { $0.name.hasSuffix("/Ext") }?.verdict == .needsReview)
    }

    /// The address of Loader's call to dlopen, as the finding's call site
    /// gives it.
    static func loadAddress(_ report: Report, _ app: URL) throws -> String {
        let site = try #require(report.findings.first { $0.rule == "LOAD001" && $0.image.hasSuffix("/Loader") }?.callSites.first)
        return String(site.address, radix: 16)
    }
}
