import LinkCheckImage
import LinkCheckRules

/// Where every verdict (``Verdict``) is decided: an image's, from the
/// findings the report lists for it and where it stands, and a fat file's,
/// from its slices'. Everything else reads what these give.
enum Verdicts {
    /// An image's verdict: `unsafe` when an extension it is cannot launch
    /// (`launchBlocked`: a bundle error of an image it links or loads stops
    /// it at launch; dyld does not run it, whatever its own findings), or
    /// when one of `findings` is an error other than a completeness one or
    /// one of what App Store Connect would refuse on upload
    /// (``BuiltInRules/isUploadCheck(_:)``, said apart);
    /// `not-loaded` for a slice no process of the app loads
    /// (`notLoaded`) that has no error finding; `incomplete` when it, or an
    /// image it links, could be read only in part; `app-only` when it has
    /// unsafe findings that its role made notes (`appOnly`: only the
    /// containing app runs it); `needs-review` when a warning about a use
    /// by name is listed for it (``Finding/APIUseEvidence/review``); else `extension-safe`.
    static func verdict(findings: [Finding], appOnly: Bool, notLoaded: Bool = false, launchBlocked: Bool = false) -> Verdict {
        if launchBlocked { return .unsafe }
        // What App Store Connect would refuse is said apart (``UploadChecks``).
        let errors = findings.filter { $0.severity == .error && !BuiltInRules.isUploadCheck($0.rule) }
        if notLoaded && errors.isEmpty { return .notLoaded }
        if errors.contains(where: { !BuiltInRules.isCompleteness($0.rule) }) { return .unsafe }
        if findings.contains(where: { BuiltInRules.isCompleteness($0.rule) }) { return .incomplete }
        let usesUnsafeAPI = findings.contains { $0.rule == BuiltInRules.unsafeLoad.id || $0.apiUse == .use }
        if usesUnsafeAPI && appOnly { return .appOnly }
        return findings.contains { $0.apiUse == .review } ? .needsReview : .extensionSafe
    }

    /// The images (by name) of `findings`' bundle errors (BNDL001…) but the
    /// upload checks': each stops at launch every extension that links or
    /// loads it.
    static func launchBlocking(_ findings: [Finding]) -> Set<String> {
        Set(findings.filter { $0.category == .bundle && $0.severity == .error && !BuiltInRules.isUploadCheck($0.rule) }.map(\.image))
    }

    /// A fat file's verdict, from its slices' `verdicts`: the first of
    /// unsafe, incomplete, needs-review, app-only, extension-safe that a
    /// slice has; a slice no process loads counts only when no slice is
    /// loaded.
    static func verdict(ofSlices verdicts: [Verdict]) -> Verdict? {
        let order: [Verdict] = [.unsafe, .incomplete, .needsReview, .appOnly, .extensionSafe, .notLoaded]
        return order.first(where: verdicts.contains)
    }
}
