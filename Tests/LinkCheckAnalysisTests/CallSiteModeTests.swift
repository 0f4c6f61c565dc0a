import Foundation
import LinkCheckAnalysis
import LinkCheckCodeIndex
import LinkCheckImage
import LinkCheckInspection
import LinkCheckTestSupport
import Testing

/// The targeted call-site search (`--call-sites targeted`, the default)
/// against its oracle, the full sweep (`--call-sites full`), on real
/// libraries: the toolchain's, a sample of the system's, the corpus (ELF and
/// Mach-O), the Samples and the fixtures built from source. The two must give
/// the same answers: the same findings with the same call sites and call
/// paths, and, for a broader interest than the default rules ask, the same
/// index (calls kept, call paths, imports reached).
@Suite struct CallSiteModeTests {
    static let toolchainLibraries = "/opt/swift/usr/lib/swift/linux"
    static let systemLibraries = "/usr/lib/x86_64-linux-gnu"

    /// Every `systemSampleStride`-th shared library directly in
    /// ``systemLibraries`` (regular files, by name), at most
    /// ``systemSampleBytes`` in all: libraries of many compilers and
    /// languages, few enough for a debug build's full sweep.
    static let systemSampleStride = 12
    static let systemSampleBytes = 48 << 20

    static var systemSample: [String] {
        let folder = URL(fileURLWithPath: systemLibraries)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        var chosen: [String] = []
        var bytes = 0
        for (position, name) in names.filter({ $0.contains(".so") }).sorted().enumerated() where position % systemSampleStride == 0 {
            let path = folder.appendingPathComponent(name).path
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
                attributes[.type] as? FileAttributeType == .typeRegular,
                let size = attributes[.size] as? Int, bytes + size <= systemSampleBytes
            else { continue }
            bytes += size
            chosen.append(path)
        }
        return chosen
    }

    /// The folders and files checked, by what they are, and the folder
    /// that holds them when they are built here (removed when released).
    static func inputs(_ set: String) throws -> ([String], TemporaryDirectory?) {
        switch set {
        case "toolchain": return ([toolchainLibraries], nil)
        case "system": return (systemSample, nil)
        case "corpus": return ([Fixtures.corpusDirectory.path], nil)
        case "samples": return ([try Fixtures.sampleImages().path], nil)
        default:
            let directory = try Fixtures.temporaryDirectory()
            return (try fixtureImages(in: directory), directory)
        }
    }

    static let sets = ["toolchain", "system", "corpus", "samples", "fixtures"]

    /// The ELF fixtures of call sites, conditional tail calls and loader
    /// calls (x86_64 and aarch64, with their symbols and stripped) and of
    /// x86_64 branches with an operand-size prefix, and the
    /// Mach-O ones of conditional tail calls (arm64, x86_64), built into
    /// `directory`; and every Mach-O fixture.
    static func fixtureImages(in directory: TemporaryDirectory) throws -> [String] {
        var paths: [String] = []
        for target in ["x86_64-linux-gnu", "aarch64-linux-gnu"] {
            for source in ["callsites.c", "conditional-tail-calls.c", "loader-names.c"] {
                for (suffix, strip) in [("", [String]()), ("-stripped", ["-Wl,-s"])] {
                    let output = directory.path("\(target)-\(source)\(suffix).so")
                    paths.append(try Fixtures.compile(source, to: output, target: target, flags: ["-shared", "-O2"] + strip).path)
                }
            }
        }
        paths.append(try Fixtures.compile("operand-size-branches.c", to: directory.path("liboperandsize.so")).path)
        for (arch, target) in [("arm64", MachOFixtures.Target.arm64), ("x86_64", .x86_64Simulator)] {
            paths.append(
                try MachOFixtures.link(
                    MachOFixtures.Image(
                        sources: MachOFixtures.sources("conditional-tail-calls-\(arch).s"),
                        product: .dylib(installName: "@rpath/Cond.framework/Cond"),
                        target: target, frameworks: [], libraries: ["System"]), to: directory.path("Cond-\(arch)")
                ).path)
        }
        return paths + (try MachOFixture.allCases.map { try $0.path().path })
    }

    /// A report's answers: each finding in full (image, rule, symbol, chain,
    /// call sites with function and address, call path, message), then each
    /// image's verdict.
    static func answers(_ report: Report) -> [String] {
        report.findings.map { String(describing: $0) }.sorted() + report.images.map { "\($0.name) \($0.verdict)" }
    }

    @Test(arguments: sets)
    func checkGivesTheFullSweepsFindings(set: String) throws {
        let (paths, built) = try Self.inputs(set)
        defer { withExtendedLifetime(built) {} }
        try #require(!paths.isEmpty)
        let rules = try ShippedRules.ruleSet()
        let targeted = CheckRun.check(paths: paths, rules: rules, policy: Policy(), callSites: .targeted, jobs: 2)
        let full = CheckRun.check(paths: paths, rules: rules, policy: Policy(), callSites: .full, jobs: 2)
        let (ours, oracle) = (Self.answers(targeted), Self.answers(full))
        // Each once, so that equal sets are equal lists.
        #expect(oracle.count == Set(oracle).count)
        #expect(Set(ours).subtracting(oracle).sorted() == [])
        #expect(Set(oracle).subtracting(ours).sorted() == [])
        #expect(targeted.errors.map { "\($0)" } == full.errors.map { "\($0)" })
        // The comparison covers call sites.
        if set != "system" { #expect(full.findings.contains { !$0.callSites.isEmpty }) }
    }

    // MARK: - The index, for a broader interest

    /// FNV-1a of `name`: a sample of names that does not depend on the
    /// machine.
    static func hash(_ name: some Sequence<UInt8>) -> UInt64 {
        name.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    }

    /// One import in 8 and every loader (one in 32 of them asking which
    /// imports their callers reach), one selector in 8, one function in 64,
    /// one import in 4 (and `uname`) reached, two levels down, and the
    /// loads of a few names used by name.
    static let sampledInterest = CallSiteInterest(
        imports: { hash($0.utf8) % 8 == 0 || LoaderCalls.libraryLoaders.contains($0) },
        selectors: { hash($0.utf8) % 8 == 0 },
        functions: { hash($0) % 64 == 0 },
        reached: { hash($0.utf8) % 4 == 1 || $0 == "uname" },
        reachedFrom: { hash($0.utf8) % 32 == 0 || $0 == "dlopen" },
        reachDepth: 2, literals: ["UIApplication", "sharedApplication", "openURL:", "dlopen", "libz.so.1"])

    /// What an index answers for ``sampledInterest``: each call kept (by
    /// callee), each load of a selector reference or literal kept, the call
    /// path to and the guards of each function holding one, and the imports
    /// reached from the callers of the imports asked about. Functions are
    /// told by name and address: each index numbers only the functions it
    /// refers to, and the full sweep's refers to more.
    static func answers(_ index: CodeIndex) -> [String] {
        func function(_ number: Int) -> String {
            "\(index.functions[number].name)@\(String(index.functions[number].address, radix: 16))"
        }
        func site(_ site: CallSite) -> String {
            var callee = "\(site.callee)"
            if case .function(let number) = site.callee { callee = function(number) }
            var unnumbered = site
            unnumbered.caller = nil
            unnumbered.callee = .imported(callee)
            return "\(site.caller.map(function) ?? "-") \(unnumbered)"
        }
        var lines: [String] = []
        var callers = Set<Int>()
        for (name, sites) in index.callsToImport {
            lines += sites.map { "import \(name) \(site($0))" }
            callers.formUnion(sites.compactMap(\.caller))
            if sampledInterest.reachedFrom(name) {
                for caller in Set(sites.compactMap(\.caller)) {
                    lines.append("reached from \(function(caller)): \(index.importsReached(from: caller, depth: 2).sorted())")
                }
            }
        }
        for (selector, sites) in index.callsToSelector {
            lines += sites.map { "selector \(selector) \(site($0))" }
            callers.formUnion(sites.compactMap(\.caller))
        }
        for (number, sites) in index.callsToFunction {
            lines += sites.map { "function \(function(number)) \(site($0))" }
            callers.formUnion(sites.compactMap(\.caller))
        }
        for references in [index.selectorLoads, index.literalLoads] {
            for reference in references.values.joined() {
                lines.append("\(reference.caller.map(function) ?? "-") loads \(reference.target) at \(reference.address)")
                callers.formUnion(reference.caller.map { [$0] } ?? [])
            }
        }
        lines += callers.map { "guards of \(function($0)): \(index.guards(of: $0).map { "\($0)" }.sorted().joined(separator: ", "))" }
        lines += callers.map { "path to \(function($0)): \(index.pathFromExported(to: $0).map(function))" }
        return lines.sorted()
    }

    @Test(arguments: sets)
    func indexIsTheFullSweeps(set: String) throws {
        let (paths, built) = try Self.inputs(set)
        defer { withExtendedLifetime(built) {} }
        // The files of an archive are read again by the code index: it runs
        // while they are unpacked.
        let compared = try Discovery.withUnpackedInputs(paths: paths) { discovery in
            let images = Inspection.inspect(discovery, jobs: 2).images.filter(CodeIndex.supports)
            try #require(!images.isEmpty)
            return parallelMap(images, jobs: 2) { image -> (answers: [String], differences: [String]) in
                do {
                    guard let targeted = try CodeIndex.analyze(image, interest: Self.sampledInterest, mode: .targeted),
                        let full = try CodeIndex.analyze(image, interest: Self.sampledInterest, mode: .full)
                    else { return ([], ["\(image.name): not analysed"]) }
                    let (ours, oracle) = (Self.answers(targeted), Self.answers(full))
                    let extra = Set(ours).subtracting(oracle).sorted().prefix(5).map { "\(image.name): + \($0)" }
                    let missing = Set(oracle).subtracting(ours).sorted().prefix(5).map { "\(image.name): - \($0)" }
                    return (oracle, extra + missing)
                } catch {
                    return ([], ["\(image.name): \(error)"])
                }
            }
        }
        #expect(compared.flatMap(\.differences) == [])
        // The comparison covers call paths through callers and imports
        // reached through callees.
        let answers = compared.flatMap(\.answers)
        #expect(answers.contains { $0.hasPrefix("path to ") && $0.contains(", ") })
        #expect(answers.contains { $0.hasPrefix("reached from ") && !$0.hasSuffix("[]") })
        // For the Mach-O fixtures, loads of names and what guards them.
        if set == "fixtures" {
            #expect(answers.contains { $0.contains(" loads literal(") })
            #expect(answers.contains { $0.contains(" loads selector(") })
            #expect(answers.contains { $0.hasPrefix("guards of ") && $0.contains("respondsToSelector(Optional(\"sharedApplication\"))") })
        }
    }
}
