/// Whether an image may be embedded in (or be) an app extension.
public enum Verdict: String, Sendable, Codable {
    /// No extension-unavailable API, directly or through what it links.
    case extensionSafe = "extension-safe"
    /// Uses extension-unavailable API where an extension can reach it.
    case unsafe
    /// Uses extension-unavailable API, but only the containing app links it
    /// (or it is the app): fine as long as no extension ever links it.
    case appOnly = "app-only"
}
