/// Whether an image may go into an app extension, as the report's findings
/// show it. An image is ``unsafe`` exactly when the report lists an error
/// finding for it (its own, or one reached through what it links or loads)
/// other than a completeness one (`INSP001`, `LINK002`); it is
/// ``incomplete`` when it, or an image it links, could be read only in part
/// and nothing else makes it unsafe: what could not be read is never called
/// safe. An image whose only evidence of an extension-unavailable API is a
/// use by name (warnings) is ``needsReview``: it is never called safe either.
public enum Verdict: String, Sendable, Codable {
    /// No extension-unavailable API, directly or through what it links.
    case extensionSafe = "extension-safe"
    /// Reaches an extension-unavailable API only by name (a class or
    /// selector from a string, ``ByNameUse``), itself or through what it
    /// links, and nothing makes it unsafe: the compiler and the App Store
    /// accept it, its warnings say where a reviewer should look.
    case needsReview = "needs-review"
    /// An error finding: an extension-unavailable API where an extension
    /// can reach it, an architecture problem, an unsafe library loaded.
    case unsafe
    /// Uses extension-unavailable API, but only the containing app links or
    /// loads it (or it is the app): fine as long as no extension ever does.
    case appOnly = "app-only"
    /// The image, or an image it links, could be read only in part (a
    /// truncated or corrupt file, a library found but unreadable, code that
    /// could not be analysed): linkcheck cannot call it safe.
    case incomplete
    /// A slice of a fat file that no process of the app loads (a simulator
    /// slice in a device app, a 32-bit slice in an app whose minimum OS
    /// runs only on 64-bit devices): not checked as code that must be
    /// extension-safe; its findings are notes (``UnloadableSlices``). A
    /// finding about the whole file (no 64-bit slice) still makes it
    /// unsafe.
    case notLoaded = "not-loaded"
}
