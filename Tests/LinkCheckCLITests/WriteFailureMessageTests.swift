import Foundation
import LinkCheckTestSupport
import Testing

/// A failed write names the file and says what is wrong in plain words,
/// never Foundation's "NSCocoaErrorDomain error 512" or "The file doesn't
/// exist" for a file that does.
@Suite struct WriteFailureMessageTests {
    @Test func writeFailuresSayWhatIsWrongWithWhichFile() throws {
        let library = FailedWriteTests.library
        let directory = try Fixtures.temporaryDirectory()
        let cases = [
            (directory.url.path, "it is a folder"),
            ("/nonexistent/report.html", "the folder /nonexistent does not exist"),
            ("\(directory.url.path)/out/", "it names a folder (it ends with '/')"),
        ]
        for (path, reason) in cases {
            let result = try Command.linkcheck(["check", "--html", path, library])
            #expect(result.status == 2)
            #expect(result.standardError == "linkcheck: error: cannot write the HTML report to \(path): \(reason)\n")
        }
        // /proc/version exists and cannot be replaced: root may open it for
        // writing but cannot create a file beside it; others may not open it.
        let proc = try Command.linkcheck(["check", "--html", "/proc/version", library])
        #expect(proc.status == 2)
        #expect(
            [
                "linkcheck: error: cannot write the HTML report to /proc/version: cannot create a temporary file in /proc to replace it with: No such file or directory\n",
                "linkcheck: error: cannot write the HTML report to /proc/version: Permission denied\n",
            ].contains(proc.standardError), "\(proc.standardError)")
        let baseline = try Command.linkcheck(["check", "--write-baseline", "/nonexistent/b.json", library])
        #expect(
            baseline.standardError
                == "linkcheck: error: cannot write the baseline to /nonexistent/b.json: the folder /nonexistent does not exist\n")
    }

    @Test func aBaselineThatIsNotABaselineSaysWhy() throws {
        let library = FailedWriteTests.library
        let directory = try Fixtures.temporaryDirectory()
        let file = directory.path("baseline.json")
        for (text, reason) in [
            ("{}", "not a linkcheck baseline: $.format: missing"),
            (#"{"format": 2, "findings": [{"image": "libA.so"}]}"#, "not a linkcheck baseline: $.findings[0].rule: missing"),
            (#"{"format": true, "findings": []}"#, "not a linkcheck baseline: $.format: must be an integer"),
            (
                #"{"format": 2, "findings": [{"rule": "AEX001", "severity": "fatal", "image": "libA.so"}]}"#,
                "not a linkcheck baseline: $.findings[0].severity: unknown severity 'fatal' (error, warning or note)"
            ),
            (#"{"format": 2, "findings": {}}"#, "not a linkcheck baseline: $.findings: must be an array"),
            (
                #"{"format": 2, "format": 2, "findings": []}"#,
                "not a linkcheck baseline: $.format: key 'format' appears more than once in this object (only one of the values would be used)"
            ),
            (#"{"format": 3, "findings": []}"#, "unsupported baseline format 3 (this linkcheck reads format 2)"),
            (
                #"{"format": 2, "findings": [{"rule": "AEX001", "severity": "error", "image": "libA.so", "bogus": 1}]}"#,
                "not a linkcheck baseline: $.findings[0].bogus: unknown key"
            ),
            (#"{"format": 2, "findings": [], "comment": "x"}"#, "not a linkcheck baseline: $.comment: unknown key"),
        ] {
            try text.write(to: file, atomically: true, encoding: .utf8)
            let result = try Command.linkcheck(["check", "--baseline", file.path, library])
            #expect(result.status == 2)
            #expect(result.standardError == "linkcheck: error: \(file.path): \(reason)\n")
        }
        let missing = try Command.linkcheck(["check", "--baseline", directory.path("none.json").path, library])
        #expect(missing.standardError == "linkcheck: error: \(directory.path("none.json").path): cannot read: No such file or directory\n")
    }

    /// Read as strictly as rule packs and linkcheck.json: the place and the
    /// reason, never Foundation's parser text; a byte order mark is fine
    /// there as here.
    @Test func aBaselineThatIsNotJSONNamesTheLineAndColumn() throws {
        let library = FailedWriteTests.library
        let directory = try Fixtures.temporaryDirectory()
        let file = directory.path("baseline.json")
        for (text, place) in [
            (
                #"{"format": 2, "findings": [],}"#,
                "1:29: error: invalid JSON: trailing comma: JSON allows no comma after the last member of an object"
            ),
            ("{\n  \"format\": 2,\n  \"findings\": [\n", "4:1: error: invalid JSON: unexpected end of file: expected a value"),
            ("x", "1:1: error: invalid JSON: unknown word 'x': JSON's words are true, false and null, and strings need double quotes"),
            ("", "1:1: error: invalid JSON: the file is empty: expected a JSON value"),
        ] {
            try text.write(to: file, atomically: true, encoding: .utf8)
            let result = try Command.linkcheck(["check", "--baseline", file.path, library])
            #expect(result.status == 2)
            #expect(result.standardError == "\(file.path):\(place)\n")
        }
        try Data([0xEF, 0xBB, 0xBF] + Array(#"{"format": 2, "findings": []}"#.utf8)).write(to: file)
        #expect(try Command.linkcheck(["check", "--baseline", file.path, library]).status == 0)
    }

    /// A baseline of format 1 keyed images by file name and left out the
    /// chain and severity: it is refused, naming the file, with what to do.
    @Test func aBaselineOfFormat1SaysToWriteItAgain() throws {
        let directory = try Fixtures.temporaryDirectory()
        let file = directory.path("baseline.json")
        try #"{"format": 1, "findings": [{"image": "Share", "rule": "AEX001", "symbol": "+[UIApplication sharedApplication]"}]}"#
            .write(to: file, atomically: true, encoding: .utf8)
        let result = try Command.linkcheck(["check", "--baseline", file.path, FailedWriteTests.library])
        #expect(result.status == 2)
        #expect(
            result.standardError
                == "linkcheck: error: \(file.path): a baseline of format 1, whose entries name images by file name and leave out the chain and severity, so they would hide other findings than those accepted: write it again with --write-baseline (this linkcheck reads format 2)\n"
        )
        #expect(result.standardOutput.isEmpty)
    }
}
