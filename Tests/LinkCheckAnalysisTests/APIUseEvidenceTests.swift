import LinkCheckAnalysis
import LinkCheckRules
import Testing

/// What a finding shows of its image's use of APIs unavailable in app
/// extensions (``Finding/apiUse``): a use counts for verdicts and against
/// the linker's flag, a use by name left as a warning is for review, and
/// a provider's note, a lifted marking, a use told from strings alone or
/// another rule's finding shows neither.
@Suite struct APIUseEvidenceTests {
    static func finding(
        _ kind: Finding.Kind = .importedSymbol, severity: Severity = .error, category: RuleCategory = .unavailableAPI,
        byName: Bool = false, lifted: Bool = false, unconfirmed: Bool = false
    ) -> Finding {
        var finding = Finding(rule: "AEX001", severity: severity, category: category, kind: kind, image: "Kit", message: "m")
        finding.byName = byName ? ByNameUse() : nil
        finding.markingLifted = lifted
        finding.unconfirmed = unconfirmed
        return finding
    }

    @Test func aDirectUseOfAnUnsafeRulesAPIIsAUse() {
        #expect(Self.finding().apiUse == .use)
        #expect(Self.finding(.objcReference, severity: .note).apiUse == .use)
        #expect(Self.finding(.transitive, severity: .warning).apiUse == .use)
    }

    @Test func aProviderALiftedMarkingAnUnconfirmedUseAndAReviewRiskShowNone() {
        #expect(Self.finding(.providedSymbol, severity: .note).apiUse == .none)
        #expect(Self.finding(severity: .warning, lifted: true).apiUse == .none)
        #expect(Self.finding(.objcByName, severity: .warning, unconfirmed: true).apiUse == .none)
        #expect(Self.finding(.stringLiteral, severity: .warning, category: .reviewRisk).apiUse == .none)
    }

    @Test func aUseByNameLeftAsAWarningIsForReviewUnlessItsMarkingIsLifted() {
        #expect(Self.finding(.objcByName, severity: .warning, byName: true).apiUse == .review)
        #expect(Self.finding(.objcByName, severity: .warning, byName: true, unconfirmed: true).apiUse == .review)
        #expect(Self.finding(.stringLiteral, severity: .warning, category: .reviewRisk, byName: true).apiUse == .review)
        #expect(Self.finding(.objcByName, severity: .warning, byName: true, lifted: true).apiUse == .none)
    }

    @Test func aUseByNameMadeAnErrorOrANoteIsAUse() {
        #expect(Self.finding(.objcByName, severity: .error, byName: true).apiUse == .use)
        #expect(Self.finding(.objcByName, severity: .note, byName: true).apiUse == .use)
        #expect(Self.finding(.stringLiteral, severity: .note, category: .reviewRisk, byName: true).apiUse == .none)
    }
}
