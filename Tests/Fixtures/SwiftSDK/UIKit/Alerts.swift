/// The alert classes before UIAlertController, whose initializers the SDKs up
/// to iOS 16.5 mark unavailable in extensions, and UIAlertController.

@MainActor
open class UIAlertView {
    public let title: String?

    @available(iOSApplicationExtension, unavailable, message: "Use UIAlertController instead.")
    public init(title: String?, message: String?, delegate: AnyObject?, cancelButtonTitle: String?, otherButtonTitles: String...) {
        self.title = title
    }

    open func show() {}
}

@MainActor
open class UIActionSheet {
    public let title: String?

    @available(iOSApplicationExtension, unavailable, message: "Use UIAlertController instead.")
    public init(
        title: String?, delegate: AnyObject?, cancelButtonTitle: String?, destructiveButtonTitle: String?, otherButtonTitles: String...
    ) {
        self.title = title
    }

    open func show(in view: UIViewController) {}
}

@MainActor
open class UIAlertController: UIViewController {
    public init(title: String?, message: String?, preferredStyle: Int) {
        super.init()
        self.title = title
    }
}

/// A window scene: where StoreKit shows its overlays.
open class UIWindowScene {
    public init() {}
}
