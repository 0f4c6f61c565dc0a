import Foundation
import LinkCheckTestSupport
import Testing

/// The `linkcheck` executable as users and scripts run it: output, exit
/// statuses, usage errors.
@Suite struct CommandLineTests {
    @Test func version() throws {
        let output = try Command.linkcheck(["--version"])
        #expect(output.status == 0)
        #expect(output.standardOutput == "linkcheck 0.1.0\n")
    }

    @Test(arguments: [
        ["--help"], ["check", "--help"], ["inspect", "--help"], ["rules", "--help"],
        ["rules", "list", "--help"], ["rules", "validate", "--help"],
    ])
    func everySubcommandHasHelp(arguments: [String]) throws {
        let output = try Command.linkcheck(arguments)
        #expect(output.status == 0)
        #expect(output.standardOutput.hasPrefix("OVERVIEW: "))
        #expect(output.standardOutput.contains("USAGE: linkcheck"))
    }

    @Test(arguments: [
        ["check", "--bogus", "x"], ["inspect", "--frobnicate", "x"], ["rules", "list", "--nope"],
        ["check"], ["frobnicate"], ["check", "--format", "xml", "x"], ["check", "--jobs", "0", "x"],
        ["check", "--extension", "Ext=spaceship", "x"], ["check", "--rules"],
        ["check", "--extension", "=share", "x"], ["check", "--extension", "Ext=", "x"],
        ["check", "--require-arch", "bogus", "x"], ["check", ""], ["inspect", ""],
        ["check", "--html", "", "x"], ["check", "--write-baseline=", "x"],
        ["rules", "extract", "--symbol-graph-dir", "x", "--output", ""],
        ["check", "--search-path", "/nonexistent/lib", "x"],
    ])
    func usageErrorsExitTwo(arguments: [String]) throws {
        let output = try Command.linkcheck(arguments)
        #expect(output.status == 2)
        #expect(output.standardError.hasPrefix("linkcheck: error: "))
        #expect(output.standardOutput.isEmpty)
    }

    /// A library that defines `dlsym` interposes the loader (INTP001) with
    /// any rule packs: the C loader functions are kept whatever the packs'
    /// symbols start with (the test pack's one starts with `k`).
    @Test(arguments: [["--no-call-sites"], []])
    func aLoaderInterpositionIsFoundWithPacksThatNameNoLoader(mode: [String]) throws {
        let directory = try Fixtures.temporaryDirectory()
        let library = try Fixtures.compile(
            "hook.c", code: "void *dlsym(void *handle, const char *name) { (void)handle; (void)name; return 0; }\n",
            to: directory.path("libhook.so"))
        let pack = directory.path("kit.rules.json")
        try Data(
            """
            {"format": 1, "name": "kit", "version": "1", "rules": [{"id": "TST001", "api": "kit_open", "category": "unavailable-api",
             "severity": "error", "match": [{"symbol": "kit_open"}], "message": "m", "fixit": "f", "source": "test"}]}
            """.utf8
        ).write(to: pack)
        let output = try Command.linkcheck(["check", "--no-default-rules", "--rules", pack.path] + mode + [library.path])
        #expect(output.status == 0, "\(output.standardOutput)\(output.standardError)")
        #expect(output.standardOutput.contains("\(library.path): warning: [INTP001] defines 'dlsym'"), "\(output.standardOutput)")
    }

    @Test func unknownOptionNamesItself() throws {
        let output = try Command.linkcheck(["check", "--bogus", "x"])
        #expect(output.standardError == "linkcheck: error: unknown option '--bogus' for 'linkcheck check' (see 'linkcheck check --help')\n")
    }

    /// A mistyped option gets the known options closest to it, by edit
    /// distance, as swift and git suggest.
    @Test(arguments: [
        (["check", "--fromat", "json", "x"], "unknown option '--fromat' for 'linkcheck check'; did you mean '--format'?"),
        (["check", "-format", "json", "x"], "unknown option '-format' for 'linkcheck check'; did you mean '--format'?"),
        (["check", "--extensions", "Share", "x"], "unknown option '--extensions' for 'linkcheck check'; did you mean '--extension'?"),
        (["rules", "list", "--example"], "unknown option '--example' for 'linkcheck rules list'; did you mean '--examples'?"),
    ])
    func aMistypedOptionGetsASuggestion(arguments: [String], message: String) throws {
        let output = try Command.linkcheck(arguments)
        #expect(output.status == 2)
        let command = arguments[0] == "rules" ? "rules list" : "check"
        #expect(output.standardError == "linkcheck: error: \(message) (see 'linkcheck \(command) --help')\n")
    }

    /// `Rules/*.json` is the shipped packs and nothing else: the packs'
    /// JSON Schema lives in `Documentation/`.
    @Test func theShippedPacksValidateAsAGlobGivesThem() throws {
        let rules = Fixtures.repositoryRoot.appendingPathComponent("Rules")
        let packs = try FileManager.default.contentsOfDirectory(atPath: rules.path).filter { $0.hasSuffix(".json") }.sorted()
        #expect(packs == ["app-extension-unavailable.json", "conditional-loading.json", "selector-strings.json"])
        let output = try Command.linkcheck(["rules", "validate"] + packs.map { rules.appendingPathComponent($0).path })
        #expect(output.status == 0, "\(output.standardError)")
    }

    @Test func aDSYMThatDoesNotExistIsAUsageError() throws {
        let output = try Command.linkcheck(["check", "--dsym", "/nonexistent/X.framework.dSYM", "/etc/hostname"])
        #expect(output.standardError == "linkcheck: error: --dsym /nonexistent/X.framework.dSYM does not exist\n")
        #expect(output.status == 2)
    }

    @Test func aSearchPathThatIsNotAFolderIsAUsageError() throws {
        #expect(
            try Command.linkcheck(["check", "--search-path", "/nonexistent/lib", "/etc/hostname"]).standardError
                == "linkcheck: error: --search-path /nonexistent/lib does not exist\n")
        #expect(
            try Command.linkcheck(["check", "--search-path", "/etc/hostname", "/etc/hostname"]).standardError
                == "linkcheck: error: --search-path /etc/hostname is not a directory\n")
    }

    @Test func aRulePackWithATrailingCommaNamesTheLineAndColumn() throws {
        let directory = try Fixtures.temporaryDirectory()
        try #"{"format": 1, "name": "p", "version": "1", "rules": [],}"#.write(
            to: directory.path("pack.json"), atomically: true, encoding: .utf8)
        let output = try Command.linkcheck(["rules", "validate", directory.path("pack.json").path])
        #expect(output.status == 2)
        #expect(
            output.standardError == """
                \(directory.path("pack.json").path):1:55: error: invalid JSON: trailing comma: JSON allows no comma after the last member of an object
                linkcheck: 1 problem found

                """)
    }

    @Test func nothingCheckableExitsTwo() throws {
        let output = try Command.linkcheck(["check", "/nonexistent/linkcheck"])
        #expect(output.status == 2)
        #expect(output.standardOutput.contains("/nonexistent/linkcheck: error: cannot inspect: cannot read: No such file or directory"))
        let noELF = try Command.linkcheck(["check", "/etc/hostname"])
        #expect(noELF.status == 2)
        #expect(noELF.standardOutput.hasPrefix("/etc/hostname: error: cannot inspect: not an ELF or Mach-O file\n"))
        #expect(
            noELF.standardError
                == "linkcheck: error: nothing could be checked: 1 input failed (above) and no other ELF or Mach-O image was found\n")
        let emptyFolder = try Fixtures.temporaryDirectory()
        try Data("notes\n".utf8).write(to: emptyFolder.path("README"))
        let noImage = try Command.linkcheck(["check", emptyFolder.url.path])
        #expect(noImage.status == 2)
        #expect(noImage.standardError == "linkcheck: error: nothing to check: no ELF or Mach-O image found under \(emptyFolder.url.path)\n")
        let fifo = try Command.linkcheck(["inspect", "/dev/null"])
        #expect(fifo.status == 2)
        #expect(fifo.standardError == "linkcheck: error: /dev/null: skipped: not a regular file\n")
        // A file given that is not an image is an error; one found in a
        // folder is passed over, and a folder of none is an error.
        let given = try Command.linkcheck(["inspect", "/etc/hostname"])
        #expect(given.status == 2)
        #expect(given.standardError == "linkcheck: error: /etc/hostname: not an ELF or Mach-O file\n")
        let directory = try Fixtures.temporaryDirectory()
        try "text".write(to: directory.path("notes.txt"), atomically: true, encoding: .utf8)
        let folder = try Command.linkcheck(["inspect", directory.url.path])
        #expect(folder.status == 2)
        #expect(
            folder.standardError == """
                \(directory.path("notes.txt").path): note: skipped: not an ELF or Mach-O file
                linkcheck: error: no ELF or Mach-O file found under \(directory.url.path)

                """)
    }

    @Test func rulePacksCannotReuseBuiltInIDsAndAPackGivenTwiceLoadsOnce() throws {
        let directory = try Fixtures.temporaryDirectory()
        let pack = directory.path("pack.json")
        try """
        {"format": 1, "name": "p", "version": "1", "rules": [
          {"id": "ARCH001", "api": "a", "category": "unavailable-api", "severity": "error",
           "match": [{"symbol": "dlsym"}], "message": "m", "fixit": "f", "source": "s"}]}
        """.write(to: pack, atomically: true, encoding: .utf8)
        let reused = try Command.linkcheck(["check", "--rules", pack.path, "/opt/swift/usr/lib/swift/linux"])
        #expect(reused.status == 2)
        #expect(
            reused.standardError
                == "\(pack.path): error: $.rules[0].id: duplicate rule id 'ARCH001' (first defined in linkcheck's built-in checks)\n")

        try """
        {"format": 1, "name": "p", "version": "1", "rules": [
          {"id": "TST001", "api": "a", "category": "unavailable-api", "severity": "error",
           "match": [{"symbol": "dlsym"}], "message": "m", "fixit": "f", "source": "s"}]}
        """.write(to: pack, atomically: true, encoding: .utf8)
        try """
        {"format": 1, "name": "p", "version": "1", "rules": [
          {"id": "AEX001", "api": "a", "category": "unavailable-api", "severity": "error",
           "match": [{"symbol": "dlsym"}], "message": "m", "fixit": "f", "source": "s"}]}
        """.write(to: directory.path("clash.json"), atomically: true, encoding: .utf8)
        let clash = try Command.linkcheck(["rules", "validate", directory.path("clash.json").path])
        #expect(clash.status == 2, "check would reject it against the shipped packs, so validate does")
        #expect(clash.standardError.contains("duplicate rule id 'AEX001'"))
        #expect(try Command.linkcheck(["rules", "validate", "--no-default-rules", directory.path("clash.json").path]).status == 0)
        let twice = try Command.linkcheck(["rules", "list", "--no-default-rules", "--rules", pack.path, "--rules", pack.path])
        #expect(twice.status == 0)
        #expect(twice.standardOutput.hasPrefix("p 1 (1 rule)\n"))
    }

    @Test func rulesDirectoryFromTheEnvironment() throws {
        let output = try Command.linkcheck(["rules", "list"], environment: ["LINKCHECK_RULES_DIR": "/nonexistent"])
        #expect(output.status == 2)
        #expect(output.standardError.hasPrefix("linkcheck: error: LINKCHECK_RULES_DIR=/nonexistent holds no rule packs"))
        let rules = Fixtures.repositoryRoot.appendingPathComponent("Rules").path
        #expect(try Command.linkcheck(["rules", "list"], environment: ["LINKCHECK_RULES_DIR": rules]).status == 0)
    }

    @Test func theSamplesMainJob() throws {
        let images = try Fixtures.sampleImages().path
        // The Samples are debug builds: findings with calls start with their
        // source, relative to the repository.
        let output = try Command.linkcheck([
            "check", "--extension", "PhotoEditorExtension=share", "--app", "PhotoEditorApp", "--source-root",
            Fixtures.repositoryRoot.path, "\(images)/PhotoEditor",
        ])
        #expect(output.status == 1)
        let lines = output.standardOutput.split(separator: "\n").map(String.init)
        // The answer first: the extension's verdict and its first cause.
        #expect(
            lines.first
                == "libPhotoEditorExtension.so (share extension): unsafe — libShareKit.so calls UIKit.UIApplication.shared and UIKit.UIApplication.open from ShareKit.openInContainingApp(Swift.String); 1 more cause"
        )
        #expect(
            lines.contains(
                "\(images)/PhotoEditor/libPhotoEditorExtension.so: error: [AEX001] links libShareKit.so, which calls UIKit.UIApplication.shared"
            ))
        #expect(
            lines.contains(
                "Samples/PhotoEditor/Packages/SharedFrameworks/Sources/ShareKit/Sharer.swift:24:37: error: [AEX001] calls UIKit.UIApplication.shared from ShareKit.Sharer.openInApp(photoID: Swift.String) → ShareKit.openInContainingApp(Swift.String) (linked by libPhotoEditorExtension.so) (in \(images)/PhotoEditor/libShareKit.so)"
            ))
        #expect(
            lines.contains(
                "Samples/PhotoEditor/Packages/SharedFrameworks/Sources/LegacyLoader/LegacyLoader.swift:20:28: note: [LOAD001] calls dlopen from LegacyLoader.LegacyLoader.loadPhotoEffects() (in \(images)/PhotoEditor/libLegacyLoader.so)"
            ))
        // libPhotoEffects.so's camera capture is reached only through
        // LegacyLoader's dlopen, which only the app links: notes, not errors.
        #expect(
            lines.contains {
                $0.hasPrefix("Samples/PhotoEditor/Sources/PhotoEffects/PhotoEffects.swift:") && $0.contains(": note: [AEX201] ")
                    && $0.hasSuffix(" (in \(images)/PhotoEditor/libPhotoEffects.so)")
            })
        #expect(lines.last == "linkcheck: 10 images, 5 errors, 2 warnings, 27 notes; 0 files skipped, 0 files failed")
    }

    /// `--call-sites full` prints what the default (`targeted`) prints; an
    /// unknown mode, or one with `--no-call-sites`, is a usage error.
    @Test func callSiteModes() throws {
        let images = try Fixtures.sampleImages().path
        let arguments = ["check", "--extension", "PhotoEditorExtension=share", "--app", "PhotoEditorApp", "\(images)/PhotoEditor"]
        let targeted = try Command.linkcheck(arguments)
        let full = try Command.linkcheck(["check", "--call-sites", "full"] + arguments.dropFirst())
        #expect(full.status == 1)
        #expect(full.standardOutput == targeted.standardOutput)
        #expect(
            full.standardOutput.contains(
                " from ShareKit.Sharer.openInApp(photoID: Swift.String) → ShareKit.openInContainingApp(Swift.String) "))
        let unknown = try Command.linkcheck(["check", "--call-sites", "fast", images])
        #expect(unknown.status == 2)
        #expect(unknown.standardError.contains("unknown call-site mode 'fast' (targeted or full)"))
        let both = try Command.linkcheck(["check", "--no-call-sites", "--call-sites", "full", images])
        #expect(both.status == 2)
        #expect(both.standardError.contains("--no-call-sites and --call-sites full contradict each other"))
    }

    @Test func cleanImagesExitZero() throws {
        let images = try Fixtures.sampleImages().path
        let output = try Command.linkcheck(["check", "\(images)/PhotoEditor/libImageFilters.so"])
        #expect(output.status == 0)
        #expect(output.standardOutput == "linkcheck: 1 image, 0 errors, 0 warnings, 0 notes; 0 files skipped, 0 files failed\n")
    }

    @Test func jsonReportOfTheSamples() throws {
        let images = try Fixtures.sampleImages().path
        let output = try Command.linkcheck(["check", "--format", "json", "--extension", "PhotoEditorExtension", "\(images)/PhotoEditor"])
        #expect(output.status == 1)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any])
        #expect(document["schemaVersion"] as? Int == 2)
        let findings = try #require(document["findings"] as? [[String: Any]])
        let chain = findings.first {
            ($0["image"] as? String)?.hasSuffix("libPhotoEditorExtension.so") == true && $0["rule"] as? String == "AEX001"
        }
        #expect(chain?["chain"] as? [String] == ["libPhotoEditorExtension.so", "libShareKit.so", "UIKit.UIApplication.shared"])
        #expect(chain?["severity"] as? String == "error")
        let ordered = findings.map { "\($0["image"] as? String ?? "")\u{1}\($0["rule"] as? String ?? "")" }
        #expect(ordered == ordered.sorted(), "sorted by image, then rule")
    }

    @Test func theToolchainLibraryFolder() throws {
        let folder = "/opt/swift/usr/lib/swift/linux"
        try #require(FileManager.default.fileExists(atPath: "\(folder)/libFoundation.so"))
        let output = try Command.linkcheck(["check", folder])
        #expect(output.status == 0)
        #expect(output.standardOutput.contains("\(folder)/libFoundation.so: note: [LOAD001] calls dlopen from "))
        #expect(output.standardOutput.split(separator: "\n").last?.hasPrefix("linkcheck: ") == true)
    }

    @Test func inspectJSON() throws {
        let library = Fixtures.corpusDirectory.appendingPathComponent("object-testfiles/libimports.so").path
        let output = try Command.linkcheck(["inspect", "--format", "json", library])
        #expect(output.status == 0)
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [[String: Any]])
        let entry = try #require(entries.first)
        for key in ["path", "class", "data", "machine", "type", "needed", "runpath", "rpath", "imports", "exports"] {
            #expect(entry[key] != nil, "missing \(key)")
        }
        #expect(entry["needed"] as? [String] == ["libexports.so", "libc.so.6", "ld-linux-x86-64.so.2"])
        let imports = try #require(entry["imports"] as? [[String: Any]])
        let versioned = imports.first { $0["name"] as? String == "versioned_func" }
        #expect(versioned?["version"] as? String != nil)
        #expect(versioned?["binding"] as? String == "GLOBAL")
        #expect(versioned?["type"] as? String == "FUNC")
    }

    @Test func inspectJSONWithCallSites() throws {
        let shareKit = try Fixtures.sampleImages().appendingPathComponent("PhotoEditor/libShareKit.so").path
        let armv7 = try Fixtures.sampleImages().appendingPathComponent("arch/armv7-linux-gnueabihf/libcodec.so").path
        let output = try Command.linkcheck(["inspect", "--format", "json", "--call-sites", shareKit, armv7])
        #expect(output.status == 0)
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [[String: Any]])
        let sites = try #require(entries.first?["callSites"] as? [[String: Any]])
        let shared = sites.first { $0["callee"] as? String == "$s5UIKit13UIApplicationC6sharedACvgZ" }
        #expect(shared?["caller"] as? String == "$s8ShareKit19openInContainingAppySbSSF")
        #expect((shared?["address"] as? String)?.hasPrefix("0x") == true)
        #expect(entries.last?.keys.contains("callSites") == true && entries.last?["callSites"] is NSNull, "armv7 is not analysed")
        let plain = try Command.linkcheck(["inspect", "--format", "json", shareKit])
        let plainEntries = try #require(try JSONSerialization.jsonObject(with: Data(plain.standardOutput.utf8)) as? [[String: Any]])
        #expect(plainEntries.first?["callSites"] == nil)
    }

    /// A file that cannot be inspected beside one that can: the good one
    /// is printed, the bad one named, and the exit status is 2 in text and
    /// in JSON.
    @Test func inspectExitsTwoWhenAnyFileFails() throws {
        let directory = try Fixtures.temporaryDirectory()
        let library = Fixtures.corpusDirectory.appendingPathComponent("object-testfiles/libimports.so").path
        let truncated = directory.path("truncated.so")
        try Data(try Data(contentsOf: URL(fileURLWithPath: library)).prefix(10)).write(to: truncated)
        for format in ["text", "json"] {
            let output = try Command.linkcheck(["inspect", "--format", format, truncated.path, library])
            #expect(output.status == 2, "\(format)")
            #expect(output.standardOutput.contains(library), "\(format)")
            if format == "json" {
                let entries = try #require(try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [[String: Any]])
                #expect(
                    entries.map { "\($0["path"]!) \($0["error"] != nil)" } == ["\(truncated.path) true", "\(library) false"].sorted(),
                    "sorted by path, as every input is")
            } else {
                #expect(output.standardError.hasPrefix("linkcheck: error: \(truncated.path): "), "\(output.standardError)")
            }
        }
    }

    @Test func rulesValidateReportsEveryProblem() throws {
        let directory = try Fixtures.temporaryDirectory()
        let pack = directory.path("bad.json")
        try """
        {"format": 1, "name": "bad", "version": "1", "rules": [
          {"id": "BAD001", "api": "a", "category": "unavailable-api", "severity": "error",
           "match": [{"glob": "x["}], "message": "m", "fixit": "f", "source": "s", "typo": 1},
          {"id": "BAD001", "api": "a", "category": "unavailable-api", "severity": "error",
           "match": [{"symbol": "x"}], "message": "m", "fixit": "f"}
        ]}
        """.write(to: pack, atomically: true, encoding: .utf8)
        let output = try Command.linkcheck(["rules", "validate", pack.path])
        #expect(output.status == 2)
        #expect(
            output.standardError == """
                \(pack.path): error: $.rules[0].typo: unknown key 'typo'
                \(pack.path): error: $.rules[0].match[0].glob: bad glob 'x[': unclosed '[' at offset 1
                \(pack.path): error: $.rules[1]: missing required field 'source'
                \(pack.path): error: $.rules[1].id: duplicate rule id 'BAD001' (first defined in \(pack.path) $.rules[0])
                linkcheck: 4 problems found

                """)
    }

    /// A pack with other problems still has its ids checked against the
    /// built-in checks and the shipped packs, in the same run.
    @Test func rulesValidateReportsReusedIDsInAPackWithOtherProblems() throws {
        let directory = try Fixtures.temporaryDirectory()
        let pack = directory.path("bad.json")
        try """
        {"format": 1, "name": "bad", "version": "1", "rules": [
          {"id": "ARCH001", "api": "a", "category": "unavailable-api", "severity": "error",
           "match": [{"symbol": "x"}], "fixit": "f", "source": "s"},
          {"id": "AEX001", "api": "a", "category": "unavailable-api", "severity": "error",
           "match": [{"symbol": "y"}], "message": "m", "fixit": "f", "source": "s"}
        ]}
        """.write(to: pack, atomically: true, encoding: .utf8)
        let output = try Command.linkcheck(["rules", "validate", pack.path])
        #expect(output.status == 2)
        let lines = output.standardError.split(separator: "\n").map(String.init)
        #expect(lines.count == 4, "\(output.standardError)")
        #expect(
            lines.prefix(2) == [
                "\(pack.path): error: $.rules[0]: missing required field 'message'",
                "\(pack.path): error: $.rules[0].id: duplicate rule id 'ARCH001' (first defined in linkcheck's built-in checks)",
            ])
        #expect(
            lines.dropFirst(2).first?.hasPrefix("\(pack.path): error: $.rules[1].id: duplicate rule id 'AEX001' (first defined in ") == true
        )
        #expect(lines.dropFirst(2).first?.hasSuffix("app-extension-unavailable.json)") == true)
        #expect(lines.last == "linkcheck: 3 problems found")
    }

    @Test func rulesValidateAcceptsTheShippedPacks() throws {
        let packs = ["app-extension-unavailable", "conditional-loading", "selector-strings"]
            .map { Fixtures.repositoryRoot.appendingPathComponent("Rules/\($0).json").path }
        let output = try Command.linkcheck(["rules", "validate"] + packs)
        #expect(output.status == 0)
        #expect(output.standardOutput.split(separator: "\n").count == 3)
    }

    @Test func rulesListIncludesBuiltInChecks() throws {
        let output = try Command.linkcheck(["rules", "list"])
        #expect(output.status == 0)
        #expect(output.standardOutput.contains("  AEX001  error  unavailable-api  UIApplication.shared"))
        #expect(output.standardOutput.contains("      swift: UIKit.UIApplication.shared"))
        #expect(output.standardOutput.contains("  ARCH001  error  architecture  32-bit image"))
        let none = try Command.linkcheck(["rules", "list", "--no-default-rules"])
        #expect(!none.standardOutput.contains("AEX001"))
    }
}

/// The JSON report against its schema, `Documentation/check-report.schema.json`.
@Suite struct ReportSchemaTests {
    @Test(.enabled(if: JSONSchema.isAvailable, "needs Python's jsonschema (pip install jsonschema)"))
    func theSamplesReportMatchesTheSchema() throws {
        let images = try Fixtures.sampleImages().path
        let output = try Command.linkcheck([
            "check", "--format", "json", "--extension", "PhotoEditorExtension=share", images, "/nonexistent",
        ])
        #expect(output.status == 2)
        let directory = try Fixtures.temporaryDirectory()
        let report = directory.path("report.json")
        try output.standardOutput.write(to: report, atomically: true, encoding: .utf8)
        let validation = try JSONSchema.validate(report.path, against: JSONSchema.documented("check-report.schema.json"))
        #expect(validation.status == 0, "\(validation.standardError)")
    }
}

/// The main job's output, as golden files (run from the images folder, and
/// source files relative to the repository, so paths are the same on every
/// machine).
@Suite struct SampleOutputSnapshotTests {
    @Test(arguments: [
        (
            "photoeditor.txt",
            [
                "check", "--extension", "PhotoEditorExtension=share", "--app", "PhotoEditorApp", "--source-root",
                Fixtures.repositoryRoot.path, "PhotoEditor",
            ]
        ),
        ("arch.txt", ["check", "--require-arch", "arm64", "--require-arch", "x86_64", "arch"]),
        ("photosapp.txt", ["check", "PhotosApp/Photos.app"]),
    ])
    func mainJobOutput(snapshot: String, arguments: [String]) throws {
        let images = try Fixtures.sampleImages()
        let output = try Command.capture(Fixtures.linkcheckExecutable, arguments, currentDirectory: images)
        #expect(output.status == 1)
        // Code addresses move with the length of the build folder's path,
        // which debug builds embed: the golden files hold them as 0x….
        let actual = output.standardOutput.replacingOccurrences(of: #"0x[0-9a-f]+"#, with: "0x…", options: .regularExpression)
        #expect(try Snapshot.expected(snapshot, actual: actual) == actual)
    }
}

/// `linkcheck.json` and baselines through the command line.
@Suite struct ConfigurationCommandTests {
    @Test func theConfigurationSetsRolesAndSuppressesWithAReason() throws {
        let images = try Fixtures.sampleImages().appendingPathComponent("PhotoEditor")
        let directory = try Fixtures.temporaryDirectory()
        try """
        {"extensions": {"PhotoEditorExtension": "share"}, "app": "PhotoEditorApp",
         "suppressions": [{"rule": "SEL001", "image": "ShareKit", "reason": "the selector names our own class"},
                          {"rule": "AEX999", "image": "nowhere", "reason": "left over"}]}
        """.write(to: directory.path("linkcheck.json"), atomically: true, encoding: .utf8)
        let output = try Command.capture(Fixtures.linkcheckExecutable, ["check", images.path], currentDirectory: directory.url)
        #expect(output.status == 1)
        #expect(
            output.standardOutput.contains(
                "libPhotoEditorExtension.so: error: [AEX001] links libShareKit.so, which calls UIKit.UIApplication.shared\n"))
        #expect(!output.standardOutput.contains("[SEL001]"))
        #expect(
            output.standardOutput.contains(
                "linkcheck: warning: linkcheck.json: $.suppressions[1]: unused suppression: no [AEX999] finding on 'nowhere'"))

        try #"{"extensions": {"PhotoEditorExtension": "spaceship"}}"#.write(
            to: directory.path("bad.json"), atomically: true, encoding: .utf8)
        let bad = try Command.capture(
            Fixtures.linkcheckExecutable, ["check", "--config", "bad.json", images.path], currentDirectory: directory.url)
        #expect(bad.status == 2)
        #expect(bad.standardError.hasPrefix("bad.json: error: $.extensions.PhotoEditorExtension: unknown extension type 'spaceship'"))
    }

    @Test func aRulePackTheConfigurationNamesThatIsMissingNamesItsJSONPath() throws {
        let directory = try Fixtures.temporaryDirectory()
        try #"{"rules": ["rules/own.json"]}"#.write(to: directory.path("linkcheck.json"), atomically: true, encoding: .utf8)
        let output = try Command.capture(Fixtures.linkcheckExecutable, ["check", "/etc/hostname"], currentDirectory: directory.url)
        #expect(output.status == 2)
        #expect(
            output.standardError.hasPrefix(
                "linkcheck.json: error: $.rules[0]: cannot read the rule pack \(directory.path("rules/own.json").path): "),
            "\(output.standardError)")
        #expect(output.standardError.split(separator: "\n").count == 1)
    }

    @Test func aConfigurationWithATrailingCommaNamesTheLineAndColumn() throws {
        let directory = try Fixtures.temporaryDirectory()
        try "{\"app\": \"PhotoEditorApp\",\n}\n".write(to: directory.path("linkcheck.json"), atomically: true, encoding: .utf8)
        let output = try Command.capture(Fixtures.linkcheckExecutable, ["check", "/etc/hostname"], currentDirectory: directory.url)
        #expect(output.status == 2)
        #expect(
            output.standardError
                == "linkcheck.json:1:25: error: invalid JSON: trailing comma: JSON allows no comma after the last member of an object\n")
    }

    @Test func aMistypedRoleNameWarnsWithTheClosestImageNames() throws {
        let images = try Fixtures.sampleImages().appendingPathComponent("PhotoEditor")
        let directory = try Fixtures.temporaryDirectory()
        try #"{"frameworks": ["ShareKt"]}"#.write(to: directory.path("linkcheck.json"), atomically: true, encoding: .utf8)
        let output = try Command.capture(
            Fixtures.linkcheckExecutable,
            [
                "check", "--extension", "PhotoEditorExtensoin=share", "--app", "Zebra", images.path,
            ], currentDirectory: directory.url)
        #expect(output.status == 1, "the run goes on")
        let notices = output.standardOutput.split(separator: "\n").filter { $0.contains("role name") }
        #expect(
            notices == [
                "linkcheck: warning: role name 'PhotoEditorExtensoin' matches no scanned image; did you mean 'PhotoEditorExtension'?",
                "linkcheck: warning: role name 'Zebra' matches no scanned image",
                "linkcheck: warning: role name 'ShareKt' matches no scanned image; did you mean 'ShareKit'?",
            ])
    }

    /// A role name that overrides the bundle of a fat framework warns once
    /// for the file, not once per slice: SVProgressHUD (Carthage, four
    /// slices) named an extension.
    @Test func aRoleNameOverridingAFatFrameworksBundleWarnsOnce() throws {
        let framework = Fixtures.corpusDirectory.appendingPathComponent(
            "macho/jpsim__CardsAgainst/Carthage/Build/iOS/SVProgressHUD.framework")
        let output = try Command.capture(
            Fixtures.linkcheckExecutable, ["check", "--extension", "SVProgressHUD", framework.path], currentDirectory: framework)
        let notices = output.standardOutput.split(separator: "\n").filter { $0.contains("role name") }
        #expect(
            notices == [
                "linkcheck: warning: role name 'SVProgressHUD' makes \(framework.path)/SVProgressHUD an app extension, "
                    + "though its bundle makes it an embedded framework; the name wins"
            ])
        #expect(output.status == 1, "SVProgressHUD calls +[UIApplication sharedApplication]")
    }

    /// `--app PhotosShare` names the share extension's executable: the name
    /// wins over the bundle, and a warning says what the bundle made it;
    /// `--extension PhotosShare` without a type keeps the bundle's type and
    /// warns of nothing.
    @Test func aRoleNameOverridingTheBundleWarns() throws {
        let images = try Fixtures.sampleImages()
        let asApp = try Command.capture(
            Fixtures.linkcheckExecutable, ["check", "--app", "PhotosShare", "PhotosApp/Photos.app"], currentDirectory: images)
        let notices = asApp.standardOutput.split(separator: "\n").filter { $0.contains("role name") }
        #expect(
            notices == [
                "linkcheck: warning: role name 'PhotosShare' makes PhotosApp/Photos.app/PlugIns/PhotosShare.appex/PhotosShare the containing app, "
                    + "though its bundle makes it an app extension (share); the name wins"
            ])
        #expect(!asApp.standardOutput.contains("PhotosShare: error:"), "an app may use anything")
        #expect(asApp.standardOutput.hasPrefix("PhotosApp/Photos.app: 2 apps, 0 extensions, 6 embedded frameworks\n"), "the roles checked")
        let sarif = try Command.capture(
            Fixtures.linkcheckExecutable, ["check", "--format", "sarif", "--app", "PhotosShare", "PhotosApp/Photos.app"],
            currentDirectory: images)
        let log = try #require(try JSONSerialization.jsonObject(with: Data(sarif.standardOutput.utf8)) as? [String: Any])
        let invocation = ((log["runs"] as? [[String: Any]])?.first?["invocations"] as? [[String: Any]])?.first
        let notifications = (invocation?["toolExecutionNotifications"] as? [[String: Any]])?.map {
            "\($0["level"] ?? "") \((($0["message"] as? [String: Any])?["text"] as? String) ?? "")"
        }
        #expect(notifications == ["warning " + notices[0].dropFirst("linkcheck: warning: ".count)])
        let asExtension = try Command.capture(
            Fixtures.linkcheckExecutable, ["check", "--format", "json", "--extension", "PhotosShare", "PhotosApp/Photos.app"],
            currentDirectory: images
        )
        #expect(!asExtension.standardOutput.contains("role name"))
        let report = try #require(try JSONSerialization.jsonObject(with: Data(asExtension.standardOutput.utf8)) as? [String: Any])
        let share = (report["images"] as? [[String: Any]])?.first { ($0["path"] as? String)?.hasSuffix("/PhotosShare") == true }
        #expect(share?["role"] as? String == "extension")
        #expect(share?["extensionType"] as? String == "share")
    }

    /// One name given two roles: a warning says which it is taken as.
    @Test func aRoleNameGivenTwoRolesWarns() throws {
        let images = try Fixtures.sampleImages()
        let output = try Command.capture(
            Fixtures.linkcheckExecutable, ["check", "--app", "Photos", "--extension", "Photos", "PhotosApp/Photos.app"],
            currentDirectory: images)
        let notices = output.standardOutput.split(separator: "\n").filter { $0.contains("role name 'Photos'") }
        #expect(
            notices.first == "linkcheck: warning: role name 'Photos' is given as an extension and as the app; it is taken as an extension")
    }

    @Test func aBaselineAcceptsTodaysFindingsAndFailsOnNewOnes() throws {
        let images = try Fixtures.sampleImages().appendingPathComponent("PhotoEditor")
        let directory = try Fixtures.temporaryDirectory()
        let baseline = directory.path("baseline.json").path
        // The baseline is taken without libPhotoEffects.so; adding it later brings new findings.
        let subset = directory.path("images")
        try FileManager.default.createDirectory(at: subset, withIntermediateDirectories: true)
        for name in ["libUIKit.so", "libShareKit.so", "libImageFilters.so", "libPhotoEditorExtension.so", "libAVFoundation.so"] {
            try FileManager.default.copyItem(at: images.appendingPathComponent(name), to: subset.appendingPathComponent(name))
        }
        let written = try Command.linkcheck(["check", "--write-baseline", baseline, subset.path])
        #expect(written.status == 1)
        let accepted = try Command.linkcheck(["check", "--baseline", baseline, subset.path])
        #expect(accepted.status == 0)
        #expect(accepted.standardOutput.contains("linkcheck: note: "))
        try FileManager.default.copyItem(
            at: images.appendingPathComponent("libPhotoEffects.so"), to: subset.appendingPathComponent("libPhotoEffects.so"))
        let grown = try Command.linkcheck(["check", "--baseline", baseline, subset.path])
        #expect(grown.status == 1)
        let errors = grown.standardOutput.split(separator: "\n").filter { $0.contains(": error: ") }
        #expect(!errors.isEmpty)
        #expect(errors.allSatisfy { $0.contains("libPhotoEffects.so") }, "only the new image's findings")
        let broken = try Command.linkcheck(["check", "--baseline", "/nonexistent/baseline.json", subset.path])
        #expect(broken.status == 2)
    }
}

/// `swift package linkcheck` on the Samples' app package, which depends on
/// this repository by path.
@Suite struct PluginTests {
    @Test func thePluginReportsTheCLIsFindingsAndFails() throws {
        let images = try Fixtures.sampleImages()  // also builds the package the plugin will rebuild
        let package = Fixtures.repositoryRoot.appendingPathComponent("Samples/PhotoEditor")
        let scratch = Fixtures.repositoryRoot.appendingPathComponent("Samples/.build/swiftpm/PhotoEditor")
        let plugin = try Command.capture(
            "swift",
            [
                "package", "--package-path", package.path, "--scratch-path", scratch.path, "linkcheck", "--format", "json",
            ])
        #expect(plugin.status != 0, "error findings fail the plugin")
        #expect(plugin.standardError.contains("error: linkcheck found "))
        #expect(
            plugin.standardError.contains(
                "error: libPhotoEditorExtension.so: [OWN001] links libEditorKit.so, which calls Analytics.Analytics.logAppLaunch\n"),
            "the project's own annotation became a rule")
        #expect(
            plugin.standardError.contains(
                "error: Sources/PhotoEditorExtension/ShareViewController.swift:31:22: [OWN002] calls PhotoLibrary.PhotoLibrary.scheduleBackgroundSync (a copy linked into this image) from PhotoEditorExtension.ShareViewController.didSelectPost(_: UIKit.UIImage, photoID: Swift.String) (in libPhotoEditorExtension.so)\n"
            ),
            "the extension's call to the annotated target SwiftPM linked into it, with its caller")
        // Standard output is the JSON document alone; the report's path is for people.
        let report = try #require(try JSONSerialization.jsonObject(with: Data(plugin.standardOutput.utf8)) as? [String: Any])
        #expect(
            plugin.standardError.contains(
                "[LinkCheckPlugin] HTML report: \(scratch.path)/plugins/LinkCheckPlugin/outputs/linkcheck-report.html\n"))

        // The CLI on the same images with the same configuration and rules.
        let rules = try Command.linkcheck([
            "rules", "extract", "--symbol-graph-dir", images.deletingLastPathComponent().appendingPathComponent("symbol-graphs").path,
        ])
        let directory = try Fixtures.temporaryDirectory()
        try rules.standardOutput.write(to: directory.path("rules.json"), atomically: true, encoding: .utf8)
        let cli = try Command.linkcheck([
            "check", "--format", "json", "--config", package.appendingPathComponent("linkcheck.json").path,
            "--rules", directory.path("rules.json").path, images.appendingPathComponent("PhotoEditor").path,
        ])
        #expect(cli.status == 1)
        let expected = try #require(try JSONSerialization.jsonObject(with: Data(cli.standardOutput.utf8)) as? [String: Any])
        func summary(_ report: [String: Any]) -> Set<String> {
            Set(
                (report["findings"] as? [[String: Any]] ?? []).map { finding in
                    let image = URL(fileURLWithPath: finding["image"] as? String ?? "").lastPathComponent
                    return
                        "\(image) \(finding["rule"] as? String ?? "") \(finding["severity"] as? String ?? "") \(finding["symbol"] as? String ?? "")"
                })
        }
        #expect(summary(report) == summary(expected))
        // Each error and warning is the CLI's text line, call path and all;
        // one the debug information places in the source starts with the
        // place, relative to the package (the CLI's --source-root), and
        // names the image last, as the CLI's line does.
        let text = try Command.linkcheck([
            "check", "--config", package.appendingPathComponent("linkcheck.json").path,
            "--rules", directory.path("rules.json").path, "--source-root", package.path, images.appendingPathComponent("PhotoEditor").path,
        ])
        var (compared, placed) = (0, 0)
        for line in text.standardOutput.split(separator: "\n").map(String.init) {
            for severity in ["error", "warning"] {
                guard let range = line.range(of: ": \(severity): [") else { continue }
                // A line that starts with its source names its image last:
                // `FILE:LINE:COLUMN: error: [ID] … (in IMAGE)`.
                let (place, words) = (String(line[..<range.lowerBound]), String(line[range.upperBound...]))
                var diagnostic = "\(severity): \(URL(fileURLWithPath: place).lastPathComponent): [\(words)\n"
                if let image = words.range(of: " (in ", options: .backwards), words.hasSuffix(")") {
                    let file = URL(fileURLWithPath: String(words[image.upperBound...].dropLast())).lastPathComponent
                    diagnostic = "\(severity): \(place): [\(words[..<image.lowerBound]) (in \(file))\n"
                    #expect(
                        FileManager.default.fileExists(atPath: package.appendingPathComponent(String(place.split(separator: ":")[0])).path))
                    placed += 1
                }
                #expect(plugin.standardError.contains(diagnostic), "\(diagnostic)")
                compared += 1
            }
        }
        #expect(compared == 9)
        #expect(placed == 4, "EditorKit's call, the extension's own and ShareKit's two")
        #expect(
            plugin.standardError.contains("error: Packages/SharedFrameworks/Sources/ShareKit/Sharer.swift:"),
            "the place first, relative to the package")
        #expect(
            text.standardOutput.contains(
                " from ShareKit.Sharer.openInApp(photoID: Swift.String) → ShareKit.openInContainingApp(Swift.String) "),
            "a call path is among them")

        // `swift package linkcheck --format sarif > out.sarif` (the build is done: this run only checks).
        let sarif = try Command.capture(
            "swift",
            [
                "package", "--package-path", package.path, "--scratch-path", scratch.path, "linkcheck", "--format", "sarif",
            ])
        #expect(sarif.status != 0)
        let log = try #require(
            try JSONSerialization.jsonObject(with: Data(sarif.standardOutput.utf8)) as? [String: Any], "\(sarif.standardOutput)")
        #expect(log["version"] as? String == "2.1.0")
        #expect(sarif.standardError.contains("[LinkCheckPlugin] HTML report: "))
    }
}

/// `swift package linkcheck` on a package that declares a binary target, as
/// one that depends on a vendor SDK does.
@Suite struct PluginBinaryTargetTests {
    /// `VendorPackage` under `.build/plugin-fixtures` (kept between runs,
    /// so that its build of linkcheck is too): a dynamic library product
    /// `Feed`, and `.binaryTarget(name: "Vendor", path:
    /// "Vendor.xcframework")`, whose `ios-arm64` library is the Uploader
    /// fixture (it sends +[UIApplication sharedApplication]) as
    /// `Vendor.framework`.
    static func vendorPackage() throws -> URL {
        let package = Fixtures.repositoryRoot.appendingPathComponent(".build/plugin-fixtures/VendorPackage")
        let manifest = """
            // swift-tools-version:6.0
            import PackageDescription

            let package = Package(
                name: "VendorPackage",
                products: [.library(name: "Feed", type: .dynamic, targets: ["Feed"])],
                dependencies: [.package(name: "linkcheck", path: "\(Fixtures.repositoryRoot.path)")],
                targets: [
                    .target(name: "Feed"),
                    .binaryTarget(name: "Vendor", path: "Vendor.xcframework"),
                ])

            """
        let source = package.appendingPathComponent("Sources/Feed/Feed.swift")
        try FileManager.default.createDirectory(at: source.deletingLastPathComponent(), withIntermediateDirectories: true)
        try manifest.write(to: package.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        try "public func feedCount() -> Int { 1 }\n".write(to: source, atomically: true, encoding: .utf8)
        let xcframework = package.appendingPathComponent("Vendor.xcframework")
        try? FileManager.default.removeItem(at: xcframework)
        let framework = xcframework.appendingPathComponent("ios-arm64/Vendor.framework")
        try MachOFixtures.writeInfoPlist(["CFBundleExecutable": "Vendor", "CFBundlePackageType": "FMWK"], in: framework, format: .xml)
        try FileManager.default.copyItem(at: try MachOFixture.uploader.path(), to: framework.appendingPathComponent("Vendor"))
        try MachOFixtures.writeInfoPlist(
            [
                "CFBundlePackageType": "XFWK", "XCFrameworkFormatVersion": "1.0",
                "AvailableLibraries": [
                    [
                        "LibraryIdentifier": "ios-arm64", "LibraryPath": "Vendor.framework", "SupportedPlatform": "ios",
                        "SupportedArchitectures": ["arm64"],
                    ]
                ],
            ], in: xcframework, format: .xml)
        return package
    }

    @Test func thePluginChecksTheBinaryTargetsWithTheProducts() throws {
        let package = try Self.vendorPackage()
        let plugin = try Command.capture(
            "swift",
            [
                "package", "--package-path", package.path, "--scratch-path", package.appendingPathComponent(".build").path,
                "linkcheck", "--format", "json",
            ])
        #expect(plugin.status != 0, "the vendor SDK's error fails the plugin")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(plugin.standardOutput.utf8)) as? [String: Any], "\(plugin.standardError)")
        let vendor = package.appendingPathComponent("Vendor.xcframework/ios-arm64/Vendor.framework/Vendor").path
        let images = (report["images"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String }
        #expect(images.contains(vendor), "\(images)")
        #expect(images.contains { $0.hasSuffix("/libFeed.so") }, "the product, beside the binary target")
        let findings = (report["findings"] as? [[String: Any]] ?? []).filter { $0["image"] as? String == vendor }
        #expect(
            findings.contains {
                $0["rule"] as? String == "AEX001" && $0["severity"] as? String == "error"
                    && $0["symbol"] as? String == "+[UIApplication sharedApplication]"
            },
            "\(findings)")
        #expect(plugin.standardError.contains("error: Vendor: "), "a SwiftPM error names the vendor SDK: \(plugin.standardError)")

        let help = try Command.capture(
            "swift",
            [
                "package", "--package-path", package.path, "--scratch-path", package.appendingPathComponent(".build").path, "linkcheck",
                "--help",
            ])
        #expect(help.status == 0, "\(help.standardError)")
        #expect(help.standardOutput.contains("USAGE: swift package linkcheck [OPTIONS] [-- CHECK-OPTIONS]"), "\(help.standardOutput)")
        for option in ["--product NAME", "--configuration CONFIG", "--html PATH", "--format FORMAT", "-- CHECK-OPTIONS"] {
            #expect(help.standardOutput.contains(option), "\(option)")
        }
    }
}

/// `linkcheck rules extract` on the Samples' symbol graphs.
@Suite struct RulesExtractTests {
    @Test func theSamplesAnnotationsBecomeAPack() throws {
        let graphs = try Fixtures.sampleImages().deletingLastPathComponent().appendingPathComponent("symbol-graphs").path
        let output = try Command.linkcheck(["rules", "extract", "--symbol-graph-dir", graphs])
        #expect(output.status == 0)
        #expect(output.standardError.contains("annotated declarations are already covered by the shipped rule packs"))
        let pack = try #require(try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any])
        let rules = try #require(pack["rules"] as? [[String: Any]])
        #expect(rules.map { $0["id"] as? String } == ["OWN001", "OWN002"])
        #expect(
            rules.map { $0["match"] as? [[String: String]] } == [
                [["swift": "Analytics.Analytics.logAppLaunch"]], [["swift": "PhotoLibrary.PhotoLibrary.scheduleBackgroundSync"]],
            ])
        let all = try Command.linkcheck(["rules", "extract", "--include-covered", "--symbol-graph-dir", graphs])
        let allRules = try #require(
            (try JSONSerialization.jsonObject(with: Data(all.standardOutput.utf8)) as? [String: Any])?["rules"] as? [[String: Any]])
        #expect(allRules.count > 5, "the stand-in UIKit's annotations too")
        #expect(try Command.linkcheck(["rules", "extract"]).status == 2)
        #expect(try Command.linkcheck(["rules", "extract", "--symbol-graph-dir", "/nonexistent"]).status == 2)
        let empty = try Fixtures.temporaryDirectory()
        let none = try Command.linkcheck(["rules", "extract", "--symbol-graph-dir", empty.url.path])
        #expect(none.status == 2)
        #expect(none.standardError.hasSuffix("no *.symbols.json symbol graphs in it\n"))
    }

    @Test func symbolGraphsWithoutAnnotationsGiveAnEmptyPackAndSaySo() throws {
        let directory = try Fixtures.temporaryDirectory()
        try #"{"module": {"name": "Kit"}, "symbols": [{"identifier": {"precise": "s:3Kit1aSivp"}, "pathComponents": ["a"]}]}"#
            .write(to: directory.path("Kit.symbols.json"), atomically: true, encoding: .utf8)
        let output = try Command.linkcheck(["rules", "extract", "--symbol-graph-dir", directory.url.path])
        #expect(output.status == 0)
        let pack = try #require(try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any])
        #expect((pack["rules"] as? [Any])?.isEmpty == true)
        #expect(
            output.standardError
                == "linkcheck: note: no declaration in the 1 symbol graph is marked @available(…ApplicationExtension, unavailable), so the pack has no rules\n"
        )
    }

    @Test func aSymbolGraphOfTheWrongTypesIsAnErrorNotAnEmptyPack() throws {
        let directory = try Fixtures.temporaryDirectory()
        try #"{"module": {"name": "Kit"}, "symbols": {"s:3Kit1aSivp": {}}}"#.write(
            to: directory.path("Kit.symbols.json"), atomically: true, encoding: .utf8)
        let output = try Command.linkcheck(["rules", "extract", "--symbol-graph-dir", directory.url.path])
        #expect(output.status == 2)
        #expect(output.standardError == "\(directory.path("Kit.symbols.json").path): error: $.symbols: expected an array\n")
        #expect(output.standardOutput.isEmpty)
    }
}

/// The Samples' `linkcheck.json` follows the documented schema.
@Suite struct ConfigurationSchemaTests {
    @Test(.enabled(if: JSONSchema.isAvailable, "needs Python's jsonschema"))
    func theSamplesConfigurationMatchesTheSchema() throws {
        let config = Fixtures.repositoryRoot.appendingPathComponent("Samples/PhotoEditor/linkcheck.json").path
        let validation = try JSONSchema.validate(config, against: JSONSchema.documented("linkcheck-config.schema.json"))
        #expect(validation.status == 0, "\(validation.standardError)")
    }
}

/// `linkcheck graph`: DOT that Graphviz reads, with dashed dlopen edges.
@Suite struct GraphCommandTests {
    static var hasGraphviz: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/dot") }

    @Test func theSamplesGraph() throws {
        let images = try Fixtures.sampleImages().appendingPathComponent("PhotoEditor")
        let config = Fixtures.repositoryRoot.appendingPathComponent("Samples/PhotoEditor/linkcheck.json").path
        let output = try Command.linkcheck(["graph", "--config", config, images.path])
        #expect(output.status == 0)
        let dot = output.standardOutput
        #expect(dot.hasPrefix("digraph linkcheck {\n"))
        #expect(
            dot.contains("\"\(images.path)/libLegacyLoader.so\" -> \"\(images.path)/libPhotoEffects.so\" [style=dashed, label=\"dlopen\"];")
        )
        // The unsafe path is red: the extension, ShareKit, and the stand-in
        // UIKit that provides the API; a safe link is plain.
        #expect(
            dot.contains(
                "\"\(images.path)/libPhotoEditorExtension.so\" -> \"\(images.path)/libShareKit.so\" [color=\"#c9252d\", penwidth=2];"))
        #expect(dot.contains("\"\(images.path)/libShareKit.so\" -> \"\(images.path)/libUIKit.so\" [color=\"#c9252d\", penwidth=2];"))
        #expect(dot.contains("\"\(images.path)/libPhotoEditorExtension.so\" -> \"\(images.path)/libImageFilters.so\";"))
        #expect(dot.contains("label=\"libShareKit.so\\nframework · unsafe\", fillcolor=\"#f7c6c6\""))
        let nodes = dot.split(separator: "\n").filter { $0.contains("[label=") }
        #expect(nodes.count == 10)
        if Self.hasGraphviz {
            let directory = try Fixtures.temporaryDirectory()
            try dot.write(to: directory.path("graph.dot"), atomically: true, encoding: .utf8)
            let rendered = try Command.capture("/usr/bin/dot", ["-Tsvg", directory.path("graph.dot").path])
            #expect(rendered.status == 0, "\(rendered.standardError)")
            #expect(rendered.standardOutput.contains("<svg"))
        }
        let json = try Command.linkcheck(["graph", "--format", "json", "--config", config, images.path])
        let graph = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        let edges = try #require(graph["edges"] as? [[String: String]])
        #expect(edges.filter { $0["kind"] == "dlopen" }.count == 1)
        #expect(try Command.linkcheck(["graph", "--format", "svg", images.path]).status == 2)
        // An input that fails is named on stderr and makes the exit status
        // 2; the graph has the rest.
        let withMissing = try Command.linkcheck(["graph", "--config", config, images.path, "/nonexistent/libgone.so"])
        #expect(withMissing.status == 2)
        #expect(withMissing.standardError == "/nonexistent/libgone.so: error: cannot inspect: cannot read: No such file or directory\n")
        #expect(withMissing.standardOutput == output.standardOutput)
    }

    /// An app's images are one cluster, labelled with the app; each image
    /// is labelled with its bundle when it is the bundle's executable.
    @Test func anAppIsOneCluster() throws {
        let images = try Fixtures.sampleImages()
        let output = try Command.capture(Fixtures.linkcheckExecutable, ["graph", "PhotosApp/Photos.app"], currentDirectory: images)
        #expect(output.status == 0, "\(output.standardError)")
        let lines = output.standardOutput.split(separator: "\n").map(String.init)
        let start = try #require(lines.firstIndex(of: "  subgraph cluster_0 {"))
        #expect(
            lines[start + 1] == "    label=\"PhotosApp/Photos.app\"; style=\"rounded,dashed\"; color=\"#888888\"; fontname=\"Helvetica\";")
        let end = try #require(lines[start...].firstIndex(of: "  }"))
        let members = lines[(start + 2)..<end]
        #expect(members.count == 8, "every file of the app is in the cluster, a fat one (ImageKit) once")
        #expect(!lines.contains("  subgraph cluster_1 {"))
        #expect(members.contains { $0.contains("label=\"PhotosShare.appex\\nextension (share) · unsafe\"") }, "\(members)")
        #expect(members.contains { $0.contains("label=\"Uploader.framework\\nframework · unsafe\"") }, "\(members)")
        if Self.hasGraphviz {
            let directory = try Fixtures.temporaryDirectory()
            try output.standardOutput.write(to: directory.path("app.dot"), atomically: true, encoding: .utf8)
            let rendered = try Command.capture("/usr/bin/dot", ["-Tsvg", directory.path("app.dot").path])
            #expect(rendered.status == 0, "\(rendered.standardError)")
            #expect(rendered.standardOutput.contains("<title>cluster_0</title>"))
        }
    }
}

/// linkcheck writes only the outputs it is asked for: no temporary files, no
/// files in the working directory.
@Suite struct SideEffectTests {
    @Test func onlyTheRequestedReportIsWritten() throws {
        let images = try Fixtures.sampleImages().appendingPathComponent("PhotoEditor")
        let work = try Fixtures.temporaryDirectory()
        let temporary = try Fixtures.temporaryDirectory()
        let output = try Command.capture(
            Fixtures.linkcheckExecutable,
            [
                "check", "--html", "report.html", "--write-baseline", "baseline.json", "--extension", "PhotoEditorExtension", images.path,
            ], environment: ["TMPDIR": temporary.url.path], currentDirectory: work.url)
        #expect(output.status == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: work.url.path).sorted() == ["baseline.json", "report.html"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.url.path).isEmpty)
    }

    /// An output path that is a symbolic link or a FIFO (or `/dev/stdout`)
    /// is written through, never replaced by a regular file.
    @Test func outputsGoThroughLinksAndFIFOs() throws {
        let library = "/opt/swift/usr/lib/swift/linux/libBlocksRuntime.so"
        let work = try Fixtures.temporaryDirectory()
        try Data("old".utf8).write(to: work.path("real.html"))
        try FileManager.default.createSymbolicLink(atPath: work.path("link.html").path, withDestinationPath: "real.html")
        let fifo = work.path("baseline.json").path
        #expect(mkfifo(fifo, 0o644) == 0)
        let received = FIFOReader(fifo)
        let output = try Command.linkcheck(["check", "--html", work.path("link.html").path, "--write-baseline", fifo, library])
        #expect(output.status == 0, "\(output)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: work.path("link.html").path) == "real.html")
        #expect(try String(contentsOf: work.path("real.html"), encoding: .utf8).hasPrefix("<!DOCTYPE html>"))
        #expect(received.wait()?.contains(#""format" : 2"#) == true)
        var info = stat()
        #expect(lstat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO, "still a FIFO")
    }
}

/// Reads a FIFO to its end on a thread of its own.
private final class FIFOReader: @unchecked Sendable {
    private let lock = NSLock()
    private var text: String?

    init(_ path: String) {
        Thread { [self] in
            // open(2) waits for the writer; read(2) returns 0 once it closes.
            var data = Data()
            let fd = open(path, O_RDONLY)
            var buffer = [UInt8](repeating: 0, count: 65536)
            while fd >= 0 {
                let count = read(fd, &buffer, buffer.count)
                guard count > 0 else { break }
                data.append(contentsOf: buffer[..<count])
            }
            if fd >= 0 { close(fd) }
            lock.withLock { text = String(decoding: data, as: UTF8.self) }
        }.start()
    }

    /// What was read, once the writer closed the FIFO; `nil` after 30
    /// seconds without (no writer came).
    func wait() -> String? {
        for _ in 0..<30_000 {
            if let text = lock.withLock({ text }) { return text }
            usleep(1000)
        }
        return nil
    }
}

/// `rules validate` and `rules list` on the rules' examples.
@Suite struct RuleExampleCommandTests {
    static let ruleWithoutExamples = """
        {"format": 1, "name": "p", "version": "1", "rules": [
          {"id": "TST001", "api": "a", "category": "unavailable-api", "severity": "error",
           "match": [{"symbol": "x"}], "message": "m", "fixit": "f", "source": "s"}]}
        """

    @Test func aProjectsPackWithoutExamplesIsAWarning() throws {
        let directory = try Fixtures.temporaryDirectory()
        let pack = directory.path("pack.json")
        try Self.ruleWithoutExamples.write(to: pack, atomically: true, encoding: .utf8)
        let output = try Command.linkcheck(["rules", "validate", pack.path])
        #expect(output.status == 0)
        #expect(
            output.standardError
                == "\(pack.path): warning: $.rules[0].examples: rule TST001 has no triggering and no nonTriggering example: examples show what the rule finds and what it leaves alone, and the shipped packs' are tests\n"
        )
        #expect(output.standardOutput == "\(pack.path): ok: p 1, 1 rule\n")
    }

    /// The shipped packs are the files the default search finds: here a copy
    /// of `Rules/` named by `LINKCHECK_RULES_DIR`, with one rule's near
    /// misses taken out.
    @Test func aShippedPackWithoutExamplesIsAnError() throws {
        let directory = try Fixtures.temporaryDirectory()
        let rules = Fixtures.repositoryRoot.appendingPathComponent("Rules")
        for name in try FileManager.default.contentsOfDirectory(atPath: rules.path) where name.hasSuffix(".json") {
            try FileManager.default.copyItem(at: rules.appendingPathComponent(name), to: directory.path(name))
        }
        let path = directory.path("selector-strings.json")
        var pack = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: path)) as? [String: Any])
        var entries = try #require(pack["rules"] as? [[String: Any]])
        var examples = try #require(entries[1]["examples"] as? [String: Any])
        examples["nonTriggering"] = []
        entries[1]["examples"] = examples
        pack["rules"] = entries
        try JSONSerialization.data(withJSONObject: pack).write(to: path)
        let environment = ["LINKCHECK_RULES_DIR": directory.url.path]
        let output = try Command.linkcheck(["rules", "validate", path.path], environment: environment)
        #expect(output.status == 2)
        #expect(
            output.standardError == """
                \(path.path): error: $.rules[1].examples: rule SEL002 has no nonTriggering example: examples show what the rule finds and what it leaves alone, and the shipped packs' are tests
                linkcheck: 1 problem found

                """)
        #expect(output.standardOutput.isEmpty)
        // The same file as a project's own pack (not where the default
        // search looks) is only warned about.
        #expect(try Command.linkcheck(["rules", "validate", "--no-default-rules", path.path]).status == 0)
    }

    @Test func rulesListPrintsTheSDKRangeAndWithExamplesTheSources() throws {
        let plain = try Command.linkcheck(["rules", "list"])
        #expect(plain.status == 0)
        #expect(
            plain.standardOutput.contains(
                """
                  AEX002  error  unavailable-api  UIApplication.openURL(_:)
                      swift: UIKit.UIApplication.openURL
                      objc: -[UIApplication openURL:]
                      marked in SDKs: iOS 9.3–16.5 (not marked from 17.0)
                  AEX003
                """))
        #expect(!plain.standardOutput.contains("triggers ("))
        let listed = try Command.linkcheck(["rules", "list", "--examples"])
        #expect(listed.status == 0)
        #expect(
            listed.standardOutput.contains(
                """
                      triggers (objc, macho, iOS 15.0, SDK 16.4):
                          #import <UIKit/UIKit.h>

                          BOOL open_help(void) {
                              return [[UIApplication sharedApplication] openURL:[NSURL URLWithString:@"https://example.com/help"]];
                          }

                      triggers (objc, macho, iOS 15.0, SDK 26.5, a warning):
                """))
        #expect(listed.standardOutput.contains("      does not trigger (swift, elf, extension type imessage):\n"))
    }
}
