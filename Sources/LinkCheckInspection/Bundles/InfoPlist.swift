import Foundation

/// What a bundle's `Info.plist` says that linkcheck uses, read with
/// Foundation's property-list reader (`PropertyListSerialization`), which
/// takes the XML and the binary (`bplist00`) forms alike. Encoded as the
/// JSON report gives it (`images[].bundle.info`): the keys in
/// ``CodingKeys``, not the libraries (``BundleSummary`` lists those).
public struct InfoPlist: Sendable, Hashable, Encodable {
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
    /// `CFBundleVersion`, the build number (`240`); `nil` when absent or
    /// not a string.
    public var bundleVersion: String?
    /// `NSExtension.NSExtensionPointIdentifier`, or for an ExtensionKit
    /// extension `EXAppExtensionAttributes.EXExtensionPointIdentifier`
    /// (`com.apple.share-services`).
    public var extensionPoint: String?
    /// The deployment target: `MinimumOSVersion` (iOS, tvOS, watchOS), else
    /// `LSMinimumSystemVersion` (macOS).
    public var minimumOS: String?
    /// An xcframework's `AvailableLibraries`, in order.
    public var libraries: [XCFrameworkLibrary]
    /// The `NSExtension` dictionary's keys the App Store checks, when the
    /// dictionary is there.
    public var nsExtension: ExtensionKeys?

    /// What an app extension's `NSExtension` dictionary names: each `nil`
    /// when absent or not a string.
    public struct ExtensionKeys: Sendable, Hashable {
        /// `NSExtensionPointIdentifier` (`com.apple.share-services`).
        public var pointIdentifier: String?
        /// `NSExtensionPrincipalClass` (`ShareViewController`).
        public var principalClass: String?
        /// `NSExtensionMainStoryboard` (`MainInterface`).
        public var mainStoryboard: String?

        public init(pointIdentifier: String? = nil, principalClass: String? = nil, mainStoryboard: String? = nil) {
            self.pointIdentifier = pointIdentifier
            self.principalClass = principalClass
            self.mainStoryboard = mainStoryboard
        }
    }

    enum CodingKeys: String, CodingKey {
        case path, executable, identifier, packageType, version, extensionPoint, minimumOS
    }

    public init(
        path: String, executable: String? = nil, identifier: String? = nil, packageType: String? = nil, version: String? = nil,
        extensionPoint: String? = nil, minimumOS: String? = nil, libraries: [XCFrameworkLibrary] = [], bundleVersion: String? = nil,
        nsExtension: ExtensionKeys? = nil
    ) {
        self.path = path
        self.executable = executable
        self.identifier = identifier
        self.packageType = packageType
        self.version = version
        self.extensionPoint = extensionPoint
        self.minimumOS = minimumOS
        self.libraries = libraries
        self.bundleVersion = bundleVersion
        self.nsExtension = nsExtension
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
    ///   ``maximumSize``, is not a property list, its top is not a
    ///   dictionary, or a key linkcheck uses has a value of the wrong type
    ///   (`CFBundleExecutable` a number, `NSExtension` not a dictionary, an
    ///   `AvailableLibraries` entry without its `LibraryIdentifier`).
    public init(contentsOf path: String) throws(Problem) {
        guard let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int else {
            throw Problem(path: path, reason: "cannot read it")
        }
        guard size <= Self.maximumSize else {
            throw Problem(path: path, reason: "\(size) bytes, more than an Info.plist can be (\(Self.maximumSize))")
        }
        guard let data = FileManager.default.contents(atPath: path) else { throw Problem(path: path, reason: "cannot read it") }
        let value: Any
        do {
            value = try PropertyListSerialization.propertyList(from: data, format: nil)
        } catch {
            throw Problem(path: path, reason: "not a property list (XML or binary)")
        }
        guard let top = value as? [String: Any] else { throw Problem(path: path, reason: "its top level is not a dictionary") }
        try self.init(path: path, dictionary: top)
    }

    /// The keys of `dictionary`, the top of the `Info.plist` at `path`.
    ///
    /// - Throws: ``Problem`` for a key linkcheck uses whose value has the
    ///   wrong type, named by its key path (`NSExtension.NSExtensionPointIdentifier`).
    init(path: String, dictionary top: [String: Any]) throws(Problem) {
        func value<T>(_ key: String, in dictionary: [String: Any], at keyPath: String = "", as type: T.Type, named kind: String)
            throws(Problem) -> T?
        {
            guard let found = dictionary[key] else { return nil }
            guard let typed = found as? T else { throw Problem(path: path, reason: "its \(keyPath)\(key) is not \(kind)") }
            return typed
        }
        func string(_ key: String, in dictionary: [String: Any] = top, at keyPath: String = "") throws(Problem) -> String? {
            try value(key, in: dictionary, at: keyPath, as: String.self, named: "a string")
        }
        self.path = path
        executable = try string("CFBundleExecutable")
        identifier = try string("CFBundleIdentifier")
        packageType = try string("CFBundlePackageType")
        version = try string("CFBundleShortVersionString")
        bundleVersion = top["CFBundleVersion"] as? String
        let nsExtension = try value("NSExtension", in: top, as: [String: Any].self, named: "a dictionary")
        let attributes = try value("EXAppExtensionAttributes", in: top, as: [String: Any].self, named: "a dictionary")
        let point =
            try nsExtension.map { dictionary throws(Problem) in try string("NSExtensionPointIdentifier", in: dictionary, at: "NSExtension.")
            } ?? nil
        let kitPoint =
            try attributes.map { dictionary throws(Problem) in
                try string("EXExtensionPointIdentifier", in: dictionary, at: "EXAppExtensionAttributes.")
            } ?? nil
        extensionPoint = point ?? kitPoint
        self.nsExtension = nsExtension.map {
            ExtensionKeys(
                pointIdentifier: point, principalClass: $0["NSExtensionPrincipalClass"] as? String,
                mainStoryboard: $0["NSExtensionMainStoryboard"] as? String)
        }
        let iOSMinimum = try string("MinimumOSVersion")
        let macOSMinimum = try string("LSMinimumSystemVersion")
        minimumOS = iOSMinimum ?? macOSMinimum
        var libraries: [XCFrameworkLibrary] = []
        for (index, item) in (try value("AvailableLibraries", in: top, as: [Any].self, named: "an array") ?? []).enumerated() {
            guard let library = (item as? [String: Any]).flatMap(XCFrameworkLibrary.init(availableLibrary:)) else {
                throw Problem(
                    path: path,
                    reason:
                        "its AvailableLibraries[\(index)] is not a library (a dictionary with a LibraryIdentifier and a SupportedPlatform)")
            }
            libraries.append(library)
        }
        self.libraries = libraries
    }
}
