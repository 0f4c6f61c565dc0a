/// PassKit's pass library: suppressing automatic pass presentation is the
/// foreground app's business.

open class PKPassLibrary {
    public init() {}

    open class func isPassLibraryAvailable() -> Bool {
        false
    }

    @available(iOSApplicationExtension, unavailable, message: "Not available to extensions")
    open class func requestAutomaticPassPresentationSuppression(responseHandler: @escaping (Int) -> Void) -> Int {
        0
    }

    @available(iOSApplicationExtension, unavailable, message: "Not available to extensions")
    open class func endAutomaticPassPresentationSuppression(withRequestToken requestToken: Int) {}

    @available(iOSApplicationExtension, unavailable, message: "Not available to extensions")
    open class func isSuppressingAutomaticPassPresentation() -> Bool {
        false
    }
}
