import LinkCheckAnalysis
import LinkCheckImage
import LinkCheckInspection
import LinkCheckReports
import LinkCheckRules
import LinkCheckTestSupport
import Testing

/// Roles, verdicts and transitivity on images described in code.
@Suite struct PolicyTests {
    static func image(_ name: String, needs: [String] = [], imports: [String] = [], executable: Bool = false) -> BinaryImage {
        TestImages.elf("/t/\(name)", needs: needs, imports: imports, executable: executable)
    }

    static let rules: RuleSet = {
        let rule = Rule(
            id: "TST001", api: "Kit.shared", category: .unavailableAPI, severity: .error,
            matchers: [.symbol("kit_shared")], message: "unavailable", fixit: "f", source: "s")
        return RuleSet.build(packs: [RulePack(path: "t.json", name: "t", version: "1", rules: [rule])]).0
    }()

    static func run(_ images: [BinaryImage], _ policy: Policy) -> (images: [ImageReport], findings: [Finding]) {
        let result = Analyzer(images: images, rules: rules, policy: policy).run()
        return (result.images, result.findings)
    }

    @Test func rolesByFileNameSONAMEOrModuleName() {
        let policy = Policy(extensions: ["Share": .share], apps: ["libMain.so"])
        let role = { (image: BinaryImage) in policy.role(of: image, names: Policy.names(of: image), bundles: BundleLayout()) }
        #expect(role(Self.image("libShare.so")) == AssignedRole(role: .extension, extensionType: .share))
        #expect(role(Self.image("libMain.so")).role == .app)
        #expect(role(Self.image("libOther.so")).role == .framework)
        #expect(role(Self.image("tool", executable: true)).role == .app)
        #expect(Policy.moduleName(of: "libFoo.so.1.2") == "Foo")
        #expect(Policy.moduleName(of: "Foo") == "Foo")
    }

    @Test(arguments: [
        ("libFoo.so", "Foo"), ("libc.so.6", "c"), ("libFoo.dylib", "Foo"), ("libz.1.dylib", "z.1"), ("Foo.framework", "Foo"),
        ("lib", "lib"), ("lib.so", "lib"), ("libx.sox", "x.sox"), ("libé.so.1", "é"), ("so", "so"), ("", ""),
        // Bytes, not characters: a combining mark does not hide `lib` or `.so`.
        ("lib\u{301}x.so", "\u{301}x"), ("libfoo\u{600}.dylib", "foo\u{600}"), ("libfoo.so.\u{301}", "foo"),
        ("lib.so\u{301}x.so", ".so\u{301}x.so"),
    ])
    func moduleNames(fileName: String, module: String) {
        #expect(Policy.moduleName(of: fileName) == module)
    }

    /// Who runs each image, and the images a transitive finding's chain
    /// goes through, by name.
    @Test func reachedByAndChainImagesNameTheImages() {
        let images = [
            Self.image("libExt.so", needs: ["libKit.so"]),
            Self.image("libApp.so", needs: ["libKit.so", "libOwn.so"]),
            Self.image("libKit.so", needs: ["libUnsafe.so"]),
            Self.image("libUnsafe.so", imports: ["kit_shared"]),
            Self.image("libOwn.so"),
            Self.image("libLoose.so"),
        ]
        let (reports, findings) = Self.run(images, Policy(extensions: ["Ext": .share], apps: ["App"]))
        let reachedBy = Dictionary(uniqueKeysWithValues: reports.map { ($0.name, $0.reachedBy) })
        #expect(
            reachedBy == [
                "/t/libExt.so": ["/t/libExt.so"], "/t/libApp.so": ["/t/libApp.so"],
                "/t/libKit.so": ["/t/libApp.so", "/t/libExt.so"], "/t/libUnsafe.so": ["/t/libApp.so", "/t/libExt.so"],
                "/t/libOwn.so": ["/t/libApp.so"], "/t/libLoose.so": [],
            ])
        let chains = findings.filter { $0.kind == .transitive }.map { "\($0.image): \($0.chainImages)" }.sorted()
        #expect(
            chains == [
                "/t/libApp.so: [\"/t/libApp.so\", \"/t/libKit.so\", \"/t/libUnsafe.so\"]",
                "/t/libExt.so: [\"/t/libExt.so\", \"/t/libKit.so\", \"/t/libUnsafe.so\"]",
                "/t/libKit.so: [\"/t/libKit.so\", \"/t/libUnsafe.so\"]",
            ])
        #expect(findings.filter { $0.kind != .transitive }.allSatisfy { $0.chainImages.isEmpty })
    }

    @Test func aFrameworkOnlyTheAppLinksIsAppOnly() {
        let images = [
            Self.image("libApp.so", needs: ["libUnsafe.so"]),
            Self.image("libUnsafe.so", imports: ["kit_shared"]),
        ]
        let (reports, findings) = Self.run(images, Policy(apps: ["App"]))
        #expect(reports.map(\.verdict) == [.appOnly, .appOnly])
        #expect(findings.allSatisfy { $0.severity == .note })
    }

    @Test func aFrameworkAnExtensionLinksTransitivelyIsAnError() {
        let images = [
            Self.image("libExt.so", needs: ["libMiddle.so"]),
            Self.image("libMiddle.so", needs: ["libUnsafe.so"]),
            Self.image("libUnsafe.so", imports: ["kit_shared"]),
            Self.image("libApp.so", needs: ["libUnsafe.so"]),
        ]
        let (reports, findings) = Self.run(images, Policy(extensions: ["Ext": nil], apps: ["App"]))
        #expect(reports.map(\.verdict) == [.unsafe, .unsafe, .unsafe, .appOnly])
        let ext = findings.filter { $0.image == "/t/libExt.so" }
        #expect(ext.count == 1)
        #expect(ext.first?.chain == ["libExt.so", "libMiddle.so", "libUnsafe.so", "kit_shared"])
        #expect(ext.first?.severity == .error)
    }

    @Test func codeLoadedOnlyByAppOnlyCodeIsAppOnly() {
        // libApp.so links libLoader.so, which dlopens libPlugin.so; no
        // extension links or loads either.
        let images = [
            Self.image("libApp.so", needs: ["libLoader.so"]),
            Self.image("libLoader.so"),
            Self.image("libPlugin.so", imports: ["kit_shared"]),
            Self.image("libExt.so"),
        ]
        let loads = [images[1].identity: [LoadRequest(names: ["libPlugin.so"], callSite: nil, source: .note)]]
        let result = Analyzer(
            images: images, rules: Self.rules, policy: Policy(extensions: ["Ext": nil], apps: ["App"]), loads: loads
        ).run()
        // What the app links loads an unsafe plug-in: app-only, all three.
        #expect(result.images.map(\.verdict) == [.appOnly, .appOnly, .appOnly, .extensionSafe])
        #expect(!result.findings.contains { $0.severity == .error })
        let plugin = result.findings.filter { $0.image == "/t/libPlugin.so" }
        #expect(plugin.map(\.statement) == [.detail(.imports(symbol: "kit_shared", demangled: nil), ruleMessage: "unavailable")])
        #expect(plugin.map(\.remarks) == [[.onlyContainingAppLinks]])
    }

    @Test func codeAnExtensionLoadsMustBeSafe() {
        let images = [Self.image("libExt.so"), Self.image("libPlugin.so", imports: ["kit_shared"])]
        let loads = [images[0].identity: [LoadRequest(names: ["libPlugin.so"], callSite: nil, source: .note)]]
        let result = Analyzer(images: images, rules: Self.rules, policy: Policy(extensions: ["Ext": nil]), loads: loads).run()
        #expect(result.images.map(\.verdict) == [.unsafe, .unsafe])
        #expect(result.findings.map(\.rule).sorted() == ["DLOP001", "TST001"])
        #expect(result.findings.allSatisfy { $0.severity == .error })
    }

    @Test func unsafeCodeLoadedByWhatAnExtensionLinksReachesTheExtension() {
        // libExt.so links libLoader.so, which dlopens libUnsafe.so.
        let images = [
            Self.image("libExt.so", needs: ["libLoader.so"]), Self.image("libLoader.so"),
            Self.image("libUnsafe.so", imports: ["kit_shared"]),
        ]
        let loads = [images[1].identity: [LoadRequest(names: ["libUnsafe.so"], callSite: nil, source: .call)]]
        let result = Analyzer(images: images, rules: Self.rules, policy: Policy(extensions: ["Ext": nil]), loads: loads).run()
        #expect(result.images.map(\.verdict) == [.unsafe, .unsafe, .unsafe])
        let ext = result.findings.filter { $0.image == "/t/libExt.so" }
        #expect(ext.map(\.rule) == ["TST001"])
        #expect(ext.first?.severity == .error)
        #expect(ext.first?.chain == ["libExt.so", "libLoader.so", "libUnsafe.so (dlopen)", "kit_shared"])
        // The loader's own hop is DLOP001, not a second copy of the API finding.
        #expect(result.findings.filter { $0.image == "/t/libLoader.so" }.map(\.rule) == ["DLOP001"])
    }

    @Test func withTheAppAloneNamedAFrameworkNoOneLinksMustBeSafeAndSoMustWhatItLinks() {
        // libExt.so is not named; it links libKit.so, which the app links too.
        let images = [
            Self.image("libApp.so", needs: ["libKit.so"]), Self.image("libExt.so", needs: ["libKit.so"]),
            Self.image("libKit.so", imports: ["kit_shared"]),
        ]
        let (reports, findings) = Self.run(images, Policy(apps: ["App"]))
        #expect(reports.map(\.verdict) == [.appOnly, .unsafe, .unsafe])
        #expect(findings.filter { $0.image == "/t/libKit.so" }.map(\.severity) == [.error])
    }

    @Test func aSafeFrameworkOnlyTheAppLinksStaysExtensionSafe() {
        let images = [Self.image("libApp.so", needs: ["libClean.so"]), Self.image("libClean.so")]
        let (reports, findings) = Self.run(images, Policy(apps: ["App"]))
        #expect(reports.map(\.verdict) == [.extensionSafe, .extensionSafe])
        #expect(findings.isEmpty)
    }

    @Test func anImageReadOnlyInPartIsIncompleteNeverSafe() {
        var partial = Self.image("libPartial.so")
        partial.warnings = [.problem("the section header table cannot be read")]
        // Without roles every framework must be safe: INSP001 is an error.
        let alone = Analyzer(images: [partial], rules: Self.rules, policy: Policy()).run()
        #expect(alone.images.map(\.verdict) == [.incomplete])
        #expect(alone.findings.map(\.rule) == ["INSP001"])
        #expect(alone.findings.map(\.severity) == [.error])
        // An extension that links it is incomplete too, through the chain.
        let images = [Self.image("libExt.so", needs: ["libPartial.so"]), partial, Self.image("libApp.so", needs: ["libPartial.so"])]
        let linked = Analyzer(images: images, rules: Self.rules, policy: Policy(extensions: ["Ext": nil], apps: ["App"])).run()
        #expect(linked.images.map(\.verdict) == [.incomplete, .incomplete, .incomplete])
        let byImage = Dictionary(grouping: linked.findings, by: \.image)
        #expect(byImage["/t/libExt.so"]?.map(\.severity) == [.error])
        #expect(byImage["/t/libExt.so"]?.first?.chain == ["libExt.so", "libPartial.so"])
        #expect(byImage["/t/libPartial.so"]?.map(\.severity) == [.error])
        // The app may run anything, but what could not be read is still not called safe.
        #expect(byImage["/t/libApp.so"]?.map(\.severity) == [.warning])
    }

    @Test func anUnsafeImageReadOnlyInPartIsUnsafe() {
        var partial = Self.image("libPartial.so", imports: ["kit_shared"])
        partial.warnings = [.problem("a string offset is out of range")]
        let result = Analyzer(images: [partial], rules: Self.rules, policy: Policy()).run()
        #expect(result.images.map(\.verdict) == [.unsafe])
    }

    @Test func cyclesAreVisitedOnce() {
        let images = [
            Self.image("libA.so", needs: ["libB.so"]),
            Self.image("libB.so", needs: ["libA.so"], imports: ["kit_shared"]),
        ]
        let (reports, findings) = Self.run(images, Policy())
        #expect(reports.map(\.verdict) == [.unsafe, .unsafe])
        #expect(findings.map(\.image) == ["/t/libA.so", "/t/libB.so"])
        #expect(findings.first?.chain == ["libA.so", "libB.so", "kit_shared"])
    }

    @Test func anExportedLoaderIsAnInterposition() {
        var image = Self.image("libHook.so")
        image.exports = [Symbol(name: "dlopen", binding: .global, type: .function)]
        var libc = TestImages.elf("/t/libc.so.6", soname: "libc.so.6")
        libc.exports = image.exports
        let (_, findings) = Self.run([image, libc], Policy())
        #expect(findings.map { "\($0.image) \($0.rule) \($0.severity.rawValue)" } == ["/t/libHook.so INTP001 warning"])
    }

    /// The message used to stop at "interposes the C library's".
    @Test func anInterpositionSaysWhatItInterposesAndWhy() {
        var image = Self.image("libHook.so")
        image.exports = [Symbol(name: "dlsym", binding: .global, type: .function)]
        let (_, findings) = Self.run([image], Policy())
        #expect(findings.map(\.typedDetail) == [.definesLoader(symbol: "dlsym")])
        #expect(findings.map(\.rule) == [BuiltInRules.loaderInterposition.id])
    }

    @Test func aMistypedNameGetsTheClosestNamesSuggested() {
        let names = ["PhotoEditorExtension", "libPhotoEditorExtension.so", "PhotoEditorApp", "ShareKit", "libShareKit.so"]
        #expect(NameSuggestions.closest(to: "PhotoEditorExtensoin", among: names) == ["PhotoEditorExtension"])
        #expect(NameSuggestions.closest(to: "sharekit", among: names) == ["ShareKit"], "case is ignored")
        #expect(NameSuggestions.closest(to: "Kit", among: ["Kat", "Kid", "Kitchen"]) == ["Kat", "Kid"])
        #expect(NameSuggestions.closest(to: "Zebra", among: names).isEmpty, "nothing close enough")
        #expect(NameSuggestions.question(["Kat", "Kid", "Kin"]) == "did you mean 'Kat', 'Kid' or 'Kin'?")
    }
}

/// `linkcheck.json` suppressions, applied before findings propagate.
@Suite struct SuppressionTests {
    static let images = [
        PolicyTests.image("libExt.so", needs: ["libUnsafe.so"]),
        PolicyTests.image("libUnsafe.so", imports: ["kit_shared"]),
    ]

    static func suppression(_ rule: RuleID, _ image: String, symbol: String? = nil, index: Int = 0) -> Suppression {
        Suppression(rule: rule, image: image, symbol: symbol, reason: "accepted", jsonPath: "$.suppressions[\(index)]")
    }

    @Test func aSuppressedFindingDoesNotPropagate() {
        let policy = Policy(extensions: ["Ext": nil], suppressions: [Self.suppression("TST001", "Unsafe", symbol: "kit_shared")])
        let result = Analyzer(images: Self.images, rules: PolicyTests.rules, policy: policy).run()
        #expect(result.findings.isEmpty)
        #expect(result.images.map(\.verdict) == [.extensionSafe, .extensionSafe])
        #expect(result.notices.isEmpty)
    }

    @Test func verdictsAgreeWithFindingsUnderABaseline() {
        let all = Analyzer(images: Self.images, rules: PolicyTests.rules, policy: Policy(extensions: ["Ext": nil])).run()
        #expect(all.images.map(\.verdict) == [.unsafe, .unsafe])
        let baseline = Baseline(findings: all.findings, key: BaselineTests.keys(all.images))
        let result = Analyzer(images: Self.images, rules: PolicyTests.rules, policy: Policy(extensions: ["Ext": nil], baseline: baseline))
            .run()
        #expect(result.findings.isEmpty)
        #expect(result.baselined == all.findings)
        // No image is called unsafe without an error finding listed for it.
        #expect(result.images.map(\.verdict) == [.extensionSafe, .extensionSafe])
    }

    @Test func unusedSuppressionsAreReported() {
        let policy = Policy(
            suppressions: [
                Self.suppression("TST001", "libExt.so", index: 0), Self.suppression("TST999", "libUnsafe.so", index: 1),
            ], suppressionsFile: "cfg/linkcheck.json")
        let result = Analyzer(images: Self.images, rules: PolicyTests.rules, policy: policy).run()
        // The extension's transitive finding is suppressed; the origin is not.
        #expect(result.findings.map(\.image) == ["/t/libUnsafe.so"])
        #expect(result.notices == ["cfg/linkcheck.json: $.suppressions[1]: unused suppression: no [TST999] finding on 'libUnsafe.so'"])
    }
}
