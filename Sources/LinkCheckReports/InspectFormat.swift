/// What `linkcheck inspect --format` writes (``InspectRenderer``).
public enum InspectFormat: String, OutputFormat {
    /// What each image holds, `readelf`- and `llvm-objdump`-style
    /// (``InspectRenderer/text(_:)``).
    case text
    /// One JSON document of every image and error
    /// (``InspectRenderer/json(_:callSites:)``).
    case json

    public var standard: String? { nil }
}
