import LinkCheckImage
import LinkCheckRules

/// A reason a finding gives after its rule's message, typed: why its
/// severity is what it is (the image's role, the SDK it was built with, a
/// use by name), what guards the use, what was not seen. The reports turn
/// it into words (`FindingWording` in LinkCheckReports), each in
/// parentheses after the message.
public enum FindingRemark: Sendable, Equatable {
    /// A note: no process of the app loads this slice of a fat file
    /// (``UnloadableSlices``).
    case sliceNotLoaded
    /// A note: the image is the containing app, which may use the API.
    case containingAppMayUse
    /// A note: the extension is of a type (`share`…) the rule allows the API
    /// in.
    case allowedInExtensionType(ExtensionType)
    /// A note: only the containing app links or loads the framework.
    case onlyContainingAppLinks
    /// A note: every extension that links the framework is of a type the
    /// rule allows the API in (these types, sorted).
    case allowedInLinkingExtensions([ExtensionType])
    /// A note: only the containing app runs the code that loads a library.
    case onlyContainingAppRuns
    /// What comparing the rule's SDK range with the SDK the image that uses
    /// the API was built with found (``SDKMarking``).
    case sdkMarking(SDKMarkingComparison)
    /// Call sites are analysed in this run, but not for the image's
    /// architecture and format.
    case callSitesNotAnalysed(architecture: Architecture, format: BinaryFormat)
    /// A use by name only (``ByNameUse``), made a warning: the compiler
    /// and the App Store accept it.
    case byNameOnly
    /// A use by name only, made an error as the run asks
    /// (``Policy/byNameUses``).
    case byNameOnlyMadeError
    /// The checks that guard a use by name (not empty).
    case guarded([UseGuard])
    /// A use by name told from the strings and imports of the image named
    /// (short name) alone, its calls not seen.
    case byNameToldFromStrings(of: String)
    /// A selector's name held as a string that no code loads.
    case noCodeLoadsString
    /// A selector's name held as a string that the code loads, but makes no
    /// selector of.
    case loadMakesNoSelector
    /// The text output's line for a file read only in part stands for this
    /// many more findings of its structures
    /// (``FileGrouping/foldingPartialInspection(_:)``).
    case moreStructureProblems(Int)
}

/// What comparing a rule's SDK range (``SDKRange``: marked in the
/// `platform`'s SDKs up to `markedUntil`, not from `unmarkedFrom`) with the
/// SDK an image (`image`, its short name) was built with found.
public struct SDKMarkingComparison: Sendable, Equatable {
    /// What the image records, and so what could be told.
    public enum Outcome: Sendable, Equatable {
        /// The image records no SDK and no platform: not checked.
        case noSDKRecorded
        /// The image is built for this platform, not one the range counts:
        /// not checked.
        case otherPlatform(Platform)
        /// Built with this SDK, which no longer marks the API.
        case liftedInSDK(SDKVersion)
        /// Built with this SDK, which still marks the API.
        case stillMarkedInSDK(SDKVersion)
        /// No SDK recorded, but this deployment target needs an SDK that no
        /// longer marks the API.
        case liftedByDeploymentTarget(SDKVersion)
        /// No SDK recorded, and this deployment target (as the image
        /// records it) does not tell which: not checked.
        case deploymentTargetUntold(String)
    }

    public var platform: SDKPlatform
    public var markedUntil: SDKVersion
    public var unmarkedFrom: SDKVersion
    public var image: String
    public var outcome: Outcome

    public init(platform: SDKPlatform, markedUntil: SDKVersion, unmarkedFrom: SDKVersion, image: String, outcome: Outcome) {
        (self.platform, self.markedUntil, self.unmarkedFrom, self.image, self.outcome) = (
            platform, markedUntil, unmarkedFrom, image, outcome
        )
    }
}
