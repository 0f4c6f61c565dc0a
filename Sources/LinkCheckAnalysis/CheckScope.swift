import LinkCheckRules

/// Which of linkcheck's checks a run made: all of them, or, for a step
/// before upload (`linkcheck check --only bundle`), only those of how the
/// app bundle is put together (``BundleChecks``, ``UploadChecks``), without
/// matching any API or analysing call sites.
public enum CheckScope: String, Sendable, CaseIterable {
    /// Every check: rule packs, call sites, architecture, bundles.
    case all
    /// The bundle checks (category `bundle`) alone; what could not be read
    /// is still said (`INSP001`, `LINK002`, the files that failed).
    case bundle
}

extension Report {
    /// The report of a run limited to `scope`: for ``CheckScope/bundle``,
    /// the findings of category `bundle` and the completeness ones
    /// (``BuiltInRules/isCompleteness(_:)``); the images' verdicts,
    /// which no API matching informed, are not the answer (renderers say
    /// the upload checks' instead).
    public func limited(to scope: CheckScope) -> Report {
        guard scope == .bundle else { return self }
        var report = self
        report.scope = scope
        let kept = { (finding: Finding) in finding.category == .bundle || BuiltInRules.isCompleteness(finding.rule) }
        report.findings = findings.filter(kept)
        report.baselined = baselined.filter(kept)
        return report
    }
}
