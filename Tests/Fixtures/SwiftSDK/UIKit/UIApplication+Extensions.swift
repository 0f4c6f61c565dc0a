/// The members of UIApplication the sample's stand-in UIKit does not
/// declare, as Swift spells them, with the SDK's markings.

extension UIApplication {
    /// Opens a URL (deprecated since iOS 10; marked in the SDKs up to 16.5).
    @available(iOSApplicationExtension, unavailable)
    @discardableResult
    public func openURL(_ url: String) -> Bool {
        open(url)
    }

    /// Whether `url` has an app to open it. Not marked.
    public func canOpenURL(_ url: String) -> Bool {
        url.contains("://")
    }

    /// Asks for time to finish work in the background; returns the task's
    /// identifier.
    public func beginBackgroundTask(expirationHandler handler: (() -> Void)? = nil) -> Int {
        1
    }

    /// The same, with a name for the debugger.
    public func beginBackgroundTask(withName taskName: String?, expirationHandler handler: (() -> Void)? = nil) -> Int {
        1
    }

    /// Ends the background task `identifier`.
    public func endBackgroundTask(_ identifier: Int) {}

    /// Installs the VoIP keep-alive handler.
    public func setKeepAliveTimeout(_ timeout: Double, handler keepAliveHandler: (() -> Void)? = nil) -> Bool {
        true
    }

    /// Removes the VoIP keep-alive handler.
    public func clearKeepAliveTimeout() {}

    /// How often background fetch may wake the app, in seconds.
    public func setMinimumBackgroundFetchInterval(_ minimumBackgroundFetchInterval: Double) {}
}
