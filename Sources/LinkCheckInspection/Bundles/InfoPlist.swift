import Foundation

/// What a bundle's `Info.plist` says that linkcheck uses, read with
/// Foundation's property-list reader (`PropertyListSerialization`), which
/// takes the XML and the binary (`bplist00`) forms alike.
public struct InfoPlist: Sendable, Hashable {
    /// The file, as discovered.
    public var path: String
    /// `CFBundleExecutable`: the bundle's binary, by file name.
    public var executable: String?
    /// `CFBundleIdentifier` (`com.example.Photos.PhotosShare`).
    public var identifier: String?
    /// `CFBundlePackageType`: `APPL` (an app), `XPC!` (an app extension),
    /// `FMWK` (a framework), `XFWK` (an xcframework).
    public var packageType: String?
    /// `CFBundleShortVersionString`.
    public var version: String?
    /// `NSExtension.NSExtensionPointIdentifier`, or for an ExtensionKit
    /// extension `EXAppExtensionAttributes.EXExtensionPointIdentifier`
    /// (`com.apple.share-services`).
    public var extensionPoint: String?
    /// The deployment target: `MinimumOSVersion` (iOS, tvOS, watchOS), else
    /// `LSMinimumSystemVersion` (macOS).
    public var minimumOS: String?
    /// An xcframework's `AvailableLibraries`, in order.
    public var libraries: [XCFrameworkLibrary]

    public init(
        path: String, executable: String? = nil, identifier: String? = nil, packageType: String? = nil, version: String? = nil,
        extensionPoint: String? = nil, minimumOS: String? = nil, libraries: [XCFrameworkLibrary] = []
    ) {
        self.path = path
        self.executable = executable
        self.identifier = identifier
        self.packageType = packageType
        self.version = version
        self.extensionPoint = extensionPoint
        self.minimumOS = minimumOS
        self.libraries = libraries
    }

    /// The largest `Info.plist` read, in bytes: real ones are a few
    /// kilobytes.
    public static let maximumSize = 4 << 20

    /// Why an `Info.plist` could not be read.
    public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        public var path: String
        public var reason: String

        public init(path: String, reason: String) {
            self.path = path
            self.reason = reason
        }

        public var description: String { "\(path): \(reason)" }
    }

    /// Reads the property list at `path`.
    ///
    /// - Throws: ``Problem`` when the file cannot be read, is larger than
    ///   ``maximumSize``, is not a property list, or its top is not a
    ///   dictionary. A key of the wrong type is left out, not an error.
    public init(contentsOf path: String) throws(Problem) {
        guard let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int else {
            throw Problem(path: path, reason: "cannot read it")
        }
        guard size <= Self.maximumSize else { throw Problem(path: path, reason: "\(size) bytes, more than an Info.plist can be (\(Self.maximumSize))") }
        guard let data = FileManager.default.contents(atPath: path) else { throw Problem(path: path, reason: "cannot read it") }
        let value: Any
        do {
            value = try PropertyListSerialization.propertyList(from: data, format: nil)
        } catch {
            throw Problem(path: path, reason: "not a property list (XML or binary)")
        }
        guard let top = value as? [String: Any] else { throw Problem(path: path, reason: "its top level is not a dictionary") }
        self.init(path: path, dictionary: top)
    }

    /// The keys of `dictionary`, the top of the `Info.plist` at `path`.
    init(path: String, dictionary top: [String: Any]) {
        self.path = path
        executable = top["CFBundleExecutable"] as? String
        identifier = top["CFBundleIdentifier"] as? String
        packageType = top["CFBundlePackageType"] as? String
        version = top["CFBundleShortVersionString"] as? String
        extensionPoint = (top["NSExtension"] as? [String: Any])?["NSExtensionPointIdentifier"] as? String
            ?? (top["EXAppExtensionAttributes"] as? [String: Any])?["EXExtensionPointIdentifier"] as? String
        minimumOS = top["MinimumOSVersion"] as? String ?? top["LSMinimumSystemVersion"] as? String
        libraries = (top["AvailableLibraries"] as? [Any] ?? []).compactMap { item in
            (item as? [String: Any]).flatMap(XCFrameworkLibrary.init(availableLibrary:))
        }
    }
}
