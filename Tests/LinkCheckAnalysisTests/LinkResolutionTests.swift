import Foundation
import LinkCheckAnalysis
import LinkCheckImage
import LinkCheckInspection
import LinkCheckReports
import LinkCheckRules
import LinkCheckTestSupport
import Testing

/// DT_NEEDED followed the way the loader does: RUNPATH with $ORIGIN, RPATH,
/// search paths, the system folders; libraries outside the scanned paths
/// reported only when a finding passes through them.
@Suite struct LinkResolutionTests {
    static let rules: RuleSet = {
        let rule = Rule(
            id: "TST001", api: "kit_shared", category: .unavailableAPI, severity: .error,
            matchers: [.symbol("kit_shared")], message: "unavailable", fixit: "f", source: "s")
        return RuleSet.build(packs: [RulePack(path: "t.json", name: "t", version: "1", rules: [rule])]).0
    }()

    /// dir/lib/libunsafe.so, dir/lib/libclean.so, and in dir/app the
    /// libraries that link them with the given flags.
    static func layout(_ flags: [String] = ["-Wl,-rpath,$ORIGIN/../lib"]) throws -> TemporaryDirectory {
        let directory = try Fixtures.temporaryDirectory()
        let lib = directory.path("lib")
        let app = directory.path("app")
        try FileManager.default.createDirectory(at: lib, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: app, withIntermediateDirectories: true)
        try Fixtures.compile(
            "linkchain.c", to: lib.appendingPathComponent("libunsafe.so"), flags: ["-shared", "-DUNSAFE", "-Wl,-soname,libunsafe.so"])
        try Fixtures.compile(
            "linkchain.c", to: lib.appendingPathComponent("libclean.so"), flags: ["-shared", "-DCLEAN", "-Wl,-soname,libclean.so"])
        try Fixtures.compile(
            "linkchain.c", to: app.appendingPathComponent("libext.so"), flags: ["-shared", "-L\(lib.path)", "-lunsafe"] + flags)
        try Fixtures.compile(
            "linkchain.c", to: app.appendingPathComponent("libsafe.so"), flags: ["-shared", "-L\(lib.path)", "-lclean"] + flags)
        return directory
    }

    static func check(_ directory: TemporaryDirectory, _ resolver: LinkResolver = LinkResolver()) -> Report {
        CheckRun.check(
            paths: [directory.path("app").path], rules: rules, policy: Policy(extensions: ["ext": nil]),
            resolver: resolver, jobs: 1)
    }

    @Test func aMalformedLibraryFoundDuringResolutionIsNamedNotMissing() throws {
        let directory = try Self.layout()
        // Where RUNPATH points, libunsafe.so is now an ELF magic and garbage.
        let damaged = directory.path("lib/libunsafe.so")
        try Data("\u{7f}ELF\u{02}\u{01}garbage, not an ELF header".utf8).write(to: damaged)
        let report = Self.check(directory)
        let findings = report.findings.filter { $0.image == directory.path("app/libext.so").path }
        #expect(findings.map(\.rule) == ["LINK002"])
        #expect(findings.first?.severity == .error, "the extension must be safe, and what it needs could not be read")
        guard case .libraryUnreadable(let library, let found)? = findings.first?.typedDetail else {
            Issue.record("\(String(describing: findings.first))")
            return
        }
        #expect(library == "libunsafe.so")
        #expect(found.map(\.path) == [damaged.path])
        guard case .malformed(_, .elf, _, _)? = found.first?.error else {
            Issue.record("\(found)")
            return
        }
        #expect(!report.findings.contains { $0.rule == "LINK001" })
        #expect(report.images.first { $0.path == directory.path("app/libext.so").path }?.verdict == .incomplete)
    }

    @Test(arguments: SectionHeaderDamage.sectionsOnly)
    func aLibraryFoundThroughDTNeededWithDamagedSectionHeadersStillMakesTheExtensionUnsafe(_ damage: SectionHeaderDamage) throws {
        let directory = try Self.layout()
        let unsafe = directory.path("lib/libunsafe.so")
        try damage.applied(to: Data(contentsOf: unsafe)).write(to: unsafe)
        let report = Self.check(directory)
        let ext = directory.path("app/libext.so").path
        #expect(
            report.findings.filter { $0.image == ext }.map { "\($0.rule) \($0.severity) \($0.chain.joined(separator: " → "))" } == [
                "INSP001 error libext.so → libunsafe.so", "TST001 error libext.so → libunsafe.so → kit_shared",
            ])
        #expect(report.findings.filter { $0.image == unsafe.path }.map(\.rule) == ["INSP001", "TST001"])
        #expect(report.images.first { $0.path == ext }?.verdict == .unsafe)
    }

    @Test func runpathWithOriginReachesAnUnsafeLibraryOutsideTheInputs() throws {
        let directory = try Self.layout()
        let report = Self.check(directory)
        let unsafe = directory.path("lib/libunsafe.so").path
        #expect(report.images.map(\.path) == [directory.path("app/libext.so").path, directory.path("app/libsafe.so").path, unsafe])
        #expect(report.images.last?.external == true)
        #expect(report.images.first?.verdict == .unsafe)
        let chain = report.findings.first { $0.kind == .transitive }
        #expect(chain?.chain == ["libext.so", "libunsafe.so", "kit_shared"])
        #expect(chain?.severity == .error)
        #expect(report.findings.contains { $0.image == unsafe && $0.kind == .importedSymbol })
        #expect(!report.images.contains { $0.path.hasSuffix("libclean.so") }, "no finding passes through libclean.so")
        #expect(report.images[1].links == [], "libclean.so is not reported, so it is not drawn")
    }

    @Test func aLibraryReachedThroughTwoPathsIsOneImage() throws {
        let directory = try Self.layout()
        try FileManager.default.createSymbolicLink(atPath: directory.path("liblink").path, withDestinationPath: "lib")
        try Fixtures.compile(
            "linkchain.c", to: directory.path("app/libother.so"),
            flags: [
                "-shared", "-L\(directory.path("lib").path)", "-lunsafe", "-Wl,-rpath,$ORIGIN/../liblink",
            ])
        let report = Self.check(directory)
        let unsafe = directory.path("lib/libunsafe.so").path
        #expect(
            report.images.map(\.path) == [
                directory.path("app/libext.so").path, directory.path("app/libother.so").path,
                directory.path("app/libsafe.so").path, unsafe,
            ], "found through lib/ and liblink/, reported once by its real path")
        let chains = report.findings.filter { $0.kind == .transitive }.map { "\($0.image): \($0.chain.joined(separator: " → "))" }
        #expect(
            chains == [
                "\(directory.path("app/libext.so").path): libext.so → libunsafe.so → kit_shared",
                "\(directory.path("app/libother.so").path): libother.so → libunsafe.so → kit_shared",
            ])
    }

    @Test(arguments: ["${ORIGIN}/../lib", "$ORIGIN/../lib:/nonexistent", "/nonexistent:$ORIGIN/../lib"])
    func bothSpellingsOfOriginAreExpanded(runpath: String) throws {
        let directory = try Self.layout(["-Wl,-rpath,\(runpath)"])
        let report = Self.check(directory)
        #expect(report.findings.filter { $0.kind == .transitive }.map(\.chain) == [["libext.so", "libunsafe.so", "kit_shared"]])
        #expect(!report.findings.contains { $0.rule == "LINK001" })
    }

    @Test func originFollowedByAPunctuationMarkIsTheToken() throws {
        // glibc expands "$ORIGIN" before any byte that cannot continue a name.
        let directory = try Self.layout(["-Wl,-rpath,$ORIGIN.d"])
        try FileManager.default.createSymbolicLink(atPath: directory.path("app.d").path, withDestinationPath: "lib")
        let report = Self.check(directory)
        #expect(report.findings.filter { $0.kind == .transitive }.map(\.chain) == [["libext.so", "libunsafe.so", "kit_shared"]])
    }

    @Test func anEmptySearchPathEntryIsTheWorkingDirectory() throws {
        // "/nonexistent:" ends with an empty entry: ld.so looks in the
        // working directory, so this resolves when run from lib/ only.
        let directory = try Self.layout(["-Wl,-rpath,/nonexistent:"])
        let pack = directory.path("rules.json")
        try
            #"{"format": 1, "name": "t", "version": "1", "rules": [{"id": "TST001", "api": "kit_shared", "category": "unavailable-api", "severity": "error", "match": [{"symbol": "kit_shared"}], "message": "unavailable", "fixit": "f", "source": "s"}]}"#
            .write(to: pack, atomically: true, encoding: .utf8)
        let arguments = ["check", "--no-call-sites", "--no-default-rules", "--rules", pack.path, directory.path("app/libext.so").path]
        let fromLib = try Command.capture(Fixtures.linkcheckExecutable, arguments, currentDirectory: directory.path("lib"))
        #expect(fromLib.standardOutput.contains("libext.so: error: [TST001] links libunsafe.so, which imports kit_shared"), "\(fromLib)")
        #expect(!fromLib.standardOutput.contains("LINK001"))
        let fromApp = try Command.capture(Fixtures.linkcheckExecutable, arguments, currentDirectory: directory.path("app"))
        #expect(fromApp.standardOutput.contains("[LINK001] needs libunsafe.so"), "\(fromApp)")
    }

    @Test func originGluedToMoreLettersIsNotTheToken() throws {
        let directory = try Self.layout(["-Wl,-rpath,$ORIGINAL/../lib"])
        // Were "$ORIGIN" replaced inside "$ORIGINAL", this would lead to lib/.
        try FileManager.default.createDirectory(at: directory.path("appAL"), withIntermediateDirectories: true)
        let missing = Self.check(directory).findings.filter { $0.rule == "LINK001" }
        #expect(missing.compactMap(\.symbol).sorted() == ["libclean.so", "libunsafe.so"])
    }

    /// The libraries a wave will load are inspected ahead, in parallel; an
    /// incompatible file found first (as the loader skips it) is passed
    /// over, and the graph is the same with any number of jobs.
    @Test func anIncompatibleLibraryFirstInRunpathIsSkippedWhateverTheJobs() throws {
        let directory = try Self.layout(["-Wl,-rpath,$ORIGIN/../lib32:$ORIGIN/../lib"])
        try FileManager.default.createDirectory(at: directory.path("lib32"), withIntermediateDirectories: true)
        try Fixtures.compile(
            "linkchain.c", to: directory.path("lib32/libunsafe.so"), target: "i386-linux-gnu",
            flags: ["-shared", "-DUNSAFE", "-Wl,-soname,libunsafe.so"])
        try Fixtures.compile(
            "linkchain.c", to: directory.path("lib32/libclean.so"), target: "i386-linux-gnu",
            flags: ["-shared", "-DCLEAN", "-Wl,-soname,libclean.so"])
        let scanned = try ["app/libext.so", "app/libsafe.so"].flatMap { try ImageInspector.inspect(path: directory.path($0).path) }
        let graph = LinkResolver(includeSystem: false).resolve(scanned, reader: Inspection.Reader(), jobs: 1)
        // The i386 copies are read (and kept, so that they are read once) but not linked.
        #expect(
            graph.images.dropFirst(2).map(\.path)
                == ["lib32/libunsafe.so", "lib/libunsafe.so", "lib32/libclean.so", "lib/libclean.so"].map {
                    directory.path($0).path
                })
        #expect(graph.edges == [[3], [5], [], [], [], []])
        let parallel = LinkResolver(includeSystem: false).resolve(scanned, reader: Inspection.Reader(), jobs: 4)
        #expect(parallel.images == graph.images)
        #expect(parallel.edges == graph.edges)
    }

    @Test func aFIFOWhereALibraryIsLookedForIsPassedOverNotOpened() throws {
        // Opening a FIFO for reading blocks until a writer comes: never.
        let directory = try Self.layout(["-Wl,-rpath,$ORIGIN/../fifo:$ORIGIN/../lib"])
        try FileManager.default.createDirectory(at: directory.path("fifo"), withIntermediateDirectories: true)
        #expect(mkfifo(directory.path("fifo/libunsafe.so").path, 0o644) == 0)
        let report = Self.check(directory)
        #expect(report.findings.filter { $0.kind == .transitive }.map(\.chain) == [["libext.so", "libunsafe.so", "kit_shared"]])
        #expect(throws: InspectionError.notInspectable(path: directory.path("fifo/libunsafe.so").path, reason: "not a regular file")) {
            try ImageInspector.inspect(path: directory.path("fifo/libunsafe.so").path)
        }
    }

    @Test func rpathIsIgnoredWhenRunpathIsPresent() throws {
        let directory = try Self.layout(["-Wl,--disable-new-dtags", "-Wl,-rpath,$ORIGIN/../lib"])
        let viaRpath = Self.check(directory)
        #expect(viaRpath.findings.contains { $0.kind == .transitive }, "DT_RPATH is searched")
        let image = try #require(try ImageInspector.inspect(path: directory.path("app/libext.so").path).first)
        #expect(image.searchPaths == [SearchPath(path: "$ORIGIN/../lib", kind: .rpath)])
    }

    @Test func missingLibrariesAreWarningsAndSearchPathsFindThem() throws {
        let directory = try Self.layout([])
        let missing = Self.check(directory)
        let warnings = missing.findings.filter { $0.rule == "LINK001" }
        #expect(warnings.compactMap(\.symbol).sorted() == ["libclean.so", "libunsafe.so"])
        #expect(
            warnings.allSatisfy { finding in
                guard case .libraryNotFound(let library, _)? = finding.typedDetail else { return false }
                return finding.severity == .warning && library == finding.symbol
            })
        let found = Self.check(directory, LinkResolver(searchPaths: [directory.path("lib").path]))
        #expect(!found.findings.contains { $0.rule == "LINK001" })
        #expect(found.findings.contains { $0.kind == .transitive })
        let noSystem = Self.check(directory, LinkResolver(includeSystem: false))
        #expect(!noSystem.findings.contains { $0.rule == "LINK001" }, "--no-system stops at the scanned set")
    }

    @Test func ldLibraryPathOnlyWhenAsked() throws {
        let directory = try Self.layout([])
        let lib = directory.path("lib").path
        let resolver = LinkResolver(useLDLibraryPath: true)
        // The variable is read from this process's environment.
        let previous = ProcessInfo.processInfo.environment["LD_LIBRARY_PATH"]
        setenv("LD_LIBRARY_PATH", lib, 1)
        defer { if let previous { setenv("LD_LIBRARY_PATH", previous, 1) } else { unsetenv("LD_LIBRARY_PATH") } }
        #expect(Self.check(directory, resolver).findings.contains { $0.kind == .transitive })
        #expect(!Self.check(directory, LinkResolver()).findings.contains { $0.kind == .transitive })
    }

    @Test func systemLibrariesAreFollowedButNotReported() throws {
        let images = try Fixtures.sampleImages().appendingPathComponent("PhotoEditor")
        let report = try ShippedRules.check(images)
        #expect(!report.findings.contains { $0.rule == "LINK001" }, "libswiftCore.so and libc.so.6 resolve")
        #expect(report.images.allSatisfy { !$0.external })
        #expect(report.images.count == 10)
    }

    @Test func systemDirectoriesComeFromLdSoConf() {
        let directories = SystemLibraryDirectories.for(TestImages.x86_64)
        #expect(directories.contains("/usr/lib/x86_64-linux-gnu"))
        #expect(directories.suffix(2) == ["/usr/lib64", "/usr/lib"])
    }
}
