/// The SDKs in which a rule's API was found marked unavailable in app
/// extensions, as a rule pack writes it:
///
/// ```json
/// "sdk": {"platform": "ios", "markedFrom": "9.3", "markedUntil": "16.5", "unmarkedFrom": "17.0"}
/// ```
///
/// `markedFrom` is the first SDK examined that marks the API (older ones may
/// too); `markedUntil` the last one that does and `unmarkedFrom` the first
/// one that no longer does, both present when the marking was lifted and
/// both absent while the newest SDK examined still marks it. The analysis
/// compares them with the SDK an image records (`LC_BUILD_VERSION`).
public struct SDKRange: Sendable, Equatable, CustomStringConvertible {
    public var platform: SDKPlatform
    public var markedFrom: SDKVersion
    /// The last SDK seen marking the API, when a later one no longer does.
    public var markedUntil: SDKVersion?
    /// The first SDK seen without the marking: from it on, the API is no
    /// longer unavailable to extensions.
    public var unmarkedFrom: SDKVersion?

    public init(platform: SDKPlatform, markedFrom: SDKVersion, markedUntil: SDKVersion? = nil, unmarkedFrom: SDKVersion? = nil) {
        self.platform = platform
        self.markedFrom = markedFrom
        self.markedUntil = markedUntil
        self.unmarkedFrom = unmarkedFrom
    }

    /// Whether a later SDK lifted the marking.
    public var isLifted: Bool { unmarkedFrom != nil }

    /// `iOS 9.3–16.5 (not marked from 17.0)`, or `iOS 9.3 and later` while
    /// still marked.
    public var description: String {
        guard let markedUntil, let unmarkedFrom else { return "\(platform.name) \(markedFrom) and later" }
        return "\(platform.name) \(markedFrom)–\(markedUntil) (not marked from \(unmarkedFrom))"
    }
}

/// The platform whose SDKs an ``SDKRange`` counts, as rule packs spell it.
public enum SDKPlatform: String, Sendable, CaseIterable {
    case iOS = "ios"
    case macOS = "macos"
    case tvOS = "tvos"
    case watchOS = "watchos"
    case visionOS = "visionos"

    /// `iOS`, `macOS`, … as Apple writes them.
    public var name: String {
        switch self {
        case .iOS: "iOS"
        case .macOS: "macOS"
        case .tvOS: "tvOS"
        case .watchOS: "watchOS"
        case .visionOS: "visionOS"
        }
    }
}

/// An SDK or OS version, `major.minor` or `major.minor.patch`, compared
/// number by number (`9.3` < `16.5` < `17.0`; `17` equals `17.0`).
public struct SDKVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The numbers, without trailing zeros beyond the first two.
    public let components: [Int]

    /// Parses `16.5`, `17.0` or `13.4.1`; `nil` for anything else (at most
    /// three numbers of at most four digits each).
    public init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count),
            parts.allSatisfy({ !$0.isEmpty && $0.count <= 4 && $0.allSatisfy { $0.isASCII && $0.isNumber } })
        else { return nil }
        var numbers = parts.compactMap { Int($0) }
        while numbers.count > 2 && numbers.last == 0 { numbers.removeLast() }
        while numbers.count < 2 { numbers.append(0) }
        components = numbers
    }

    public static func < (lhs: SDKVersion, rhs: SDKVersion) -> Bool {
        for index in 0..<max(lhs.components.count, rhs.components.count) {
            let left = index < lhs.components.count ? lhs.components[index] : 0
            let right = index < rhs.components.count ? rhs.components[index] : 0
            if left != right { return left < right }
        }
        return false
    }

    /// `16.5`, `17.0`, `13.4.1`.
    public var description: String { components.map(String.init).joined(separator: ".") }
}
