import Foundation
import LinkCheckTestSupport
import Testing

/// Outputs never replace inputs: `check --html lib.so lib.so` replaced the
/// binary with HTML, `--write-baseline linkcheck.json` the configuration it
/// had just read. Such a run stops with exit status 2 before any work, and
/// the file is left as it was.
@Suite struct OutputConflictTests {
    /// A folder holding a copy of a small ELF library, `lib.so`.
    static func folderWithALibrary() throws -> TemporaryDirectory {
        let directory = try Fixtures.temporaryDirectory()
        try FileManager.default.copyItem(atPath: FailedWriteTests.library, toPath: directory.path("lib.so").path)
        return directory
    }

    static func run(_ arguments: [String], in directory: TemporaryDirectory) throws -> CommandOutput {
        try Command.capture(Fixtures.linkcheckExecutable, arguments, currentDirectory: directory.url)
    }

    @Test func anHTMLOutputThatIsAnInputIsRefused() throws {
        let directory = try Self.folderWithALibrary()
        let before = try Data(contentsOf: directory.path("lib.so"))
        try FileManager.default.createSymbolicLink(atPath: directory.path("link.so").path, withDestinationPath: "lib.so")
        #expect(link(directory.path("lib.so").path, directory.path("hard.so").path) == 0)
        for (output, message) in [
            ("lib.so", "--html lib.so would replace the input lib.so, which this run reads"),
            ("./lib.so", "--html ./lib.so would replace the input lib.so, which this run reads"),
            ("link.so", "--html link.so would replace the input lib.so, which this run reads"),
            ("hard.so", "--html hard.so would replace the input lib.so, which this run reads"),
        ] {
            let result = try Self.run(["check", "--html", output, "lib.so"], in: directory)
            #expect(result.status == 2)
            #expect(result.standardError == "linkcheck: error: \(message)\n")
            #expect(result.standardOutput.isEmpty, "refused before any work")
        }
        #expect(try Data(contentsOf: directory.path("lib.so")) == before)
    }

    @Test func aBaselineOutputThatIsTheConfigurationIsRefused() throws {
        let directory = try Self.folderWithALibrary()
        let configuration = #"{"frameworks": ["lib"]}"#
        try configuration.write(to: directory.path("linkcheck.json"), atomically: true, encoding: .utf8)
        let result = try Self.run(["check", "--write-baseline", "linkcheck.json", "lib.so"], in: directory)
        #expect(result.status == 2)
        #expect(
            result.standardError
                == "linkcheck: error: --write-baseline linkcheck.json would replace the configuration linkcheck.json, which this run reads\n"
        )
        #expect(try String(contentsOf: directory.path("linkcheck.json"), encoding: .utf8) == configuration)
    }

    @Test func writingTheBaselineBeingReadIsRefused() throws {
        let directory = try Self.folderWithALibrary()
        let baseline = #"{"format": 2, "findings": []}"#
        try baseline.write(to: directory.path("baseline.json"), atomically: true, encoding: .utf8)
        let result = try Self.run(["check", "--baseline", "baseline.json", "--write-baseline", "baseline.json", "lib.so"], in: directory)
        #expect(result.status == 2)
        #expect(
            result.standardError
                == "linkcheck: error: --write-baseline baseline.json would replace the baseline baseline.json, which this run reads\n")
        #expect(try String(contentsOf: directory.path("baseline.json"), encoding: .utf8) == baseline)
    }

    @Test func anOutputThatIsARulePackIsRefused() throws {
        let directory = try Self.folderWithALibrary()
        let pack = #"{"format": 1, "name": "p", "version": "1", "rules": []}"#
        try pack.write(to: directory.path("pack.json"), atomically: true, encoding: .utf8)
        let result = try Self.run(["check", "--rules", "pack.json", "--html", "pack.json", "lib.so"], in: directory)
        #expect(result.status == 2)
        #expect(result.standardError == "linkcheck: error: --html pack.json would replace the rule pack pack.json, which this run reads\n")
        #expect(try String(contentsOf: directory.path("pack.json"), encoding: .utf8) == pack)
    }

    @Test func twoOutputsNamingOneFileAreRefused() throws {
        let directory = try Self.folderWithALibrary()
        let result = try Self.run(["check", "--html", "out", "--write-baseline", "./out", "lib.so"], in: directory)
        #expect(result.status == 2)
        #expect(result.standardError == "linkcheck: error: --html out and --write-baseline ./out name the same file\n")
        #expect(!FileManager.default.fileExists(atPath: directory.path("out").path))
    }

    /// An ELF image under an input folder is an input; a report written
    /// into the folder is not, so writing it there again is fine.
    @Test func anOutputOverAnImageUnderAnInputFolderIsRefused() throws {
        let directory = try Self.folderWithALibrary()
        let before = try Data(contentsOf: directory.path("lib.so"))
        let refused = try Self.run(["check", "--html", "lib.so", "."], in: directory)
        #expect(refused.status == 2)
        #expect(refused.standardError == "linkcheck: error: --html lib.so would replace the image ./lib.so, which this run checks\n")
        #expect(try Data(contentsOf: directory.path("lib.so")) == before)

        let first = try Self.run(["check", "--html", "report.html", "."], in: directory)
        #expect(first.status == 0, "\(first)")
        let again = try Self.run(["check", "--html", "report.html", "."], in: directory)
        #expect(again.status == 0, "\(again)")
        #expect(again.standardOutput == "linkcheck: 1 image, 0 errors, 0 warnings, 0 notes; 1 file skipped, 0 files failed\n")
    }

    /// A library found through DT_NEEDED is known only after resolution:
    /// it is refused then, before anything is written, whether it is
    /// reported or not.
    @Test(arguments: ["--html", "--write-baseline"])
    func anOutputThatIsALibraryFoundThroughDTNeededIsRefused(option: String) throws {
        let directory = try Fixtures.temporaryDirectory()
        for folder in ["libs", "app"] {
            try FileManager.default.createDirectory(at: directory.path(folder), withIntermediateDirectories: true)
        }
        try Fixtures.compile("linkchain.c", to: directory.path("libs/libbar.so"), flags: ["-shared", "-DCLEAN", "-Wl,-soname,libbar.so"])
        try Fixtures.compile(
            "linkchain.c", to: directory.path("app/libapp.so"),
            flags: [
                "-shared", "-L\(directory.path("libs").path)", "-lbar", "-Wl,-rpath,$ORIGIN/../libs",
            ])
        let before = try Data(contentsOf: directory.path("libs/libbar.so"))
        let result = try Self.run(["check", option, "libs/libbar.so", "app"], in: directory)
        #expect(result.status == 2)
        #expect(
            result.standardError
                == "linkcheck: error: \(option) libs/libbar.so would replace the library \(directory.path("libs/libbar.so").path), which this run reads\n"
        )
        #expect(result.standardOutput.isEmpty, "nothing written")
        #expect(try Data(contentsOf: directory.path("libs/libbar.so")) == before)
        let elsewhere = try Self.run(["check", option, "out", "app"], in: directory)
        #expect(elsewhere.status == 0, "\(elsewhere)")
    }

    @Test func aRuleExtractOutputThatIsASymbolGraphIsRefused() throws {
        let directory = try Fixtures.temporaryDirectory()
        try FileManager.default.createDirectory(at: directory.path("graphs"), withIntermediateDirectories: true)
        let graph = #"{"symbols": []}"#
        try graph.write(to: directory.path("graphs/M.symbols.json"), atomically: true, encoding: .utf8)
        let result = try Self.run(["rules", "extract", "--symbol-graph-dir", "graphs", "--output", "graphs/M.symbols.json"], in: directory)
        #expect(result.status == 2)
        #expect(
            result.standardError
                == "linkcheck: error: --output graphs/M.symbols.json would replace the symbol graph graphs/M.symbols.json, which this run reads\n"
        )
        #expect(try String(contentsOf: directory.path("graphs/M.symbols.json"), encoding: .utf8) == graph)
    }
}
