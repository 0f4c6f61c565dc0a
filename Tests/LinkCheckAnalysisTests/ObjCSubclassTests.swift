import Foundation
import LinkCheckAnalysis
import LinkCheckImage
import LinkCheckInspection
import LinkCheckMachO
import LinkCheckTestSupport
import Testing

/// A class reference to a class the image defines counts for its
/// superclasses: `[SAApplication sharedApplication]`, where `SAApplication :
/// UIApplication`, is a use of `+[UIApplication sharedApplication]`, from
/// bind opcodes and from chained fixups, on arm64 and x86_64.
@Suite struct ObjCSubclassTests {
    static let builds: [(MachOFixtures.Linker, MachOFixtures.Target)] = [
        (.opcodes, .arm64), (.chainedFixups, .arm64), (.opcodes, .x86_64Simulator), (.chainedFixups, .x86_64Simulator),
    ]

    static func framework(_ linker: MachOFixtures.Linker, _ target: MachOFixtures.Target) throws -> URL {
        try MachOFixtures.link(MachOFixtures.Image(
            sources: MachOFixtures.sources("subclass-app.m"), product: .dylib(installName: "@rpath/Sub.framework/Sub"),
            target: target, linker: linker, frameworks: ["UIKit", "Foundation", "CoreFoundation"]),
            to: try Fixtures.temporaryDirectory().path("Sub"))
    }

    @Test(arguments: builds)
    func theSuperclassChainEndsAtTheImportedClass(linker: MachOFixtures.Linker, target: MachOFixtures.Target) throws {
        let image = try #require(try MachOReader.read(path: try Self.framework(linker, target).path).first)
        #expect(image.objcClassReferences == ["SAApplication", "SAGrandchild", "SAHelper"])
        #expect(image.objcSuperclasses == [
            "SAApplication": ["UIApplication"], "SAGrandchild": ["SAApplication", "UIApplication"], "SAHelper": ["NSObject"],
        ])
    }

    @Test(arguments: builds)
    func aClassMethodSentToASubclassMatchesTheSuperclassesRule(linker: MachOFixtures.Linker, target: MachOFixtures.Target) throws {
        let path = try Self.framework(linker, target)
        let report = CheckRun.check(paths: [path.path], rules: try MachOAnalysisTests.defaultRules(), policy: Policy(), jobs: 1)
        let shared = try #require(report.findings.first { $0.rule == "AEX001" })
        #expect(shared.kind == .objcReference)
        #expect(shared.severity == .error)
        #expect(shared.message.hasPrefix(
            "references +[UIApplication sharedApplication] (the classes SAApplication, SAGrandchild, subclasses of UIApplication, and the selector sharedApplication): "))
        // SAHelper's own +sharedApplication is not UIApplication's.
        #expect(shared.callSites.map(\.label) == ["sa_open", "sa_grandchild"])
        // The instance method, sent to what the class method returns; the
        // iOS 17.0 SDK the image records no longer marks it.
        let open = try #require(report.findings.first { $0.rule == "AEX002" })
        #expect(open.severity == .warning)
        #expect(open.message.hasPrefix(
            "references -[UIApplication openURL:] (the classes SAApplication, SAGrandchild, subclasses of UIApplication, and the selector openURL:): "))
        #expect(open.callSites.map(\.label) == ["sa_open"])
        #expect(report.images.map(\.verdict) == [.unsafe])
    }
}
