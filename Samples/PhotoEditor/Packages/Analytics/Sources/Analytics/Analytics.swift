/// Usage events, counted in memory.
public enum Analytics {
    nonisolated(unsafe) static var events: [String] = []

    /// Records a usage event. Safe anywhere.
    public static func logEvent(_ name: String) {
        events.append(name)
    }

    /// Records an app launch together with the app's launch options. Only the
    /// containing app is launched, so the framework marks this API the way
    /// the SDK marks its own app-only API.
    @available(iOSApplicationExtension, unavailable, message: "Extensions are not launched; log an event instead.")
    public static func logAppLaunch(options: [String: String]) {
        events.append("launch \(options.count)")
    }
}
