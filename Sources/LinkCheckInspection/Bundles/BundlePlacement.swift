import Foundation
import LinkCheckRules

/// What the bundle around an image file says it is.
public enum BundleRole: Sendable, Hashable {
    /// The executable of an `.app`: the containing app.
    case app
    /// The executable of an `.appex`, of the type its extension point names
    /// (``ExtensionPoints/type(of:)``; `nil` when it names none linkcheck
    /// knows).
    case appExtension(type: ExtensionType?)
    /// A binary of a `.framework` (or of an `.xcframework`), or a library
    /// in a bundle's `Frameworks` folder.
    case framework
}

/// Where one image file sits among the bundles around it.
public struct BundlePlacement: Sendable, Hashable {
    /// The outermost bundle: the app (`Photos.app`, also inside an `.ipa`'s
    /// `Payload` or an `.xcarchive`'s `Products/Applications`), the
    /// xcframework, or the framework or extension given alone.
    public var outermost: BundleFolder
    /// The bundle whose file it is: the extension, the framework, the app;
    /// the xcframework for a library not in a framework.
    public var innermost: BundleFolder
    /// The nearest app around the file (the outermost one, or a watch app
    /// inside it); `nil` outside apps.
    public var containingApp: BundleFolder?
    /// The file's path inside ``outermost``
    /// (`PlugIns/PhotosShare.appex/PhotosShare`).
    public var place: String
    /// The file is ``innermost``'s executable (`CFBundleExecutable`, in the
    /// bundle's layout).
    public var isExecutable: Bool
    public var role: BundleRole?
    /// The xcframework library the file is in.
    public var library: XCFrameworkLibrary?

    public init(
        outermost: BundleFolder, innermost: BundleFolder, containingApp: BundleFolder?, place: String, isExecutable: Bool,
        role: BundleRole?, library: XCFrameworkLibrary?
    ) {
        self.outermost = outermost
        self.innermost = innermost
        self.containingApp = containingApp
        self.place = place
        self.isExecutable = isExecutable
        self.role = role
        self.library = library
    }

    /// The folder the file, or the framework that holds it, sits in: for
    /// `Photos.app/Frameworks/Uploader.framework/Uploader` it is
    /// `Photos.app/Frameworks`, for a loose library the library's folder.
    public var embeddingFolder: String {
        let holder = innermost.kind == .framework ? innermost.path : place.isEmpty ? outermost.path : outermost.path + "/" + place
        return (holder as NSString).deletingLastPathComponent
    }
}

extension BundlePlacement {
    /// The bundle makes the file an app extension.
    public var isExtension: Bool {
        if case .appExtension = role { true } else { false }
    }

    /// The extension type, for an extension of a known extension point.
    public var extensionType: ExtensionType? {
        if case .appExtension(let type) = role { type } else { nil }
    }
}
