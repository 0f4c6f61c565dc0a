import EditorKit
import ImageFilters
import PhotoLibrary
import ShareKit
import UIKit

/// The share extension's principal class: tones the shared photo sepia,
/// saves it to the photo library and opens it in the containing app.
///
/// It uses only extension-safe UIKit API itself; it is unsafe because it
/// links ShareKit, which reaches `UIApplication.shared`, and because it
/// calls PhotoLibrary's app-only `scheduleBackgroundSync()`, whose code is
/// linked into the extension's own image.
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
        PhotoLibrary.save(PhotoMetadata(photoID: photoID, width: edited.width, height: edited.height))
        PhotoLibrary.scheduleBackgroundSync()
        Sharer.openInApp(photoID: photoID)
        return edited
    }
}
