import Foundation
import LinkCheckAnalysis
import LinkCheckImage
import LinkCheckInspection
import LinkCheckReports
import LinkCheckRules
import LinkCheckTestSupport
import Testing

/// The whole pipeline on the Samples, built from source by Samples/build.sh.
@Suite struct SampleAnalysisTests {
    static func photoEditorReport() throws -> (Report, URL) {
        let directory = try Fixtures.sampleImages().appendingPathComponent("PhotoEditor")
        let policy = Policy(extensions: ["PhotoEditorExtension": .share], apps: ["PhotoEditorApp"])
        return (try ShippedRules.check(directory, policy: policy), directory)
    }

    @Test func verdictsAndRoles() throws {
        let (report, directory) = try Self.photoEditorReport()
        let verdicts = Dictionary(
            uniqueKeysWithValues: report.images.map {
                ($0.path.replacingOccurrences(of: directory.path + "/", with: ""), "\($0.role.rawValue) \($0.verdict.rawValue)")
            })
        #expect(
            verdicts == [
                "PhotoEditorApp": "app app-only",
                "libAVFoundation.so": "framework extension-safe",
                "libAnalytics.so": "framework extension-safe",
                "libEditorKit.so": "framework extension-safe",
                "libImageFilters.so": "framework extension-safe",
                // LegacyLoader loads PhotoEffects, which captures from the
                // camera; only the app links LegacyLoader, so both are app-only.
                "libLegacyLoader.so": "framework app-only",
                "libPhotoEditorExtension.so": "extension unsafe",
                "libPhotoEffects.so": "framework app-only",
                "libShareKit.so": "framework unsafe",
                "libUIKit.so": "framework extension-safe",
            ])
        #expect(report.exitStatus == 1)
        #expect(report.errors.isEmpty)
        #expect(report.notices.isEmpty)
    }

    @Test func shareKitImportsUIApplicationShared() throws {
        let (report, directory) = try Self.photoEditorReport()
        let shareKit = directory.appendingPathComponent("libShareKit.so").path
        let findings = report.findings.filter { $0.image == shareKit }
        #expect(
            findings.map { "\($0.severity.rawValue) \($0.rule) \($0.kind.rawValue) \($0.symbol ?? "")" } == [
                "error AEX001 import $s5UIKit13UIApplicationC6sharedACvgZ",
                "error AEX003 import $s5UIKit13UIApplicationC4openySbSSFTj",
                "warning SEL001 string sharedApplication",
                "warning SEL002 string openURL:",
            ])
        #expect(findings[0].demangled == "static UIKit.UIApplication.shared.getter : UIKit.UIApplication")
        // The call, one level below the public API.
        #expect(findings[0].callSites.map(\.demangled) == ["ShareKit.openInContainingApp(Swift.String) -> Swift.Bool"])
        #expect(
            findings[0].path == [
                "ShareKit.Sharer.openInApp(photoID: Swift.String)", "ShareKit.openInContainingApp(Swift.String)",
                "UIKit.UIApplication.shared",
            ])
        #expect(findings[0].category == .unavailableAPI)
    }

    @Test func theExtensionIsBrokenThroughShareKitWithTheChain() throws {
        let (report, directory) = try Self.photoEditorReport()
        let ext = directory.appendingPathComponent("libPhotoEditorExtension.so").path
        let findings = report.findings.filter { $0.image == ext }
        #expect(
            findings.map { "\($0.severity.rawValue) \($0.rule) \($0.kind.rawValue)" } == [
                "error AEX001 transitive", "error AEX003 transitive", "error AEX301 string",
            ])
        #expect(findings[0].chain == ["libPhotoEditorExtension.so", "libShareKit.so", "UIKit.UIApplication.shared"])
        #expect(findings[0].path.first == "ShareKit.Sharer.openInApp(photoID: Swift.String)", "the path inside ShareKit")
        #expect(findings[1].chain == ["libPhotoEditorExtension.so", "libShareKit.so", "UIKit.UIApplication.open"])
        #expect(
            findings[0].typedDetail
                == .reachedThrough(path: ["libPhotoEditorExtension.so", "libShareKit.so", "UIKit.UIApplication.shared"]))
    }

    @Test func theAppMayUseTheAPIAndTheSDKProvidesIt() throws {
        let (report, directory) = try Self.photoEditorReport()
        let app = report.findings.filter { $0.image == directory.appendingPathComponent("PhotoEditorApp").path }
        #expect(!app.isEmpty)
        #expect(app.allSatisfy { $0.severity == .note })
        let uikit = report.images.first { $0.path.hasSuffix("/libUIKit.so") }
        #expect(uikit?.provides == ["AEX001", "AEX003", "AEX004", "AEX005", "AEX006", "AEX007", "AEX008"])
        let provider = report.findings.filter { $0.image.hasSuffix("/libUIKit.so") }
        #expect(provider.allSatisfy { $0.kind == .providedSymbol && $0.severity == .note })
    }

    @Test func conditionalLoadingInLegacyLoader() throws {
        let (report, _) = try Self.photoEditorReport()
        let loader = report.findings.filter { $0.image.hasSuffix("/libLegacyLoader.so") }
        #expect(
            loader.map { "\($0.severity.rawValue) \($0.rule) \($0.symbol ?? "")" } == [
                "note DLOP001 libPhotoEffects.so", "note DLOP010 dlopen",
                "note LOAD001 dlopen", "note LOAD003 dlsym",
            ])
        // Who calls the loader, what it loads, and whether that is safe: the
        // app-only LegacyLoader loads the unsafe PhotoEffects after a uname check.
        let dlopen = try #require(loader.first { $0.rule == "LOAD001" })
        #expect(dlopen.callSites.map(\.demangled) == ["static LegacyLoader.LegacyLoader.loadPhotoEffects() -> Swift.Optional<Swift.Int>"])
        let image = try #require(report.images.first { $0.path.hasSuffix("/libLegacyLoader.so") })
        #expect(
            image.loads.map { "\($0.name) \($0.verdict) \($0.function ?? "")" } == [
                "libPhotoEffects.so unsafe LegacyLoader.LegacyLoader.loadPhotoEffects()"
            ])
        #expect(
            loader.first { $0.rule == "DLOP010" }?.typedDetail
                == .loaderCall(
                    caller: .function("LegacyLoader.LegacyLoader.loadPhotoEffects()"), loader: "dlopen",
                    versionChecks: [.init(query: "uname")]))
    }

    @Test func cameraCaptureIsAllowedInAnIMessageExtension() throws {
        let directory = try Fixtures.sampleImages().appendingPathComponent("PhotoEditor")
        let effects = directory.appendingPathComponent("libPhotoEffects.so").path
        let rules = try ShippedRules.ruleSet()
        for (type, severity, verdict) in [(ExtensionType.imessage, Severity.note, Verdict.extensionSafe), (.share, .error, .unsafe)] {
            let policy = Policy(extensions: ["PhotoEffects": type])
            let report = CheckRun.check(paths: [effects], rules: rules, policy: policy, jobs: 1)
            let capture = report.findings.filter { $0.rule == "AEX201" }
            #expect(capture.count == 5)
            #expect(capture.allSatisfy { $0.severity == severity }, "\(type)")
            #expect(report.images.first?.verdict == verdict)
        }
    }

    /// A check keeps only the symbols rules may match; the findings are
    /// those of every symbol.
    @Test func keepingOnlyTheSymbolsRulesMayMatchChangesNoFinding() throws {
        let directory = try Fixtures.sampleImages().appendingPathComponent("PhotoEditor")
        let rules = try ShippedRules.ruleSet()
        let policy = Policy(extensions: ["PhotoEditorExtension": .share], apps: ["PhotoEditorApp"])
        let report = CheckRun.check(paths: [directory.path], rules: rules, policy: policy, callSites: nil, jobs: 2)

        let reader = Inspection.Reader(options: Inspection.Options(strings: rules.stringPatterns))
        let images = Discovery(paths: [directory.path]).files.flatMap { (try? reader.images(inFile: $0).get()) ?? [] }
        let graph = LinkResolver().resolve(images, reader: reader)
        // The paths given, as the check's run has them (baseline keys are
        // relative to them).
        let everySymbol = Analyzer(
            graph: graph, rules: rules, policy: policy, inputs: [directory.path],
            matches: RuleMatching.matches(of: graph.images, rules: rules, jobs: 1)
        ).run()
        #expect(report.findings == everySymbol.findings)
        // The reports hold each image as read: the same but for the symbol
        // lists, which are the point of the difference.
        let withoutSymbols = { (images: [ImageReport]) in
            images.map { image in
                var image = image
                (image.binary.imports, image.binary.exports, image.binary.definitions) = ([], [], [])
                return image
            }
        }
        #expect(withoutSymbols(report.images) == withoutSymbols(everySymbol.images))
        #expect(report.images.map(\.binary.imports.count) != everySymbol.images.map(\.binary.imports.count))
        #expect(report.findings.count == 27)
    }

    @Test func withoutRolesEverySharedObjectMustBeExtensionSafe() throws {
        let directory = try Fixtures.sampleImages().appendingPathComponent("PhotoEditor")
        let report = try ShippedRules.check(directory)
        let shareKit = report.images.first { $0.path.hasSuffix("/libShareKit.so") }
        #expect(shareKit?.role == .framework)
        #expect(shareKit?.verdict == .unsafe)
        let transitive = report.findings.filter { $0.image.hasSuffix("/libPhotoEditorExtension.so") && $0.kind == .transitive }
        #expect(transitive.allSatisfy { $0.severity == .error })
        #expect(transitive.count == 2)
    }

    @Test func aRenamedSDKIsStillTheProviderOfItsOwnAPIs() throws {
        let images = try Fixtures.sampleImages().appendingPathComponent("PhotoEditor")
        let directory = try Fixtures.temporaryDirectory()
        let renamed = directory.path("foo.so")
        try FileManager.default.copyItem(at: images.appendingPathComponent("libUIKit.so"), to: renamed)
        let report = CheckRun.check(
            paths: [renamed.path], rules: try ShippedRules.ruleSet(), policy: Policy(),
            resolver: LinkResolver(includeSystem: false), jobs: 1)
        #expect(report.findings.allSatisfy { $0.severity == .note }, "its own calls to its own APIs are not static copies")
        #expect(report.images.first?.verdict == .extensionSafe)
    }
}
