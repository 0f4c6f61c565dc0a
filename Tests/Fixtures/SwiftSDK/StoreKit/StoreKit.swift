/// StoreKit's App Store overlay, which an extension may not show.

import UIKit

open class SKOverlay {
    open class AppConfiguration {
        public let appIdentifier: String

        public init(appIdentifier: String, position: Int) {
            self.appIdentifier = appIdentifier
        }
    }

    public let configuration: AppConfiguration

    public init(configuration: AppConfiguration) {
        self.configuration = configuration
    }

    @available(iOSApplicationExtension, unavailable, message: "Overlays are not available in extensions")
    open func present(in scene: UIWindowScene) {}

    @available(iOSApplicationExtension, unavailable, message: "Overlays are not available in extensions")
    open class func dismiss(in scene: UIWindowScene) {}
}

open class SKStoreReviewController {
    open class func requestReview(in windowScene: UIWindowScene) {}
}
