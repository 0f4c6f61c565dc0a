import Foundation
import LinkCheckAnalysis
import LinkCheckImage
import LinkCheckRules
import LinkCheckTestSupport
import Testing

/// The architecture checks on Samples/arch (C libraries for four machines).
@Suite struct ArchitectureTests {
    static func report(requiring architectures: [String]) throws -> (Report, String) {
        let directory = try Fixtures.sampleImages().appendingPathComponent("arch").path
        let rules = RuleSet.build(packs: []).0
        let policy = Policy(requiredArchitectures: architectures)
        return (CheckRun.check(paths: [directory], rules: rules, policy: policy, jobs: 2), directory)
    }

    static func summary(_ report: Report, _ directory: String) -> [String] {
        report.findings.map {
            "\($0.image.replacingOccurrences(of: directory + "/", with: "")) \($0.rule) \($0.symbol ?? "")"
        }
    }

    @Test func thirtyTwoBitImagesAndMachineMismatches() throws {
        let (report, directory) = try Self.report(requiring: [])
        #expect(
            Self.summary(report, directory) == [
                "aarch64-linux-gnu/libtranscode.so ARCH003 libfastpath.so",
                "armv7-linux-gnueabihf/libcodec.so ARCH001 ",
                "i386-linux-gnu/libcodec.so ARCH001 ",
            ])
        #expect(report.findings.allSatisfy { $0.severity == .error && $0.category == .architecture })
        let machines = Set(report.images.map(\.binary.architecture.name))
        #expect(machines == ["aarch64", "x86_64", "i386", "armv7"])
    }

    @Test func requiredArchitecturesAcceptArm64() throws {
        let (report, directory) = try Self.report(requiring: ["arm64", "x86_64"])
        let missing = Self.summary(report, directory).filter { $0.contains("ARCH002") }
        #expect(missing == ["x86_64-linux-gnu/libfastpath.so ARCH002 aarch64"])
    }

    @Test func theSameSONAMEResolvesToTheSameMachine() throws {
        let (report, _) = try Self.report(requiring: [])
        // x86_64 libtranscode.so links the x86_64 libfastpath.so: no mismatch.
        let transcode = report.images.first { $0.path.hasSuffix("x86_64-linux-gnu/libtranscode.so") }
        #expect(transcode?.links.map { URL(fileURLWithPath: $0).lastPathComponent } == ["libfastpath.so"])
        #expect(transcode?.links.first?.contains("x86_64-linux-gnu") == true)
    }
}
