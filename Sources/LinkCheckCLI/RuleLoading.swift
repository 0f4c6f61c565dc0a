import Foundation
import LinkCheckAnalysis
import LinkCheckRules

/// Loads the rule set a command asks for: the shipped packs (unless
/// `--no-default-rules`), then those `linkcheck.json` names, then each
/// `--rules FILE`.
enum RuleLoading {
    /// - Parameter configuration: the `linkcheck.json` whose `rules` to
    ///   load; a pack it names that cannot be read is reported at the
    ///   configuration's `$.rules[N]`.
    /// - Returns: the rule set, or every problem found in the packs.
    static func load(
        extraPacks: [String], includeDefaults: Bool, configuration: Configuration? = nil
    ) -> Result<RuleSet, RuleLoadingFailure> {
        var paths: [String] = []
        if includeDefaults {
            let defaults = DefaultRulePacks.paths()
            guard !defaults.isEmpty else {
                let environment = ProcessInfo.processInfo.environment["LINKCHECK_RULES_DIR"]
                let message =
                    environment.map { "LINKCHECK_RULES_DIR=\($0) holds no rule packs (\(DefaultRulePacks.fileNames[0]), …)" }
                    ?? "cannot find the default rule packs; set LINKCHECK_RULES_DIR to the Rules/ folder or pass --no-default-rules"
                return .failure(RuleLoadingFailure(problems: [], message: message))
            }
            paths += defaults
        }
        // Where each pack is named, for one that cannot be read.
        var namedIn: [String: (file: String, jsonPath: String)] = [:]
        if let configuration {
            for (index, path) in configuration.rules.enumerated() where namedIn[path] == nil {
                namedIn[path] = (configuration.path, "$.rules[\(index)]")
            }
            paths += configuration.rules
        }
        paths += extraPacks
        var packs: [RulePack] = []
        var problems: [RulePackProblem] = []
        var seen = Set<String>()
        // Ids are checked across every pack, also one with other problems,
        // and against the built-in checks.
        var ids = RuleIDRegistry(
            reserved: Dictionary(BuiltInRules.all.map { ($0.id, "linkcheck's built-in checks") }, uniquingKeysWith: { first, _ in first }))
        // The same file named twice is loaded once.
        for path in paths where seen.insert(URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path).inserted {
            var loaded = RulePackLoader.load(path: path)
            if let origin = namedIn[path], let first = loaded.problems.first, case .unreadable(let reason) = first.kind {
                loaded.problems = [
                    RulePackProblem(file: origin.file, jsonPath: origin.jsonPath, kind: .unreadablePack(path: path, reason: reason))
                ]
            }
            problems += loaded.problems + loaded.ruleIDs.compactMap { ids.register($0, file: path) }
            if let pack = loaded.pack { packs.append(pack) }
        }
        // Its own duplicates are among those found above.
        let rules = RuleSet.build(packs: packs).0
        return problems.isEmpty ? .success(rules) : .failure(RuleLoadingFailure(problems: problems, message: nil))
    }
}

struct RuleLoadingFailure: Error, Sendable {
    var problems: [RulePackProblem]
    var message: String?

    var lines: [String] {
        (message.map { ["linkcheck: error: \($0)"] } ?? []) + problems.map(\.errorLine)
    }
}
