import Foundation
import LinkCheckAnalysis
import LinkCheckCodeIndex
import LinkCheckRules

/// The rule packs linkcheck ships (the packs ``DefaultRulePacks`` finds in
/// `Rules/`), for the tests that check with them. Loading is strict: a
/// pack that does not load, or no pack found at all, is a thrown
/// ``ShippedRulesFailure`` that fails the test, never a smaller rule set.
public enum ShippedRules {
    /// Every shipped pack, in ``DefaultRulePacks/paths()`` order.
    ///
    /// - Throws: ``ShippedRulesFailure`` when no pack is found, or naming
    ///   each pack that does not load with its problems.
    public static func packs() throws -> [RulePack] {
        let paths = DefaultRulePacks.paths()
        guard !paths.isEmpty else {
            throw ShippedRulesFailure(description: "no shipped rule pack found (DefaultRulePacks.paths() is empty)")
        }
        var packs: [RulePack] = []
        var problems: [String] = []
        for path in paths {
            let loaded = RulePackLoader.load(path: path)
            if let pack = loaded.pack {
                packs.append(pack)
            } else {
                problems.append("\(path) did not load:\n" + loaded.problems.map(\.description).joined(separator: "\n"))
            }
        }
        guard problems.isEmpty else { throw ShippedRulesFailure(description: problems.joined(separator: "\n")) }
        return packs
    }

    /// The rule set of the shipped packs followed by `extra` (the first
    /// value of ``RuleSet/build(packs:demangler:)``).
    ///
    /// - Throws: ``ShippedRulesFailure``, as ``packs()``.
    public static func ruleSet(adding extra: [RulePack] = []) throws -> RuleSet {
        RuleSet.build(packs: try packs() + extra).0
    }

    /// `path` (an image, a folder, a bundle or an archive) checked with the
    /// shipped rules and two jobs
    /// (``CheckRun/check(paths:rules:policy:resolver:callSites:jobs:)``).
    ///
    /// - Throws: ``ShippedRulesFailure``, as ``packs()``.
    public static func check(_ path: URL, policy: Policy = Policy(), callSites: CallSiteMode? = .targeted) throws -> Report {
        CheckRun.check(paths: [path.path], rules: try ruleSet(), policy: policy, callSites: callSites, jobs: 2)
    }
}

/// The shipped rule packs could not all be loaded: what ``ShippedRules``
/// found wrong, pack by pack.
public struct ShippedRulesFailure: Error, CustomStringConvertible {
    public var description: String
}
