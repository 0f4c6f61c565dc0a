import Foundation
import LinkCheckTestSupport
import Testing

/// `Documentation/cli.md` against the commands themselves, so that the
/// reference cannot drift: every command `linkcheck --help` lists (and
/// every `rules` subcommand) has a section there, each section's table names
/// every option the command's own `--help` lists and no other, and no option
/// named anywhere on the page is one the tool lacks.
@Suite struct CLIReferenceTests {
    /// The reference as it is checked in.
    static func reference() throws -> String {
        try String(contentsOf: Fixtures.repositoryRoot.appendingPathComponent("Documentation/cli.md"), encoding: .utf8)
    }

    /// The names listed under `heading` in a `--help` text, one per line
    /// (`  check      Check images…` → `check`), up to the next blank line.
    static func listed(under heading: String, in help: String) -> [String] {
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(of: Substring(heading)) else { return [] }
        return lines[(start + 1)...].prefix { !$0.isEmpty }.compactMap { line in
            line.firstMatch(of: /^  (--)?([a-z][a-z0-9-]*)/).map { String($0.output.2) }
        }
    }

    /// Every command with options: `check`, `inspect`, `graph`, and
    /// `rules list`, `rules explain`, … in place of `rules` (a command whose
    /// help lists subcommands is replaced by them).
    static func commands() throws -> [String] {
        func expand(_ words: [String]) throws -> [String] {
            let help = try Command.linkcheck(words + ["--help"])
            #expect(help.status == 0, "linkcheck \(words.joined(separator: " ")) --help: \(help.standardError)")
            let subcommands = listed(under: "SUBCOMMANDS:", in: help.standardOutput)
            if subcommands.isEmpty { return [words.joined(separator: " ")] }
            return try subcommands.flatMap { try expand(words + [$0]) }
        }
        return try expand([])
    }

    /// The options `linkcheck COMMAND --help` lists, without their dashes.
    static func options(of command: String) throws -> Set<String> {
        let help = try Command.linkcheck(command.split(separator: " ").map(String.init) + ["--help"])
        return Set(listed(under: "OPTIONS:", in: help.standardOutput))
    }

    /// The reference's sections (`## \`linkcheck rules list\``) and the
    /// options the first column of each one's table names, without dashes.
    static func documentedOptions(in reference: String) -> [String: Set<String>] {
        var sections: [String: Set<String>] = [:]
        var current: String?
        for line in reference.split(separator: "\n") {
            if let heading = line.firstMatch(of: /^## `linkcheck ([^`]+)`/) {
                current = String(heading.output.1)
                sections[String(heading.output.1), default: []] = []
            } else if let current, line.hasPrefix("| `--") {
                let firstCell = line.dropFirst().prefix { $0 != "|" }
                sections[current]?.formUnion(firstCell.matches(of: /--([a-z][a-z0-9-]*)/).map { String($0.output.1) })
            }
        }
        return sections
    }

    @Test func everyCommandHasASectionAndEverySectionACommand() throws {
        let commands = try Self.commands()
        #expect(commands.count >= 7, "\(commands)")
        #expect(commands.contains("rules extract"))
        let sections = Self.documentedOptions(in: try Self.reference())
        #expect(Set(sections.keys) == Set(commands).union(["--version"]))
    }

    @Test func eachTableNamesEveryOptionOfItsCommandAndNoOther() throws {
        let sections = Self.documentedOptions(in: try Self.reference())
        for command in try Self.commands() {
            let options = try Self.options(of: command)
            #expect(options.contains("help"), "linkcheck \(command) --help lists no options")
            let documented = sections[command] ?? []
            #expect(
                options.subtracting(documented).isEmpty,
                "Documentation/cli.md does not name these options of linkcheck \(command): \(options.subtracting(documented).sorted())")
            #expect(
                documented.subtracting(options).isEmpty,
                "Documentation/cli.md names options linkcheck \(command) does not have: \(documented.subtracting(options).sorted())")
        }
    }

    /// An option named in the prose (`--follow-symlinks follows every
    /// link`) is one some command has.
    @Test func everyOptionThePageNamesExists() throws {
        var known: Set<String> = ["version", "help"]
        for command in try Self.commands() { known.formUnion(try Self.options(of: command)) }
        #expect(known.contains("follow-symlinks"))
        let named = Set(try Self.reference().matches(of: /(?:^|[^A-Za-z0-9_-])--([a-z][a-z0-9-]*)/).map { String($0.output.1) })
        #expect(named.subtracting(known).isEmpty, "Documentation/cli.md names unknown options: \(named.subtracting(known).sorted())")
    }
}
