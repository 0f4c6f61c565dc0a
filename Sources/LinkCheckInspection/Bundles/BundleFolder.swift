import Foundation

/// One bundle folder: an app (`.app`), an app extension (`.appex`), a
/// framework (`.framework`) or an xcframework (`.xcframework`), in the
/// layout it has, with what its `Info.plist` says.
public struct BundleFolder: Sendable, Hashable {
    public enum Kind: String, Sendable, Codable {
        /// `.app`: an app, `CFBundlePackageType` `APPL`.
        case app
        /// `.appex`: an app extension, `XPC!`.
        case appExtension = "app-extension"
        /// `.framework`: a framework, `FMWK`, dynamic or static.
        case framework
        /// `.xcframework`: libraries for several platforms, one folder each.
        case xcframework
    }

    /// Where the bundle's files are.
    public enum Layout: String, Sendable, Codable {
        /// iOS, tvOS, watchOS: the binary and `Info.plist` at the top
        /// (`Photos.app/Photos`, `X.framework/X`).
        case flat
        /// A macOS app or extension: `Contents/Info.plist`,
        /// `Contents/MacOS/<executable>`, `Contents/Frameworks`,
        /// `Contents/PlugIns`.
        case contents
        /// A macOS framework: `Versions/A/<executable>`,
        /// `Versions/A/Resources/Info.plist`, reached through
        /// `Versions/Current`.
        case versioned
    }

    /// The folder, as discovered (for an `.ipa`, in the folder it was
    /// unpacked into).
    public var path: String
    /// The folder as reports name it (`Photos.ipa:Payload/Photos.app`).
    public var displayPath: String
    public var kind: Kind
    public var layout: Layout
    /// The `Info.plist`, when one was found and read.
    public var info: InfoPlist?

    public init(path: String, displayPath: String, kind: Kind, layout: Layout, info: InfoPlist?) {
        self.path = path
        self.displayPath = displayPath
        self.kind = kind
        self.layout = layout
        self.info = info
    }

    /// The folder's name: `PhotosShare.appex`.
    public var folderName: String { (path as NSString).lastPathComponent }

    /// The name without the extension: `PhotosShare`.
    public var name: String { (folderName as NSString).deletingPathExtension }

    /// `CFBundleExecutable`, else the bundle's name (what Xcode names it).
    public var executableName: String { info?.executable ?? name }

    /// Where the executable is, relative to the bundle folder
    /// (`PhotosShare`, `Contents/MacOS/Mail`, `Versions/A/SnapKit`).
    func executablePath(version: String?) -> String {
        switch layout {
        case .flat: executableName
        case .contents: "Contents/MacOS/\(executableName)"
        case .versioned: "Versions/\(version ?? "Current")/\(executableName)"
        }
    }

    /// The folder embedded frameworks go in: `Frameworks`, or
    /// `Contents/Frameworks` (macOS), as a path.
    public var frameworksFolder: String {
        path + (layout == .contents ? "/Contents/Frameworks" : "/Frameworks")
    }
}
