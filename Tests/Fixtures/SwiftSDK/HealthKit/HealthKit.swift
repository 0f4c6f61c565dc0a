/// HealthKit's store. An extension asks for authorization; only the app
/// finishes it.

open class HKHealthStore {
    public init() {}

    open class func isHealthDataAvailable() -> Bool {
        false
    }

    open func requestAuthorization(
        toShare typesToShare: Set<String>?, read typesToRead: Set<String>?, completion: @escaping (Bool, (any Error)?) -> Void
    ) {}

    @available(iOSApplicationExtension, unavailable, message: "Not available to extensions")
    open func handleAuthorizationForExtension(completion: @escaping (Bool, (any Error)?) -> Void) {}
}
