/// Manages one screen of content. Safe in extensions: an extension's
/// principal class is usually a subclass.
@MainActor
open class UIViewController {
    /// The title shown in the navigation bar.
    open var title: String?

    public init() {}

    /// Called once the view is loaded; subclasses call `super`.
    open func viewDidLoad() {}
}
