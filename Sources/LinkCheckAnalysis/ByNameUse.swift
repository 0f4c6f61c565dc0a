import LinkCheckRules

/// A use of an API by name only: a class looked up from a string
/// (`NSClassFromString(@"UIApplication")`), a selector made from one
/// (`NSSelectorFromString`, `performSelector:` of it, a KVC key), or, in a
/// Mach-O image, a selector name held as a string (where a message the code
/// sends is a selector reference). The compiler's extension check
/// (`-fapplication-extension`) and the App Store's review both accept such
/// code, so the policy (``SeverityPolicy/applyByNamePolicy(to:on:)``) makes
/// it a warning, or an error where the project asks
/// (``Policy/byNameUses``); a direct use (a message sent to a class
/// reference with the selector, a call of an unavailable symbol) keeps its
/// rule's severity.
public struct ByNameUse: Sendable, Equatable {
    /// The checks the code makes before the use, when they are known (empty
    /// when none is): the finding's message names them.
    public var guards: [UseGuard]

    public init(guards: [UseGuard] = []) {
        self.guards = guards
    }
}

/// A check code makes before it uses an API by name, so that the use does
/// not run where the API is unavailable.
public struct UseGuard: Sendable, Equatable {
    public enum Kind: String, Sendable, Codable {
        /// `respondsToSelector:` (or `instancesRespondToSelector:`) of the
        /// selector used.
        case respondsToSelector = "responds-to-selector"
        /// A test of whether the process is an app extension: the main
        /// bundle's path ending in `.appex`, or its `Info.plist` holding
        /// `NSExtension`.
        case extensionCheck = "extension-check"
    }

    public var kind: Kind
    /// The function that makes the check, as people read it; `nil` when
    /// not known.
    public var function: String?

    public init(kind: Kind, function: String? = nil) {
        self.kind = kind
        self.function = function
    }

}

extension SeverityPolicy {
    /// Gives a use by name (``Finding/byName``) on image `index` the
    /// policy's severity and says so in its message: the project's
    /// ``Policy/byNameUses`` (a warning unless it asks for errors), where
    /// the image has to be extension-safe; a note where only the containing
    /// app runs it (or its rule allows the extension types that do).
    /// A use told from strings and imports alone (``Finding/unconfirmed``),
    /// or of an API whose marking the image's SDK lifted
    /// (``Finding/markingLifted``), stays a warning at most. The checks that
    /// guard the use, when known, are named.
    func applyByNamePolicy(to finding: inout Finding, on index: Int) {
        guard let use = finding.byName else { return }
        applyRole(toSelectorString: &finding, on: index)
        if finding.severity != .note {
            let raised = policy.byNameUses == .error && !finding.unconfirmed && !finding.markingLifted
            finding.severity = raised ? .error : min(finding.severity, .warning)
            finding.remark(raised ? .byNameOnlyMadeError : .byNameOnly)
        }
        if !use.guards.isEmpty { finding.remark(.guarded(use.guards)) }
    }

    /// Gives a selector string's finding on image `index` (a review-risk
    /// rule, which roles leave alone) the severity a use of the API it names
    /// has there: a note, saying why, where only the containing app runs the
    /// image (``roleSeverity(_:allowedIn:on:)``).
    func applyRole(toSelectorString finding: inout Finding, on index: Int) {
        guard finding.severity != .note, !finding.category.makesUnsafe else { return }
        let (level, remark) = roleSeverity(finding.severity, allowedIn: [], on: index)
        if level == .note, let remark {
            finding.severity = .note
            finding.remark(remark)
        }
    }
}
