/// A check a function makes that may keep a use by name in it from running
/// where the API is unavailable: what a reviewer looks for before such a
/// use.
public enum GuardCheck: Sendable, Hashable {
    /// It sends `respondsToSelector:` or `instancesRespondToSelector:`,
    /// asking about this selector (`nil`: one the code does not show).
    case respondsToSelector(String?)
    /// It loads a string that tells an app extension from an app: the
    /// bundle path's `.appex` suffix or an `NSExtension` key of the
    /// `Info.plist` (``extensionMarkers``).
    case extensionCheck(String)

    /// The strings whose use tells "am I an app extension": the bundle
    /// path's suffix and the `Info.plist` keys only an extension has.
    public static let extensionMarkers: Set<String> = [".appex", "appex", "NSExtension", "NSExtensionPointIdentifier"]
}
