import Foundation
import LinkCheckImage
import LinkCheckInspection
import LinkCheckRules

/// What one outermost bundle among the inputs holds, with the roles its
/// images were checked in (those its bundles give, or those `--extension`,
/// `--app` and `linkcheck.json` gave instead): the apps, the extensions with
/// their types, the embedded frameworks, an xcframework's libraries.
public struct BundleSummary: Sendable, Equatable {
    /// The outermost bundle (`Photos.app`, `SnapKit.xcframework`).
    public var bundle: BundleFolder
    /// How many apps (`.app` executables).
    public var apps: Int
    /// The extensions, by name, each with its type, in name order.
    public var extensions: [Extension]
    /// How many frameworks: framework bundles, and loose libraries in a
    /// `Frameworks` folder.
    public var frameworks: Int
    /// How many of ``frameworks`` are static (their binary an archive of
    /// object files).
    public var staticFrameworks: Int
    /// An xcframework's libraries, in identifier order.
    public var libraries: [XCFrameworkLibrary]

    /// One `.appex`.
    public struct Extension: Sendable, Equatable {
        /// The bundle's name without `.appex` (`PhotosShare`).
        public var name: String
        /// The extension type its extension point gives (`share`).
        public var type: ExtensionType?
        /// `NSExtensionPointIdentifier`.
        public var extensionPoint: String?
    }

    /// A summary per outermost bundle of `images`, in path order (images
    /// found outside the given paths left out).
    public static func summaries(of images: [ImageReport]) -> [BundleSummary] {
        let placed = images.compactMap { image in image.external ? nil : image.bundle.map { (image, $0) } }
        return Dictionary(grouping: placed, by: { $0.1.outermost.path }).values
            .map { BundleSummary($0) }
            .sorted { $0.bundle.displayPath < $1.bundle.displayPath }
    }

    private init(_ members: [(ImageReport, BundlePlacement)]) {
        bundle = members[0].1.outermost
        var apps = Set<String>()
        var extensions: [String: Extension] = [:]
        var frameworks: [String: Bool] = [:]
        var libraries: [String: XCFrameworkLibrary] = [:]
        for (image, placement) in members {
            // The bundle's executable is named by its bundle; any other image by its own name.
            let own = placement.isExecutable ? placement.innermost.path : image.identity.path
            switch image.role {
            case .app: apps.insert(own)
            case .extension:
                extensions[own] = Extension(
                    name: placement.isExecutable ? placement.innermost.name : image.shortName, type: image.extensionType,
                    extensionPoint: placement.isExecutable ? placement.innermost.info?.extensionPoint : nil)
            case .framework where placement.role != nil:
                let key = placement.innermost.kind == .framework ? placement.innermost.path : image.identity.path
                frameworks[key] = (frameworks[key] ?? true) && image.binary.fileType == .relocatableObject
            case .framework: break
            }
            if let library = placement.library { libraries[library.identifier] = library }
        }
        self.apps = apps.count
        self.extensions = extensions.values.sorted { $0.name < $1.name }
        self.frameworks = frameworks.count
        staticFrameworks = frameworks.values.count { $0 }
        self.libraries = libraries.values.sorted { $0.identifier < $1.identifier }
    }

    /// `Photos.app: 1 app, 2 extensions (PhotosShare, share; PhotosWidget,
    /// widget), 5 embedded frameworks`; `SnapKit.xcframework: 2 libraries
    /// (ios-arm64, ios-arm64_x86_64-simulator)`; `RxAtomic.framework: 1
    /// framework (static)`. What there is not of an app is left out.
    public var line: String {
        var parts: [String] = []
        let isApp = bundle.kind == .app
        if isApp || apps > 0 { parts.append(Self.count(apps, "app")) }
        if isApp || !extensions.isEmpty {
            let named = extensions.map { [$0.name, $0.type?.rawValue].compactMap { $0 }.joined(separator: ", ") }.joined(separator: "; ")
            parts.append(Self.count(extensions.count, "extension") + (named.isEmpty ? "" : " (\(named))"))
        }
        let kind = staticFrameworks == 0 ? "" : staticFrameworks == frameworks ? " (static)" : " (\(staticFrameworks) static)"
        if !libraries.isEmpty {
            parts.append(
                Self.count(libraries.count, "library", plural: "libraries") + " (\(libraries.map(\.identifier).joined(separator: ", ")))"
                    + kind)
        } else if isApp || frameworks > 0 {
            parts.append(Self.count(frameworks, isApp ? "embedded framework" : "framework") + kind)
        }
        return "\(bundle.displayPath): \(parts.joined(separator: ", "))"
    }

    private static func count(_ number: Int, _ noun: String, plural: String? = nil) -> String {
        "\(number) \(number == 1 ? noun : plural ?? noun + "s")"
    }
}
