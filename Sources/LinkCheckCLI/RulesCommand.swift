import LinkCheckAnalysis
import LinkCheckReports
import LinkCheckRules

/// `linkcheck rules list|validate`
enum RulesCommand {
    static let listSpec = CommandSpec(
        name: "rules list",
        summary: "Print the rules: the shipped packs, any --rules FILE, and the built-in checks.",
        positionals: "",
        options: [
            .init(name: "rules", value: "FILE", help: "Add a rule pack (repeatable)."),
            .init(name: "no-default-rules", value: nil, help: "Leave out the rule packs shipped in Rules/."),
        ])

    static let validateSpec = CommandSpec(
        name: "rules validate",
        summary: "Report every problem in rule packs (unknown key, duplicate id, bad glob, missing field, …); exit 2 if there is one.",
        positionals: "FILE…",
        options: [])

    static let usage = """
        OVERVIEW: Work with rule packs.

        USAGE: linkcheck rules <list|validate> [OPTIONS]

        SUBCOMMANDS:
          list       Print the rules.
          validate   Check rule-pack files.

        """

    static func run(_ arguments: [String]) throws -> Int32 {
        guard let sub = arguments.first else { throw UsageError("'linkcheck rules' needs a subcommand: list or validate") }
        let rest = Array(arguments.dropFirst())
        switch sub {
        case "list": return try list(rest)
        case "validate": return try validate(rest)
        case "-h", "--help", "help":
            write(usage)
            return 0
        default: throw UsageError("unknown subcommand 'rules \(sub)' (list or validate)")
        }
    }

    static func list(_ arguments: [String]) throws -> Int32 {
        let parsed = try listSpec.parse(arguments)
        guard parsed.positionals.isEmpty else { throw UsageError("unexpected argument '\(parsed.positionals[0])'") }
        switch RuleLoading.load(extraPacks: parsed.all("rules"), includeDefaults: !parsed.has("no-default-rules")) {
        case .success(let rules):
            let packs = rules.packs.map { ($0.name, $0.version, $0.rules) }
                + [("built-in", linkcheckVersion, BuiltInRules.all)]
            write(RuleListRenderer.text(packs: packs))
            return 0
        case .failure(let failure):
            failure.lines.forEach { printError($0) }
            return 2
        }
    }

    static func validate(_ arguments: [String]) throws -> Int32 {
        let parsed = try validateSpec.parse(arguments)
        guard !parsed.positionals.isEmpty else { throw UsageError("'linkcheck rules validate' needs at least one FILE") }
        switch RuleLoading.load(extraPacks: parsed.positionals, includeDefaults: false) {
        case .success(let rules):
            for pack in rules.packs {
                write("\(pack.path): ok: \(pack.name) \(pack.version), \(pack.rules.count) rules\n")
            }
            return 0
        case .failure(let failure):
            failure.lines.forEach { printError($0) }
            printError("linkcheck: \(failure.problems.count) problem\(failure.problems.count == 1 ? "" : "s") found")
            return 2
        }
    }
}
