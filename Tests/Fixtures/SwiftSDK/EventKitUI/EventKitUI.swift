/// EventKitUI's view controllers, which extensions may not show
/// (EKCalendarChooser only in the iOS 9.3 to 12.4 SDKs).

import UIKit

@available(iOSApplicationExtension, unavailable, message: "EventKitUI is not supported in extensions")
open class EKEventEditViewController: UIViewController {
    public override init() {
        super.init()
    }
}

@available(iOSApplicationExtension, unavailable, message: "EventKitUI is not supported in extensions")
open class EKEventViewController: UIViewController {
    public override init() {
        super.init()
    }
}

@available(iOSApplicationExtension, unavailable, message: "EventKitUI is not supported in extensions")
open class EKCalendarChooser: UIViewController {
    public init(selectionStyle: Int, displayStyle: Int) {
        super.init()
    }
}
