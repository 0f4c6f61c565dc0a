import LinkCheckRules

/// Loads the rule set a command asks for: the shipped packs (unless
/// `--no-default-rules`) followed by each `--rules FILE`.
enum RuleLoading {
    /// - Returns: the rule set, or every problem found in the packs.
    static func load(extraPacks: [String], includeDefaults: Bool) -> Result<RuleSet, RuleLoadingFailure> {
        var paths: [String] = []
        if includeDefaults {
            let defaults = DefaultRulePacks.paths()
            guard !defaults.isEmpty else {
                return .failure(RuleLoadingFailure(problems: [], message:
                    "cannot find the default rule packs; set LINKCHECK_RULES_DIR to the Rules/ folder or pass --no-default-rules"))
            }
            paths += defaults
        }
        paths += extraPacks
        var packs: [RulePack] = []
        var problems: [RulePackProblem] = []
        for path in paths {
            let (pack, found) = RulePackLoader.load(path: path)
            problems += found
            if let pack { packs.append(pack) }
        }
        let (rules, duplicates) = RuleSet.build(packs: packs)
        problems += duplicates
        return problems.isEmpty ? .success(rules) : .failure(RuleLoadingFailure(problems: problems, message: nil))
    }
}

struct RuleLoadingFailure: Error {
    var problems: [RulePackProblem]
    var message: String?

    var lines: [String] {
        (message.map { ["linkcheck: error: \($0)"] } ?? []) + problems.map { "\($0.file): error: \($0.jsonPath): \(detail($0))" }
    }

    private func detail(_ problem: RulePackProblem) -> String {
        let text = problem.description
        let prefix = "\(problem.file): \(problem.jsonPath): "
        return text.hasPrefix(prefix) ? String(text.dropFirst(prefix.count)) : text
    }
}
