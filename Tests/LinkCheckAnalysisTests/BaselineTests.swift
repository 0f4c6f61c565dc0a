import Foundation
import LinkCheckAnalysis
import LinkCheckImage
import LinkCheckTestSupport
import Testing

/// A baselined finding hides only the same finding: same rule, severity,
/// image (by its place, not its name) and chain.
@Suite struct BaselineTests {
    /// The baseline key of each reported image, by name, as
    /// `--write-baseline` takes them.
    static func keys(_ images: [ImageReport]) -> (String) -> String {
        let keys = Dictionary(images.map { ($0.name, $0.baselineKey) }, uniquingKeysWith: { first, _ in first })
        return { keys[$0] ?? $0 }
    }

    static func run(_ images: [BinaryImage], _ policy: Policy) -> Analyzer.Outcome {
        Analyzer(images: images, rules: PolicyTests.rules, policy: policy).run()
    }

    /// The baseline of every finding of `outcome`.
    static func baseline(_ outcome: Analyzer.Outcome) -> Baseline {
        Baseline(findings: outcome.findings + outcome.baselined, key: keys(outcome.images))
    }

    /// libUnsafe.so's finding is a note while only the app links it; once
    /// an extension links it too, it is an error, which a baseline of the
    /// note must not hide.
    @Test func aFindingWhoseSeverityRoseIsNew() {
        let app = PolicyTests.image("libApp.so", needs: ["libUnsafe.so"])
        let unsafe = PolicyTests.image("libUnsafe.so", imports: ["kit_shared"])
        let before = Self.run([app, unsafe], Policy(apps: ["App"]))
        #expect(before.findings.map { "\($0.image) \($0.severity.rawValue)" } == ["/t/libApp.so note", "/t/libUnsafe.so note"])
        let policy = Policy(extensions: ["Ext": nil], apps: ["App"], baseline: Self.baseline(before))
        let after = Self.run([app, unsafe, PolicyTests.image("libExt.so", needs: ["libUnsafe.so"])], policy)
        #expect(
            after.findings.map { "\($0.image) \($0.rule) \($0.severity.rawValue)" } == [
                "/t/libExt.so TST001 error", "/t/libUnsafe.so TST001 error",
            ])
        #expect(after.baselined.map(\.image) == ["/t/libApp.so"])
        #expect(after.images.first { $0.name == "/t/libUnsafe.so" }?.verdict == .unsafe)
    }

    /// The extension reached the API through libKit.so when the baseline
    /// was written; now it reaches it through libOther.so: a new finding.
    @Test func theSameAPIThroughAnotherChainIsNew() {
        let unsafe = PolicyTests.image("libUnsafe.so", imports: ["kit_shared"])
        let policy = Policy(extensions: ["Ext": nil])
        let before = Self.run(
            [
                PolicyTests.image("libExt.so", needs: ["libKit.so"]), PolicyTests.image("libKit.so", needs: ["libUnsafe.so"]), unsafe,
            ], policy)
        var later = policy
        later.baseline = Self.baseline(before)
        let after = Self.run(
            [
                PolicyTests.image("libExt.so", needs: ["libOther.so"]), PolicyTests.image("libOther.so", needs: ["libUnsafe.so"]), unsafe,
            ], later)
        #expect(
            after.findings.map { "\($0.image) \($0.chain.joined(separator: " → "))" } == [
                "/t/libExt.so libExt.so → libOther.so → libUnsafe.so → kit_shared",
                "/t/libOther.so libOther.so → libUnsafe.so → kit_shared",
            ])
        #expect(after.baselined.map(\.image) == ["/t/libUnsafe.so"])
        #expect(after.images.first { $0.name == "/t/libExt.so" }?.verdict == .unsafe)
    }

    /// Two apps in one folder, each with `Share.appex` and
    /// `Uploader.framework`: the baseline was written while only One.app
    /// had the share extension. Two.app's, added since, is new, and so is
    /// its Uploader's error (a note while only Two.app linked it), though
    /// One.app's images of the same names are in the baseline.
    @Test func twoAppsWithImagesOfOneNameKeepTheirOwnEntries() throws {
        let directory = try Fixtures.temporaryDirectory()
        let one = directory.path("One.app")
        let two = directory.path("Two.app")
        try FileManager.default.copyItem(at: try MachOFixture.shopApp.path(), to: one)
        try FileManager.default.copyItem(at: try MachOFixture.shopApp.path(), to: two)
        let share = two.appendingPathComponent("PlugIns/Share.appex")
        try FileManager.default.moveItem(at: share, to: directory.path("Share.appex"))
        let rules = try ShippedRules.ruleSet()
        let before = CheckRun.check(paths: [directory.url.path], rules: rules, policy: Policy(), jobs: 2)
        #expect(
            before.images.map(\.baselineKey).filter { $0.hasSuffix("/Uploader") } == [
                "One.app/Frameworks/Uploader.framework/Uploader", "Two.app/Frameworks/Uploader.framework/Uploader",
            ])
        let baseline = Baseline(findings: before.findings + before.baselined, key: Self.keys(before.images))
        #expect(baseline.entries.contains { $0.image == "One.app/PlugIns/Share.appex/Share" })

        try FileManager.default.moveItem(at: directory.path("Share.appex"), to: share)
        let after = CheckRun.check(paths: [directory.url.path], rules: rules, policy: Policy(baseline: baseline), jobs: 2)
        let new = after.findings.filter { $0.severity == .error }.map {
            "\(BundleCheckTests.inside(directory.url, $0.image)) \($0.rule) \($0.symbol ?? "")"
        }
        #expect(
            new == [
                "Two.app/Frameworks/Uploader.framework/Uploader AEX001 +[UIApplication sharedApplication]",
                "Two.app/PlugIns/Share.appex/Share AEX001 +[UIApplication sharedApplication]",
            ])
        #expect(!after.findings.contains { $0.image.contains("/One.app/") })
        #expect(after.exitStatus == 1)
        // A baseline made in memory is not named in the remarks; one read
        // from a file is, with how many findings it accepted.
        #expect(!after.remarks.contains { $0.contains("accepted by the baseline") })
        let elsewhere = try Fixtures.temporaryDirectory()
        let file = elsewhere.path("baseline.json")
        try baseline.encoded().write(to: file)
        let read = CheckRun.check(
            paths: [directory.url.path], rules: rules, policy: Policy(baseline: try Baseline(path: file.path)), jobs: 2)
        #expect(read.baselined.count > 1)
        #expect(read.remarks.last == "\(read.baselined.count) findings accepted by the baseline \(file.path)")
    }

    /// Two apps of one folder name in two folders of one input
    /// (`A/Shop.app`, `B/Shop.app`), and one library in two inputs given
    /// side by side (`check E/a E/b`), keep keys of their own: the folder
    /// under the input, the input's name.
    @Test func sameNamedAppsAndInputsKeepTheirOwnKeys() throws {
        let directory = try Fixtures.temporaryDirectory()
        for folder in ["A", "B"] {
            try FileManager.default.createDirectory(at: directory.path(folder), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: try MachOFixture.shopApp.path(), to: directory.path("\(folder)/Shop.app"))
        }
        let rules = try ShippedRules.ruleSet()
        let apps = CheckRun.check(paths: [directory.url.path], rules: rules, policy: Policy(), jobs: 2)
        #expect(
            apps.images.map(\.baselineKey).filter { $0.hasSuffix("/Share") }.sorted() == [
                "A/Shop.app/PlugIns/Share.appex/Share", "B/Shop.app/PlugIns/Share.appex/Share",
            ])

        let library = Fixtures.corpusDirectory.appendingPathComponent("object-testfiles/libimports.so")
        for folder in ["E/a", "E/b", "F/a"] {
            try FileManager.default.createDirectory(at: directory.path(folder), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: library, to: directory.path("\(folder)/libimports.so"))
        }
        let keys = { (inputs: [String]) in
            CheckRun.check(paths: inputs.map { directory.path($0).path }, rules: rules, policy: Policy(), jobs: 2)
                .images.filter { !$0.external }.map(\.baselineKey).sorted()
        }
        #expect(try keys(["E/a", "E/b"]) == ["a/libimports.so", "b/libimports.so"])
        #expect(try keys(["E/a"]) == ["libimports.so"])
        #expect(
            try keys(["E/a", "F/a"]) == [directory.path("E/a").path + "/libimports.so", directory.path("F/a").path + "/libimports.so"])
        #expect(
            try keys(["E/a/libimports.so", "E/b/libimports.so"]) == [
                directory.path("E/a/libimports.so").path, directory.path("E/b/libimports.so").path,
            ])
    }

    /// Two apps' share extensions given alone (`A/…/Share.appex`,
    /// `B/…/Share.appex`): the Uploader each links is found outside the
    /// paths given, both of install name `@rpath/Uploader.framework/Uploader`,
    /// and they are keyed by their paths so that they keep entries of their
    /// own; each extension is its path given and its place under it.
    @Test func frameworksOfOneInstallNameFoundOutsideThePathsKeepTheirOwnKeys() throws {
        let directory = try Fixtures.temporaryDirectory()
        for folder in ["A", "B"] {
            try FileManager.default.createDirectory(at: directory.path(folder), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: try MachOFixture.shopApp.path(), to: directory.path("\(folder)/Shop.app"))
        }
        let inputs = ["A", "B"].map { directory.path("\($0)/Shop.app/PlugIns/Share.appex").path }
        let report = CheckRun.check(paths: inputs, rules: try ShippedRules.ruleSet(), policy: Policy(), jobs: 2)
        let keys = report.images.map(\.baselineKey)
        #expect(
            keys.filter { $0.hasSuffix("/Uploader") }.sorted()
                == ["A", "B"].map {
                    directory.path("\($0)/Shop.app/Frameworks/Uploader.framework/Uploader").path
                })
        #expect(keys.filter { $0.hasSuffix("/Share") }.sorted() == inputs.map { $0 + "/Share" })
        #expect(Set(keys).count == keys.count, "no two images share a key")
    }
}
