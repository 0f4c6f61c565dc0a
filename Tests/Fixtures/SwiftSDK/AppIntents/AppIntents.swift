/// AppIntents: an intent that brings the app to the foreground belongs to the
/// app, in every kind of extension.

public protocol AppIntent {
    func perform() async throws
}

@available(iOSApplicationExtension, unavailable)
@available(macOSApplicationExtension, unavailable)
public protocol ForegroundContinuableIntent: AppIntent {}

public struct NeedsForegroundError: Error {
    public let dialog: String?
}

@available(iOSApplicationExtension, unavailable)
@available(macOSApplicationExtension, unavailable)
extension ForegroundContinuableIntent {
    public func needsToContinueInForegroundError(_ dialog: String? = nil, continuation: (@MainActor () async throws -> Void)? = nil)
        -> any Error
    {
        NeedsForegroundError(dialog: dialog)
    }

    public func requestToContinueInForeground(_ dialog: String? = nil, continuation: (@MainActor () async throws -> Void)? = nil)
        async throws
    {}
}
