import LinkCheckAnalysis
import LinkCheckImage
import LinkCheckReports
import LinkCheckRules
import LinkCheckTestSupport
import Testing

/// A rule's SDK range against the SDK and deployment target an image
/// records: a marking the image's SDK no longer has is a warning, one it
/// still has an error, and an SDK that cannot be told keeps the rule's
/// severity; each says why.
@Suite struct SDKMarkingTests {
    static let arm64 = Architecture(name: "arm64", is64Bit: true, byteOrder: .little, loaderMachine: "cputype 0x100000c cpusubtype 0")

    /// A Mach-O framework `name` for `platform`, importing `kit_open` when
    /// `usesAPI`.
    static func framework(
        _ name: String, _ platform: PlatformVersion?, needs: [String] = [], usesAPI: Bool = true, fileType: ImageFileType = .sharedLibrary
    ) -> BinaryImage {
        BinaryImage(
            identity: ImageIdentity(path: "/t/\(name).framework/\(name)"), format: .macho, architecture: arm64, platform: platform,
            fileType: fileType, declaredName: fileType == .sharedLibrary ? "@rpath/\(name).framework/\(name)" : nil,
            dependencies: needs.map { Dependency(name: "@rpath/\($0).framework/\($0)") },
            imports: usesAPI ? [Symbol(name: "kit_open", binding: .global, type: .function)] : [],
            facts: .macho(
                MachOFacts(
                    fileType: fileType == .sharedLibrary ? "MH_DYLIB" : "MH_EXECUTE", flags: 0, flagNames: [], appExtensionSafe: false)))
    }

    static func iOS(_ minimumOS: String, sdk: String?) -> PlatformVersion {
        PlatformVersion(platform: .iOS, minimumOS: minimumOS, sdk: sdk)
    }

    /// `Kit.open`, marked in the iOS 9.3 to 16.5 SDKs, not from 17.0
    /// (`-[UIApplication openURL:]`'s range), unless `sdk` says.
    static func rules(
        sdk: SDKRange? = SDKRange(
            platform: .iOS, markedFrom: SDKVersion("9.3")!, markedUntil: SDKVersion("16.5")!, unmarkedFrom: SDKVersion("17.0")!)
    ) -> RuleSet {
        let rule = Rule(
            id: "TST001", api: "Kit.open", category: .unavailableAPI, severity: .error, matchers: [.symbol("kit_open")],
            message: "Kit.open is unavailable.", fixit: "f", source: "s", sdk: sdk)
        return RuleSet.build(packs: [RulePack(path: "t.json", name: "t", version: "1", rules: [rule])]).0
    }

    static func run(_ images: [BinaryImage], _ policy: Policy = Policy(), rules: RuleSet = rules()) -> Analyzer.Outcome {
        Analyzer(images: images, rules: rules, policy: policy).run()
    }

    /// The remark of the test rule's SDK range (marked up to iOS 16.5, not
    /// from 17.0) on `image`.
    static func marking(_ image: String, _ outcome: SDKMarkingComparison.Outcome) -> FindingRemark {
        .sdkMarking(
            SDKMarkingComparison(
                platform: .iOS, markedUntil: SDKVersion("16.5")!, unmarkedFrom: SDKVersion("17.0")!, image: image, outcome: outcome))
    }

    static func finding(_ result: Analyzer.Outcome, on image: String) -> Finding? {
        result.findings.first { $0.rule == "TST001" && $0.image.hasSuffix("/\(image)") }
    }

    @Test func anSDKThatStillMarksTheAPIKeepsTheError() throws {
        let finding = try #require(Self.finding(Self.run([Self.framework("Kit", Self.iOS("15.0", sdk: "16.4"))]), on: "Kit"))
        #expect(finding.severity == .error)
        #expect(finding.statement == .detail(.imports(symbol: "kit_open", demangled: nil), ruleMessage: "Kit.open is unavailable."))
        #expect(finding.remarks == [Self.marking("Kit.framework", .stillMarkedInSDK(SDKVersion("16.4")!))])
        #expect(!finding.markingLifted)
    }

    @Test(arguments: ["17.0", "26.5"])
    func anSDKThatNoLongerMarksTheAPIMakesAWarning(sdk: String) throws {
        let result = Self.run([Self.framework("Kit", Self.iOS("15.0", sdk: sdk))])
        let finding = try #require(Self.finding(result, on: "Kit"))
        #expect(finding.severity == .warning)
        #expect(finding.statement == .detail(.imports(symbol: "kit_open", demangled: nil), ruleMessage: "Kit.open is unavailable."))
        #expect(finding.remarks == [Self.marking("Kit.framework", .liftedInSDK(SDKVersion(sdk)!))])
        #expect(finding.markingLifted)
        #expect(result.images.map(\.verdict) == [.extensionSafe], "a warning does not make the image unsafe")
        #expect(result.images.first?.extensionSafeFlag == .unflaggedButClean, "what no longer is marked is no use of an unavailable API")
    }

    @Test func withoutAnSDKTheDeploymentTargetBoundsIt() throws {
        // An image's SDK is never older than its deployment target.
        let lifted = try #require(Self.finding(Self.run([Self.framework("Kit", Self.iOS("17.2", sdk: nil))]), on: "Kit"))
        #expect(lifted.severity == .warning)
        #expect(lifted.remarks == [Self.marking("Kit.framework", .liftedByDeploymentTarget(SDKVersion("17.2")!))])
        let unknown = try #require(Self.finding(Self.run([Self.framework("Kit", Self.iOS("15.0", sdk: nil))]), on: "Kit"))
        #expect(unknown.severity == .error)
        #expect(unknown.remarks == [Self.marking("Kit.framework", .deploymentTargetUntold("15.0"))])
    }

    @Test func anELFImageRecordsNoSDKSoTheRulesSeverityStays() throws {
        let elf = TestImages.elf("/t/libKit.so", soname: "libKit.so", imports: ["kit_open"])
        let finding = try #require(Self.finding(Self.run([elf]), on: "libKit.so"))
        #expect(finding.severity == .error)
        #expect(finding.remarks == [Self.marking("libKit.so", .noSDKRecorded)])
    }

    @Test func anotherPlatformsSDKIsNotCompared() throws {
        let mac = Self.framework("Kit", PlatformVersion(platform: .macOS, minimumOS: "13.0", sdk: "26.5"))
        let finding = try #require(Self.finding(Self.run([mac]), on: "Kit"))
        #expect(finding.severity == .error)
        #expect(finding.remarks == [Self.marking("Kit.framework", .otherPlatform(.macOS))])
        // The simulator and Mac Catalyst record iOS's SDK versions.
        for platform in [Platform.iOSSimulator, .macCatalyst] {
            let image = Self.framework("Kit", PlatformVersion(platform: platform, minimumOS: "15.0", sdk: "17.0"))
            #expect(Self.finding(Self.run([image]), on: "Kit")?.severity == .warning, "\(platform)")
        }
    }

    @Test func aMarkingStillInForceSaysNothingOfTheSDK() throws {
        let rules = Self.rules(sdk: SDKRange(platform: .iOS, markedFrom: SDKVersion("9.3")!))
        let finding = try #require(Self.finding(Self.run([Self.framework("Kit", Self.iOS("15.0", sdk: "26.5"))], rules: rules), on: "Kit"))
        #expect(finding.severity == .error)
        #expect(finding.statement == .detail(.imports(symbol: "kit_open", demangled: nil), ruleMessage: "Kit.open is unavailable."))
        #expect(finding.remarks.isEmpty)
    }

    /// What travels to an extension is judged by the SDK of the image that
    /// uses the API, not the extension's.
    @Test func theSDKOfTheImageThatUsesTheAPIDecidesForTheExtensionsThatLinkIt() throws {
        let policy = Policy(extensions: ["Share": .share])
        let old = Self.run(
            [
                Self.framework("Share", Self.iOS("15.0", sdk: "26.5"), needs: ["Kit"], usesAPI: false, fileType: .executable),
                Self.framework("Kit", Self.iOS("15.0", sdk: "16.4")),
            ], policy)
        #expect(Self.finding(old, on: "Share")?.severity == .error)
        #expect(Self.finding(old, on: "Share")?.remarks == [Self.marking("Kit.framework", .stillMarkedInSDK(SDKVersion("16.4")!))])
        #expect(old.images.first?.verdict == .unsafe)

        let new = Self.run(
            [
                Self.framework("Share", Self.iOS("15.0", sdk: "16.4"), needs: ["Kit"], usesAPI: false, fileType: .executable),
                Self.framework("Kit", Self.iOS("15.0", sdk: "17.0")),
            ], policy)
        let share = try #require(Self.finding(new, on: "Share"))
        #expect(share.severity == .warning)
        #expect(share.chain == ["Share", "Kit.framework", "kit_open"])
        #expect(new.images.map(\.verdict) == [.extensionSafe, .extensionSafe])
    }
}
