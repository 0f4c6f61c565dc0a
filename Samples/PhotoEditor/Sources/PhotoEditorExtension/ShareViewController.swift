import EditorKit
import ImageFilters
import ShareKit
import UIKit

/// The share extension's principal class: tones the shared photo sepia and
/// opens it in the containing app.
///
/// It uses only extension-safe UIKit API itself; it is unsafe because it
/// links ShareKit, which reaches `UIApplication.shared`.
open class ShareViewController: UIViewController {
    /// The extension's activation rule, standing in for
    /// `NSExtensionActivationRule` in its Info.plist. `TRUEPREDICATE` is a
    /// development stub: an app whose extension contains it is rejected.
    public static let activationRule: StaticString = "TRUEPREDICATE"

    override open func viewDidLoad() {
        super.viewDidLoad()
        title = "Edit Photo"
    }

    /// Handles the Post button: returns the edited photo after handing it to
    /// the containing app.
    public func didSelectPost(_ photo: UIImage, photoID: String) -> UIImage {
        EditorSession(photoID: photoID).start()
        let edited = SepiaFilter(intensity: 0.8).apply(to: photo)
        Sharer.openInApp(photoID: photoID)
        return edited
    }
}
