import UIKit

/// Hands a photo over to the containing app.
///
/// The public API looks harmless, but it reaches `UIApplication.shared`
/// through an internal helper, so this framework is not extension-safe, and
/// neither is any extension that links it.
@MainActor
public enum Sharer {
    /// Opens the containing app on the editor screen for `photoID`.
    ///
    /// - Returns: `true` if the app was opened.
    @discardableResult
    public static func openInApp(photoID: String) -> Bool {
        openInContainingApp("photoeditor://edit?photo=" + photoID)
            || sendThroughResponderChain()
    }
}

/// Opens `url` with the shared application object: the call that makes
/// ShareKit unsafe, one level below the public API.
@MainActor
func openInContainingApp(_ url: String) -> Bool {
    let application = UIApplication.shared
    return application.open(url)
}

/// Selector names of the Objective-C workaround that walks the responder
/// chain to the application object and sends it `openURL:`. App review
/// rejects it; the names are C strings in `.rodata`, where string rules
/// find them.
let responderChainSelectors: [StaticString] = ["sharedApplication", "openURL:"]

/// Stand-in for the responder-chain workaround. There is no Objective-C
/// runtime here, so it only checks that it has selectors to send and fails.
func sendThroughResponderChain() -> Bool {
    !responderChainSelectors.isEmpty && false
}
