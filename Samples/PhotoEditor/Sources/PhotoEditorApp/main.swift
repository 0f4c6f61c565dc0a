// The containing app. It may use everything, app-only API included: what it
// links is checked only for what it brings into the extension.
import ImageFilters
import LegacyLoader
import PhotoLibrary
import ShareKit
import UIKit

let photo = UIImage(width: 2, height: 2, color: 0x8040_20FF)
let edited = SepiaFilter().apply(to: photo)
print("edited \(edited.width)x\(edited.height) photo")
PhotoLibrary.save(PhotoMetadata(photoID: "42", width: edited.width, height: edited.height))
PhotoLibrary.scheduleBackgroundSync()

let application = UIApplication.shared
if application.supportsAlternateIcons {
    application.setAlternateIconName("Sepia")
}

if let effects = LegacyLoader.loadPhotoEffects() {
    print("loaded \(effects) live effects")
} else {
    print("PhotoEffects plug-in not loaded")
}

print(Sharer.openInApp(photoID: "42") ? "opened in app" : "could not open")
