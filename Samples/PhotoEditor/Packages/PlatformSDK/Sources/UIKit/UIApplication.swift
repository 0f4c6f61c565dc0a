/// The app's central point of control: the stand-in for UIKit's shared
/// application object.
///
/// An app extension runs inside a host app and has no application object of
/// its own, so the members that reach it are marked unavailable to extensions,
/// as in the real SDK. On Linux the compiler accepts the attribute and
/// ignores it; it still shows in the module's symbol graph, and linkcheck
/// turns each annotation into a rule.
@MainActor
open class UIApplication {
    private static let instance = UIApplication()

    /// The singleton application instance.
    @available(iOSApplicationExtension, unavailable, message: "Use the view controller's extension context instead.")
    public static var shared: UIApplication { instance }

    /// Whether the app may change its icon.
    @available(iOSApplicationExtension, unavailable)
    open var supportsAlternateIcons: Bool { true }

    /// The name of the icon being shown, or `nil` for the primary icon.
    public private(set) var alternateIconName: String?

    /// How many calls to `beginIgnoringInteractionEvents()` are not yet balanced.
    public private(set) var ignoringInteractionEvents = 0

    init() {}

    /// Opens a URL with the app registered for its scheme.
    ///
    /// - Returns: `true` if an app was found for the URL.
    @available(iOSApplicationExtension, unavailable, message: "Use NSExtensionContext.open(_:completionHandler:) instead.")
    @discardableResult
    open func open(_ url: String) -> Bool {
        url.contains("://")
    }

    /// Replaces the app's icon; `nil` restores the primary icon.
    @available(iOSApplicationExtension, unavailable)
    open func setAlternateIconName(_ name: String?) {
        alternateIconName = name
    }

    /// Stops delivering touch events to the app until the matching
    /// `endIgnoringInteractionEvents()`.
    @available(iOSApplicationExtension, unavailable)
    open func beginIgnoringInteractionEvents() {
        ignoringInteractionEvents += 1
    }

    /// Balances one `beginIgnoringInteractionEvents()`.
    @available(iOSApplicationExtension, unavailable)
    open func endIgnoringInteractionEvents() {
        ignoringInteractionEvents = max(0, ignoringInteractionEvents - 1)
    }
}
