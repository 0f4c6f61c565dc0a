import LinkCheckImage
import LinkCheckRules

/// Whether the SDK an image was built with still marks a rule's API
/// unavailable in app extensions: the rule's ``SDKRange`` against the
/// platform, deployment target and SDK the image records
/// (`LC_BUILD_VERSION`, ``BinaryImage/platform``).
///
/// Only a lifted marking (``SDKRange/unmarkedFrom``) changes anything: an
/// image built with that SDK or a later one (or whose deployment target is
/// that version or later, since an image's SDK is never older than its
/// deployment target) gets a warning instead of an error. An image built
/// with an older SDK keeps the rule's severity, and so does one whose SDK
/// is unknown (every ELF image, a Mach-O image that records none) or whose
/// platform the range does not count: what could not be compared is not
/// called safe. Each case says so in the finding's message.
struct SDKMarking: Equatable {
    /// Whether the image's SDK no longer marks the API.
    let isLifted: Bool
    /// What the finding says about it; `nil` when the rule has no lifted
    /// marking.
    let remark: SDKMarkingComparison?

    /// The marking of `range` for `image` (named `name` in the remark).
    init(_ range: SDKRange?, image: BinaryImage, name: String) {
        guard let range, let until = range.markedUntil, let lifted = range.unmarkedFrom else {
            self.init(isLifted: false, remark: nil)
            return
        }
        let comparison = { (outcome: SDKMarkingComparison.Outcome) in
            SDKMarkingComparison(platform: range.platform, markedUntil: until, unmarkedFrom: lifted, image: name, outcome: outcome)
        }
        guard let built = image.platform else {
            self.init(isLifted: false, remark: comparison(.noSDKRecorded))
            return
        }
        guard Self.family(of: built.platform) == range.platform else {
            self.init(isLifted: false, remark: comparison(.otherPlatform(built.platform)))
            return
        }
        if let sdk = built.sdk.flatMap(SDKVersion.init) {
            self.init(isLifted: sdk >= lifted, remark: comparison(sdk >= lifted ? .liftedInSDK(sdk) : .stillMarkedInSDK(sdk)))
        } else if let minimum = SDKVersion(built.minimumOS), minimum >= lifted {
            self.init(isLifted: true, remark: comparison(.liftedByDeploymentTarget(minimum)))
        } else {
            self.init(isLifted: false, remark: comparison(.deploymentTargetUntold(built.minimumOS)))
        }
    }

    private init(isLifted: Bool, remark: SDKMarkingComparison?) {
        self.isLifted = isLifted
        self.remark = remark
    }

    /// The SDKs whose versions a platform's images record: the simulators
    /// and Mac Catalyst count iOS's; `nil` for bridgeOS and DriverKit.
    static func family(of platform: Platform) -> SDKPlatform? {
        switch platform {
        case .iOS, .iOSSimulator, .macCatalyst: .iOS
        case .macOS: .macOS
        case .tvOS, .tvOSSimulator: .tvOS
        case .watchOS, .watchOSSimulator: .watchOS
        case .visionOS, .visionOSSimulator: .visionOS
        case .bridgeOS, .driverKit: nil
        }
    }
}

extension SeverityPolicy {
    /// ``severity(of:on:)`` for a finding of `rule` on image `index` whose
    /// API image `origin` uses (the image itself, or for a transitive
    /// finding the one at the end of the chain): a warning at most when
    /// `origin`'s SDK no longer marks the API (``SDKMarking``), with what
    /// the comparison found added to the remark.
    func severity(of rule: Rule, on index: Int, usedBy origin: BinaryImage) -> (
        severity: Severity, remarks: [FindingRemark], markingLifted: Bool
    ) {
        let (level, role) = severity(of: rule, on: index)
        let marking = SDKMarking(rule.sdk, image: origin, name: origin.shortName)
        let remarks = [role, marking.remark.map(FindingRemark.sdkMarking)].compactMap(\.self)
        return (marking.isLifted ? min(level, .warning) : level, remarks, marking.isLifted)
    }
}
