/// A rule's identifier (`AEX001`, `BNDL003`, `LOAD013`): capital letters,
/// then digits (`^[A-Z]{2,8}[0-9]{3,4}$`, ``isWellFormed(_:)``), as rule
/// packs declare it in `rules[].id` and as findings, baselines,
/// suppressions, severity overrides and SARIF's `ruleId` name it. Encoded as
/// its string; ordered by it.
public struct RuleID: RawRepresentable, Hashable, Comparable, Sendable, Codable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    /// The identifier as written (`AEX001`).
    public let rawValue: String

    /// The id `rawValue`, as given: whether it is well formed is for the
    /// rule-pack reader to say (``isWellFormed(_:)``).
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    public init(stringLiteral value: String) {
        rawValue = value
    }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public var description: String { rawValue }

    public static func < (lhs: RuleID, rhs: RuleID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Whether `id` has the shape of a rule id: 2 to 8 ASCII capital
    /// letters, then 3 or 4 ASCII digits.
    public static func isWellFormed(_ id: String) -> Bool {
        let letters = id.prefix { $0.isASCII && $0.isUppercase }
        let digits = id.dropFirst(letters.count)
        return (2...8).contains(letters.count) && (3...4).contains(digits.count)
            && digits.allSatisfy { $0.isASCII && $0.isNumber }
    }
}
