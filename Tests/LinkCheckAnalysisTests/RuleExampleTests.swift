import Foundation
import LinkCheckAnalysis
import LinkCheckELF
import LinkCheckReports
import LinkCheckRules
import LinkCheckTestSupport
import Testing

/// Every rule of the shipped packs proves itself with its examples
/// (SwiftLint's habit): each example is built from its source at test time
/// (``RuleExampleBuilds``), all are checked together with the default rules,
/// and each rule must find its triggering examples, at the severity they
/// expect, and leave its near misses alone. Most examples are built as ELF
/// shared objects: a build without libelf (macOS's default) skips them.
@Suite(.enabled(if: ELFReader.readsELF, "the examples are built as ELF, which this build does not read"))
struct RuleExampleTests {
    /// The shipped rules' ids, read when the tests are listed.
    static let ruleIDs: [RuleID] = (try? ShippedRules.ruleSet().rules.map(\.id)) ?? []

    static func examples(of id: RuleID) throws -> (RuleExampleBuilds, [RuleExampleBuilds.Built]) {
        let builds = try RuleExampleBuilds.shared.get()
        return (builds, builds.examples.filter { $0.rule.id == id })
    }

    @Test func theShippedPacksHaveRules() {
        #expect(Self.ruleIDs.count > 60, "the default packs could not be read")
    }

    /// A triggering example gets a finding of the rule at the severity it
    /// expects (the rule's, unless it says); a near miss gets none, or, when
    /// it is checked in a context that allows the API (an `allowedIn`
    /// extension type, a framework only the app links), only notes.
    @Test(arguments: ruleIDs)
    func theRuleFindsItsTriggeringExamplesAndNotItsNearMisses(id: RuleID) throws {
        let (builds, examples) = try Self.examples(of: id)
        #expect(examples.contains { $0.triggering } && examples.contains { !$0.triggering })
        for built in examples {
            if case .failure(let failure) = built.image {
                Issue.record("\(built.label) does not build: \(failure)")
                continue
            }
            let findings = builds.findings(of: built)
            let found = findings.map { "\($0.severity.rawValue): \($0.message)" }
            if built.triggering {
                let expected = built.example.severity ?? built.rule.severity
                #expect(findings.contains { $0.severity == expected }, "\(built.label): no \(expected.rawValue) finding; found \(found)")
            } else if built.example.hasContext {
                #expect(
                    !findings.isEmpty && findings.allSatisfy { $0.severity == .note },
                    "\(built.label): the API is there, and only its context should make the finding a note; found \(found)")
            } else {
                #expect(findings.isEmpty, "\(built.label): the near miss is found: \(found)")
            }
        }
    }

    /// Each of a rule's matchers matches in at least one of its triggering
    /// examples, so no matcher is there for show.
    @Test(arguments: ruleIDs)
    func everyMatcherOfTheRuleMatchesInATriggeringExample(id: RuleID) throws {
        let (builds, examples) = try Self.examples(of: id)
        let rule = try #require(examples.first?.rule)
        let exercised = Set(examples.filter(\.triggering).flatMap(builds.findings).flatMap { Self.matchers(rule, matching: $0) })
        for matcher in rule.matchers where !exercised.contains(matcher.description) {
            Issue.record("\(id): no triggering example is found by \(matcher)")
        }
    }

    /// The matchers of `rule` that `finding` (one of its own findings) can
    /// come from, as ``Matcher/description`` spells them.
    static func matchers(_ rule: Rule, matching finding: Finding) -> [String] {
        guard let subject = finding.symbol else { return [] }
        switch finding.kind {
        case .objcReference, .objcByName: return ["objc: \(subject)"]
        case .stringLiteral: return ["string: \(subject)"]
        case .neededLibrary:
            return rule.matchers.compactMap { matcher in
                guard case .library(let pattern) = matcher, Glob.matches(pattern, subject) else { return nil }
                return matcher.description
            }
        case .importedSymbol:
            return rule.matchers.filter { matcher in
                let one = Rule(
                    id: rule.id, api: rule.api, category: rule.category, severity: rule.severity, matchers: [matcher],
                    message: rule.message, fixit: rule.fixit, source: rule.source)
                let set = RuleSet.build(packs: [RulePack(path: "", name: "", version: "", rules: [one])]).0
                return !set.rules(matchingSymbol: subject).isEmpty
            }.map(\.description)
        default: return []
        }
    }

    @Test func everyExampleIsBuiltAndChecked() throws {
        let builds = try RuleExampleBuilds.shared.get()
        let rules = try ShippedRules.ruleSet().rules
        #expect(builds.examples.count == rules.map { $0.examples.triggering.count + $0.examples.nonTriggering.count }.reduce(0, +))
        let built = builds.examples.filter { (try? $0.image.get()) != nil }
        #expect(built.count == builds.examples.count)
        #expect(Set(built.compactMap { try? $0.image.get() }).isSubset(of: Set(builds.report.images.map(\.name))), "every image is checked")
        // For the record: the cost this suite adds.
        print("rule examples: \(builds.examples.count) built in \(Int(builds.buildSeconds)) s, checked in \(Int(builds.checkSeconds)) s")
    }
}
