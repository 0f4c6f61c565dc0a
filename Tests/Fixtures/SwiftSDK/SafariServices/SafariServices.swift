/// SafariServices for macOS: the containing app's side of a Safari app
/// extension.

open class SFSafariApplication {
    open class func getActiveWindow(completionHandler: @escaping (AnyObject?) -> Void) {}

    @available(macOSApplicationExtension, unavailable, message: "Not available to extensions")
    open class func showPreferencesForExtension(withIdentifier identifier: String, completionHandler: (((any Error)?) -> Void)? = nil) {}

    @available(macOSApplicationExtension, unavailable, message: "Not available to extensions")
    open class func dispatchMessage(
        withName messageName: String, toExtensionWithIdentifier identifier: String, userInfo: [String: String]? = nil,
        completionHandler: (((any Error)?) -> Void)? = nil
    ) {}
}
