import Analytics

/// An editing session shared by the app and the extension.
///
/// It looks extension-safe, and is as far as the SDK's rules go, but it calls
/// `Analytics.logAppLaunch(options:)`, which its own framework marks
/// unavailable in app extensions: only the rules extracted from that
/// annotation catch it.
public struct EditorSession {
    public let photoID: String

    public init(photoID: String) {
        self.photoID = photoID
        Analytics.logEvent("session")
    }

    /// Starts the session, logging it as a launch.
    public func start() {
        Analytics.logAppLaunch(options: ["photo": photoID])
    }
}
