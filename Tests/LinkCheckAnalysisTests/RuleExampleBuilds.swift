import Foundation
import LinkCheckAnalysis
import LinkCheckRules
import LinkCheckTestSupport

/// Every example of the shipped rule packs, each built into an image of its
/// own, and one check of them all with the default rules: built once per
/// test process (``shared``), in parallel, on first use.
///
/// How an example becomes an image (`Rules/README.md`, Examples):
/// - C for ELF: `Fixtures.compile` (clang, x86_64, `-shared`), as
///   `elf/lib<NAME>.so`;
/// - Objective-C for ELF: the same with `-fobjc-runtime=` the example's
///   runtime;
/// - Swift for ELF: `swiftc -c` against ``SwiftStandInSDK``, then linked
///   like C;
/// - C and Objective-C for Mach-O: ``MachOFixtures/link(_:to:)`` (arm64,
///   `ld64.lld` with bind opcodes) against the stand-in SDK, every framework
///   offered and the unused ones dropped (`-dead_strip_dylibs`), as
///   `macho/<NAME>` with the install name `@rpath/<NAME>.framework/<NAME>`.
///
/// `NAME` is the rule id and `t` (triggering) or `n` and the example's
/// index: `AEX001_t0`. An `appOnly` example is linked by a containing app
/// (`ExamplesApp`, one per format) and nothing else; an `extension` example
/// is named an extension of its type.
struct RuleExampleBuilds: Sendable {
    /// One built example.
    struct Built: Sendable {
        var rule: Rule
        var triggering: Bool
        var index: Int
        var example: RuleExample
        /// The image's name in the report (its path), or why it could not
        /// be built.
        var image: Result<String, BuildFailure>

        /// `AEX001 triggering[0] (swift, elf)`.
        var label: String {
            "\(rule.id) \(triggering ? "triggering" : "nonTriggering")[\(index)] (\(example.summary))"
        }
    }

    struct BuildFailure: Error, CustomStringConvertible, Sendable {
        var description: String
    }

    /// The name of the containing app that links the `appOnly` examples.
    static let appName = "ExamplesApp"

    let examples: [Built]
    let report: Report
    /// How long building and checking took, in seconds.
    let buildSeconds: Double
    let checkSeconds: Double

    /// The findings of rule `id` on the image of `built`.
    func findings(of built: Built) -> [Finding] {
        guard case .success(let image) = built.image else { return [] }
        return report.findings.filter { $0.image == image && $0.rule == built.rule.id }
    }

    /// The shipped packs' examples, built and checked.
    static let shared: Result<RuleExampleBuilds, BuildFailure> = Result { try build() }
        .mapError { BuildFailure(description: "\($0)") }

    private static func build() throws -> RuleExampleBuilds {
        let directory = try Fixtures.temporaryDirectory()
        return try withExtendedLifetime(directory) { try build(in: directory.url) }
    }

    /// Builds into `root` (a new folder, removed afterwards) and checks.
    private static func build(in root: URL) throws -> RuleExampleBuilds {
        let rules = try ShippedRules.ruleSet()
        let elf = root.appendingPathComponent("elf")
        let macho = root.appendingPathComponent("macho")
        let libraryStubs = root.appendingPathComponent("stubs")
        for folder in [elf, macho, libraryStubs] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        let pending = rules.rules.flatMap { rule in
            rule.examples.triggering.enumerated().map { (rule: rule, triggering: true, index: $0, example: $1) }
                + rule.examples.nonTriggering.enumerated().map { (rule: rule, triggering: false, index: $0, example: $1) }
        }
        let swiftSDK = pending.contains { $0.example.language == .swift } ? try SwiftStandInSDK.moduleDirectory() : nil
        // ELF libraries that `libraries` names: empty shared objects with
        // that SONAME, outside the checked folders.
        for library in Set(pending.flatMap(\.example.libraries)) {
            try Fixtures.compile(
                "lib\(library).c", code: "int \(library)Version(void) { return 1; }\n",
                to: libraryStubs.appendingPathComponent("lib\(library).so"), flags: ["-shared", "-Wl,-soname,lib\(library).so"])
        }

        let started = Date()
        let results = ResultBox(count: pending.count)
        DispatchQueue.concurrentPerform(iterations: pending.count) { position in
            let item = pending[position]
            let name = "\(item.rule.id)_\(item.triggering ? "t" : "n")\(item.index)"
            let result = Result { () throws -> String in
                switch item.example.format {
                case .elf:
                    return try buildELF(
                        item.example, name: name, in: elf.appendingPathComponent(name), stubs: libraryStubs, swiftSDK: swiftSDK
                    ).path
                case .macho:
                    return try buildMachO(item.example, name: name, in: macho).path
                }
            }.mapError { BuildFailure(description: "\($0)") }
            results.set(position, result)
        }
        var examples = pending.enumerated().map { position, item in
            Built(rule: item.rule, triggering: item.triggering, index: item.index, example: item.example, image: results.values[position]!)
        }

        // One containing app per format links the appOnly examples.
        var paths = [elf.path, macho.path]
        let appOnly = examples.filter { $0.example.appOnly }
        let elfApp = appOnly.filter { $0.example.format == .elf }.compactMap { try? $0.image.get() }
        if !elfApp.isEmpty {
            let app = root.appendingPathComponent("elf-app/\(appName)")
            try FileManager.default.createDirectory(at: app.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Fixtures.compile(
                "app.c", code: "int main(void) { return 0; }\n", to: app,
                flags: ["-Wl,-e,main", "-Wl,--allow-shlib-undefined", "-Wl,--no-as-needed"] + elfApp.map { "-Wl,\($0)" })
            paths.append(app.path)
        }
        let machOApp = appOnly.filter { $0.example.format == .macho }.compactMap { try? $0.image.get() }
        if !machOApp.isEmpty {
            let source = root.appendingPathComponent("macho-app/main.c")
            try FileManager.default.createDirectory(at: source.deletingLastPathComponent(), withIntermediateDirectories: true)
            try "int main(void) { return 0; }\n".write(to: source, atomically: true, encoding: .utf8)
            let app = root.appendingPathComponent("macho-app/\(appName)")
            try MachOFixtures.link(
                MachOFixtures.Image(
                    sources: [source], product: .executable, frameworks: [], libraries: ["System"],
                    inputs: machOApp.map { URL(fileURLWithPath: $0) }), to: app)
            paths.append(app.path)
        }
        let buildSeconds = Date().timeIntervalSince(started)

        let extensions = Dictionary(
            uniqueKeysWithValues: examples.compactMap { built -> (String, ExtensionType?)? in
                guard let type = built.example.extensionType, case .success(let image) = built.image else { return nil }
                return ((image as NSString).lastPathComponent, type)
            })
        let checked = Date()
        let report = CheckRun.check(
            paths: paths, rules: rules, policy: Policy(extensions: extensions, apps: [appName]), callSites: nil,
            jobs: ProcessInfo.processInfo.activeProcessorCount)
        examples.sort { ($0.rule.id, $0.triggering ? 0 : 1, $0.index) < ($1.rule.id, $1.triggering ? 0 : 1, $1.index) }
        return RuleExampleBuilds(
            examples: examples, report: report, buildSeconds: buildSeconds, checkSeconds: Date().timeIntervalSince(checked))
    }

    /// Builds an ELF example into `folder/lib<name>.so`.
    private static func buildELF(_ example: RuleExample, name: String, in folder: URL, stubs: URL, swiftSDK: URL?) throws -> URL {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let output = folder.appendingPathComponent("lib\(name).so")
        let linking = ["-shared", "-Wl,-soname,lib\(name).so", "-L", stubs.path] + example.libraries.map { "-l\($0)" }
        switch example.language {
        case .c:
            try Fixtures.compile(
                "\(name).c", code: example.code, to: output, flags: ["-Wall", "-Wextra", "-Werror", "-Wno-unused-parameter"] + linking)
        case .objc:
            let runtime = example.objcRuntime ?? .gnustep2
            try Fixtures.compile(
                "\(name).m", code: example.code, to: output,
                flags: ["-fobjc-runtime=\(runtime.rawValue)", "-Wall", "-Wextra", "-Werror", "-Wno-unused-parameter"] + linking)
        case .swift:
            guard let swiftSDK else { throw BuildFailure(description: "no Swift SDK") }
            let source = folder.appendingPathComponent("\(name).swift")
            let object = folder.appendingPathComponent("\(name).o")
            try example.code.write(to: source, atomically: true, encoding: .utf8)
            try Command.run(
                Fixtures.swiftc,
                [
                    "-swift-version", SwiftStandInSDK.swiftVersion, "-c", "-parse-as-library", "-module-name", name,
                    "-I", swiftSDK.path, source.path, "-o", object.path,
                ])
            try Command.run(
                Fixtures.clang, ["--target=x86_64-linux-gnu", "-fuse-ld=lld", "-nostdlib"] + linking + [object.path, "-o", output.path])
        }
        return output
    }

    /// The stand-in SDK's frameworks a Mach-O example may use, by platform.
    static let machOFrameworks: [SDKPlatform: [String]] = [
        .iOS: [
            "Foundation", "CoreFoundation", "UIKit", "AVFoundation", "BackgroundTasks", "CoreLocation", "CoreNFC", "EventKitUI",
            "HealthKit", "Intents", "PassKit", "StoreKit",
        ],
        .macOS: ["Foundation", "CoreFoundation", "SafariServices"],
    ]

    /// Builds a Mach-O example into `folder/<name>`.
    private static func buildMachO(_ example: RuleExample, name: String, in folder: URL) throws -> URL {
        let sources = folder.appendingPathComponent("sources")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        let source = sources.appendingPathComponent("\(name).\(example.language == .objc ? "m" : "c")")
        try example.code.write(to: source, atomically: true, encoding: .utf8)
        let platform = example.machOPlatform
        let minimumOS = example.minimumOS ?? RuleExample.defaultMinimumOS(for: platform)
        let target = MachOFixtures.Target(
            arch: "arm64", triple: "arm64-apple-\(platform == .macOS ? "macos" : "ios")\(minimumOS)", platform: platform.rawValue,
            minimumOS: minimumOS.description)
        return try MachOFixtures.link(
            MachOFixtures.Image(
                sources: [source], product: .dylib(installName: "@rpath/\(name).framework/\(name)"), target: target,
                frameworks: machOFrameworks[platform] ?? [],
                linkerFlags: ["-dead_strip_dylibs"] + example.libraries.map { "-needed-l\($0)" },
                sdk: (example.sdk ?? RuleExample.defaultSDK(for: platform)).description),
            to: folder.appendingPathComponent(name))
    }
}

/// The results of a parallel loop, one slot per iteration.
private final class ResultBox: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var values: [Result<String, RuleExampleBuilds.BuildFailure>?]

    init(count: Int) {
        values = Array(repeating: nil, count: count)
    }

    func set(_ index: Int, _ value: Result<String, RuleExampleBuilds.BuildFailure>) {
        lock.withLock { values[index] = value }
    }
}
