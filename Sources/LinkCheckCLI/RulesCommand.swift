import Foundation
import LinkCheckAnalysis
import LinkCheckReports
import LinkCheckRules

/// `linkcheck rules list|explain|validate|extract`
enum RulesCommand {
    static let listSpec = CommandSpec(
        name: "rules list",
        summary: "Print the rules: the shipped packs, any --rules FILE, and the built-in checks.",
        positionals: "",
        options: [
            .rules, .noDefaultRules,
            .init(
                name: "examples", value: nil, help: "Also print each rule's examples: the sources that trigger it and those that do not."),
        ])

    static let explainSpec = CommandSpec(
        name: "rules explain",
        summary:
            "Explain rules by id: what each finds, why it matters, how to fix it and where it comes from (the notes a check's text output ends with).",
        positionals: "ID…",
        options: [.rules, .noDefaultRules])

    static let validateSpec = CommandSpec(
        name: "rules validate",
        summary:
            "Report every problem in rule packs (unknown key, duplicate id, bad glob, missing field, …); exit 2 if there is one. A rule without examples is a warning, or an error in the shipped packs.",
        positionals: "FILE…",
        options: [
            .init(
                name: "no-default-rules", value: nil,
                help: "Do not check ids against the shipped packs (as check --no-default-rules would not load them).")
        ])

    static let extractSpec = CommandSpec(
        name: "rules extract",
        summary:
            "Turn a project's @available(…ApplicationExtension, unavailable) annotations, read from Swift symbol graphs, into a rule pack.",
        positionals: "",
        options: [
            .init(name: "symbol-graph-dir", value: "DIR", help: "The folder of *.symbols.json files (repeatable)."),
            .init(name: "output", value: "FILE", help: "Write the pack to FILE (default: standard output)."),
            .init(name: "name", value: "NAME", help: "The pack's name (default: project-annotations)."),
            .init(name: "id-prefix", value: "PREFIX", help: "Rule ids are PREFIX001, PREFIX002, … (default: OWN)."),
            .init(name: "include-covered", value: nil, help: "Keep annotations the shipped packs already cover (same Swift path)."),
        ])

    static let usage = """
        OVERVIEW: Work with rule packs.

        USAGE: linkcheck rules <list|explain|validate|extract> [OPTIONS]

        SUBCOMMANDS:
          list       Print the rules.
          explain    Explain rules by id (AEX001, FLAG002, …).
          validate   Check rule-pack files.
          extract    Make a rule pack from Swift symbol graphs' extension-unavailable annotations.

        """

    static func run(_ arguments: [String]) throws -> Int32 {
        guard let sub = arguments.first else {
            throw UsageError("'linkcheck rules' needs a subcommand: list, explain, validate or extract")
        }
        let rest = Array(arguments.dropFirst())
        switch sub {
        case "list": return try list(rest)
        case "explain": return try explain(rest)
        case "validate": return try validate(rest)
        case "extract": return try extract(rest)
        case "-h", "--help", "help":
            write(usage)
            return 0
        default: throw UsageError("unknown subcommand 'rules \(sub)' (list, explain, validate or extract)")
        }
    }

    static func list(_ arguments: [String]) throws -> Int32 {
        let parsed = try listSpec.parse(arguments)
        guard parsed.positionals.isEmpty else { throw UsageError("unexpected argument '\(parsed.positionals[0])'") }
        switch RuleLoading.load(extraPacks: parsed.all("rules"), includeDefaults: !parsed.has("no-default-rules")) {
        case .success(let rules):
            let packs =
                rules.packs.map { ($0.name, $0.version, $0.rules) }
                + [("built-in", linkcheckVersion, BuiltInRules.all)]
            write(RuleListRenderer.text(packs: packs, examples: parsed.has("examples")))
            return 0
        case .failure(let failure):
            failure.lines.forEach { printError($0) }
            return 2
        }
    }

    /// Prints each rule named (by id, in any case) among the loaded packs'
    /// and the built-in ones, in the order given. Exit status 0, or 2 when
    /// an id names no rule (the others are still explained): the error
    /// suggests the closest ids.
    static func explain(_ arguments: [String]) throws -> Int32 {
        let parsed = try explainSpec.parse(arguments)
        guard !parsed.positionals.isEmpty else { throw UsageError("'linkcheck rules explain' needs at least one rule ID") }
        switch RuleLoading.load(extraPacks: parsed.all("rules"), includeDefaults: !parsed.has("no-default-rules")) {
        case .success(let loaded):
            let rules = loaded.rules + BuiltInRules.all
            var status: Int32 = 0
            for id in parsed.positionals {
                if let rule = rules.first(where: { $0.id.rawValue == id })
                    ?? rules.first(where: { $0.id.rawValue.uppercased() == id.uppercased() })
                {
                    write(RuleExplanation.text(rule))
                } else {
                    let suggestion = NameSuggestions.question(suggestedIDs(for: id, among: rules.map(\.id.rawValue)))
                    printError("linkcheck: error: no rule has the id '\(id)'\(suggestion.map { " (\($0))" } ?? "")")
                    status = 2
                }
            }
            return status
        case .failure(let failure):
            failure.lines.forEach { printError($0) }
            return 2
        }
    }

    /// The ids to suggest for `id`, which names no rule: the one with the
    /// same letters and number (`AEX1`, `aex0001` → `AEX001`), else the
    /// closest by spelling (``NameSuggestions``), at most five.
    static func suggestedIDs(for id: String, among ids: [String]) -> [String] {
        func parts(_ text: String) -> (String, Int)? {
            let letters = text.prefix { $0.isLetter }.uppercased()
            return Int(text.dropFirst(letters.count)).map { (letters, $0) }
        }
        if let typed = parts(id), let same = ids.first(where: { parts($0).map { $0 == typed } ?? false }) { return [same] }
        return Array(NameSuggestions.closest(to: id, among: ids).prefix(5))
    }

    /// Exit status 0 when the pack was written (even empty), 2 when a
    /// symbol graph could not be read.
    static func extract(_ arguments: [String]) throws -> Int32 {
        let parsed = try extractSpec.parse(arguments)
        guard parsed.positionals.isEmpty else { throw UsageError("unexpected argument '\(parsed.positionals[0])'") }
        let directories = parsed.all("symbol-graph-dir")
        guard !directories.isEmpty else { throw UsageError("'linkcheck rules extract' needs --symbol-graph-dir DIR") }
        let prefix = parsed.last("id-prefix") ?? "OWN"
        guard (2...8).contains(prefix.count), prefix.allSatisfy({ $0.isASCII && $0.isUppercase }) else {
            throw UsageError("--id-prefix needs 2–8 capital letters, not '\(prefix)'")
        }
        let outputs = try OutputConflicts.outputs(parsed, ["output"])
        var reads: [OutputConflicts.Read] = []
        for directory in directories {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
                printError("linkcheck: error: \(directory): not a folder of symbol graphs")
                return 2
            }
            let graphs = (FileManager.default.enumerator(atPath: directory)?.allObjects as? [String] ?? [])
                .filter { $0.hasSuffix(".symbols.json") }
            guard !graphs.isEmpty else {
                printError("linkcheck: error: \(directory): no *.symbols.json symbol graphs in it")
                return 2
            }
            reads += graphs.map { .init(role: "the symbol graph", path: directory.hasSuffix("/") ? directory + $0 : "\(directory)/\($0)") }
        }
        let shipped = parsed.has("include-covered") ? nil : try? RuleLoading.load(extraPacks: [], includeDefaults: true).get()
        reads += (shipped?.packs ?? []).map { .init(role: "the rule pack", path: $0.path) }
        try OutputConflicts.refuse(outputs, reads: reads)
        var annotations: [SymbolGraphRules.Annotation] = []
        for directory in directories {
            do {
                annotations += try SymbolGraphRules.annotations(inDirectory: directory)
            } catch {
                printError(error.errorLine)
                return 2
            }
        }
        if annotations.isEmpty {
            let graphCount = reads.count { $0.role == "the symbol graph" }
            printError(
                "linkcheck: note: no declaration in the \(TextRenderer.count(graphCount, "symbol graph")) is marked @available(…ApplicationExtension, unavailable), so the pack has no rules"
            )
        }
        if let shipped {
            let covered = Set(
                shipped.rules.flatMap(\.matchers).compactMap { matcher -> String? in
                    if case .swift(let path) = matcher { return path }
                    return nil
                })
            let before = annotations.count
            // A shipped path covers itself and every member under it.
            annotations.removeAll { annotation in
                covered.contains { annotation.path == $0 || annotation.path.hasPrefix($0 + ".") }
            }
            if before > annotations.count {
                printError(
                    "linkcheck: note: \(before - annotations.count) annotated declarations are already covered by the shipped rule packs (--include-covered keeps them)"
                )
            }
        }
        var seen = Set<String>()
        annotations = annotations.sorted { $0.path < $1.path }.filter { seen.insert($0.path).inserted }
        let pack = SymbolGraphRules.pack(annotations, name: parsed.last("name") ?? "project-annotations", idPrefix: prefix)
        let data = RulePackWriter.json(pack)
        if let output = parsed.last("output") {
            do {
                try OutputFile.write(data, to: output)
            } catch {
                printError("linkcheck: error: cannot write \(output): \(error)")
                return 2
            }
        } else {
            write(String(decoding: data, as: UTF8.self))
        }
        return 0
    }

    static func validate(_ arguments: [String]) throws -> Int32 {
        let parsed = try validateSpec.parse(arguments)
        guard !parsed.positionals.isEmpty else { throw UsageError("'linkcheck rules validate' needs at least one FILE") }
        // Checked together with the shipped packs, as `check` loads them: an
        // id they already use is a problem here too.
        switch RuleLoading.load(extraPacks: parsed.positionals, includeDefaults: !parsed.has("no-default-rules")) {
        case .success(let rules):
            func resolved(_ path: String) -> String { URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path }
            let given = Set(parsed.positionals.map(resolved))
            let shipped = Set(DefaultRulePacks.paths().map(resolved))
            var errors = 0
            for pack in rules.packs where given.contains(resolved(pack.path)) {
                let incomplete = pack.exampleProblems
                let isShipped = shipped.contains(resolved(pack.path))
                for problem in incomplete {
                    printError(isShipped ? problem.errorLine : problem.warningLine)
                }
                if isShipped && !incomplete.isEmpty {
                    errors += incomplete.count
                } else {
                    write("\(pack.path): ok: \(pack.name) \(pack.version), \(TextRenderer.count(pack.rules.count, "rule"))\n")
                }
            }
            guard errors == 0 else {
                printError("linkcheck: \(errors) problem\(errors == 1 ? "" : "s") found")
                return 2
            }
            return 0
        case .failure(let failure):
            failure.lines.forEach { printError($0) }
            printError("linkcheck: \(failure.problems.count) problem\(failure.problems.count == 1 ? "" : "s") found")
            return 2
        }
    }
}
