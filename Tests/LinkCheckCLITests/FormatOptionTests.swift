import Foundation
import LinkCheckTestSupport
import Testing

/// `--format` of `check` and `graph`: the formats each offers, in its help
/// and in the error for any other.
@Suite struct FormatOptionTests {
    @Test func checkNamesItsFormatsInItsHelp() throws {
        let output = try Command.linkcheck(["check", "--help"])
        #expect(output.standardOutput.contains("--format FORMAT              text (default), json, sarif (SARIF 2.1.0) or html.\n"))
    }

    @Test func graphNamesItsFormatsInItsHelp() throws {
        let output = try Command.linkcheck(["graph", "--help"])
        #expect(output.standardOutput.contains("--format FORMAT              dot (Graphviz, default) or json.\n"))
    }

    @Test func checkRefusesAFormatItDoesNotOffer() throws {
        let output = try Command.linkcheck(["check", "--format", "dot", "x"])
        #expect(output.status == 2)
        #expect(output.standardError == "linkcheck: error: unknown format 'dot' (text, json, sarif or html)\n")
    }

    @Test func graphRefusesAFormatItDoesNotOffer() throws {
        let output = try Command.linkcheck(["graph", "--format", "text", "x"])
        #expect(output.status == 2)
        #expect(output.standardError == "linkcheck: error: unknown format 'text' (dot or json)\n")
    }
}
