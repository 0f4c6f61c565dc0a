/// BackgroundTasks as Swift sees it: registering a launch handler is the
/// app's alone (marked in the iOS 13.7 to 26.2 SDKs); submitting a request is
/// not marked.

open class BGTask {
    public let identifier: String

    init(identifier: String) {
        self.identifier = identifier
    }

    open func setTaskCompleted(success: Bool) {}
}

open class BGTaskRequest {
    public let identifier: String

    public init(identifier: String) {
        self.identifier = identifier
    }
}

open class BGAppRefreshTaskRequest: BGTaskRequest {}

open class BGTaskScheduler {
    nonisolated(unsafe) public static let shared = BGTaskScheduler()

    init() {}

    @available(iOSApplicationExtension, unavailable, message: "Only the host application may register launch handlers")
    open func register(forTaskWithIdentifier identifier: String, using queue: AnyObject?, launchHandler: @escaping (BGTask) -> Void) -> Bool
    {
        true
    }

    open func submit(_ taskRequest: BGTaskRequest) throws {}
}
