/// What looking up the source of an image's addresses found: the sources,
/// and notes on debug information that was there but could not be used.
/// A note never costs a finding: its call sites just have no source.
public struct SourceLookup: Sendable, Equatable {
    /// The source of each address the debug information covers.
    public var sources: [UInt64: AddressSource]
    /// Why some or all addresses have no source although debug information
    /// was looked for, each a sentence naming the file: a dSYM of another
    /// build (its `LC_UUID` differs), a damaged or truncated dSYM, object
    /// files of a debug map that are missing or changed since the link, a
    /// line table that cannot be decoded.
    public var notes: [String]

    public init(sources: [UInt64: AddressSource] = [:], notes: [String] = []) {
        (self.sources, self.notes) = (sources, notes)
    }
}
