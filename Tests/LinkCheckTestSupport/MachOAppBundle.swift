import Foundation

extension MachOFixtures {
    /// An iOS app bundle being put together in the layout Xcode makes:
    ///
    /// ```
    /// Name.app/Name, Info.plist
    /// Name.app/Frameworks/X.framework/X, Info.plist
    /// Name.app/PlugIns/Y.appex/Y, Info.plist
    /// ```
    ///
    /// Creating the bundle, a framework or an extension writes its folder
    /// and `Info.plist`; the binaries are linked to the paths it returns
    /// (``MachOFixtures/link(_:to:)``).
    public struct AppBundle: Sendable {
        /// `Name.app`.
        public let url: URL
        public let name: String

        /// Creates `directory/name.app` with an `Info.plist` for an app
        /// (`CFBundlePackageType` `APPL`, identifier `com.example.<name>`).
        ///
        /// - Throws: a file system error when the folder or the plist cannot
        ///   be written.
        public init(named name: String, in directory: URL) throws {
            self.name = name
            url = directory.appendingPathComponent("\(name).app")
            try Self.writeInfo(
                in: url,
                [
                    "CFBundleExecutable": name, "CFBundleIdentifier": "com.example.\(name)", "CFBundlePackageType": "APPL",
                    "MinimumOSVersion": "15.0", "UIRequiredDeviceCapabilities": ["arm64"],
                ], format: .xml)
        }

        /// `Name.app/Name`.
        public var executable: URL { url.appendingPathComponent(name) }

        /// `Name.app/Frameworks`, the app's `@executable_path/Frameworks`.
        public var frameworksDirectory: URL { url.appendingPathComponent("Frameworks") }

        /// Creates `Frameworks/<name>.framework` with its `Info.plist`
        /// (`FMWK`); returns the path its binary goes to. Its install name
        /// would be `@rpath/<name>.framework/<name>`.
        ///
        /// - Throws: a file system error.
        public func addFramework(named name: String) throws -> URL {
            let framework = frameworksDirectory.appendingPathComponent("\(name).framework")
            try Self.writeInfo(
                in: framework,
                [
                    "CFBundleExecutable": name, "CFBundleIdentifier": "com.example.\(name)", "CFBundlePackageType": "FMWK",
                ], format: .xml)
            return framework.appendingPathComponent(name)
        }

        /// Creates `PlugIns/<name>.appex` with an `Info.plist` (`XPC!`)
        /// whose `NSExtension` names `extensionPoint`
        /// (`NSExtensionPointIdentifier`) and `principalClass`, written as
        /// a binary plist when `binaryPlist` is set; returns the path the
        /// extension's executable goes to. Link it with
        /// `-rpath @executable_path/../../Frameworks` to reach the app's
        /// frameworks.
        ///
        /// - Throws: a file system error.
        public func addExtension(
            named name: String, extensionPoint: String = "com.apple.share-services", principalClass: String,
            binaryPlist: Bool = false
        ) throws -> URL {
            let appex = url.appendingPathComponent("PlugIns/\(name).appex")
            try Self.writeInfo(
                in: appex,
                [
                    "CFBundleExecutable": name, "CFBundleIdentifier": "com.example.\(self.name).\(name)",
                    "CFBundlePackageType": "XPC!",
                    "NSExtension": ["NSExtensionPointIdentifier": extensionPoint, "NSExtensionPrincipalClass": principalClass],
                ], format: binaryPlist ? .binary : .xml)
            return appex.appendingPathComponent(name)
        }

        /// Writes `info`, with the versions every bundle of an app has
        /// (``MachOFixtures/versionKeys``).
        private static func writeInfo(in bundle: URL, _ info: [String: Any], format: PropertyListSerialization.PropertyListFormat) throws {
            try MachOFixtures.writeInfoPlist(info.merging(MachOFixtures.versionKeys) { own, _ in own }, in: bundle, format: format)
        }
    }

    /// `CFBundleShortVersionString` 1.0 and `CFBundleVersion` 1: App Store
    /// Connect refuses a bundle of an app without them (ITMS-90056, 90057).
    public static var versionKeys: [String: Any] { ["CFBundleShortVersionString": "1.0", "CFBundleVersion": "1"] }

    /// Writes `info` as `bundle/Info.plist` (creating the folder), in XML
    /// or binary form.
    ///
    /// - Throws: a file system error.
    public static func writeInfoPlist(_ info: [String: Any], in bundle: URL, format: PropertyListSerialization.PropertyListFormat) throws {
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        let data = try PropertyListSerialization.data(fromPropertyList: info, format: format, options: 0)
        try data.write(to: bundle.appendingPathComponent("Info.plist"))
    }

    /// The PhotosApp sample's `Photos.app`, built once per test process by
    /// `Samples/PhotosApp/build.sh` (the recipe the main job uses) into a
    /// temporary folder. `Samples/README.md` lists its images.
    ///
    /// - Throws: ``CommandFailure`` with the script's output when it fails.
    public static func photosApp() throws -> URL {
        try MachOFixtureCache.shared.path(for: "PhotosApp") { output in
            let script = photosAppDirectory.appendingPathComponent("build.sh").path
            let result = try Command.capture("/bin/bash", [script, output.path], environment: ["CLANG": Fixtures.clang])
            guard result.status == 0 else { throw CommandFailure(command: "\(script) \(output.path)", output: result) }
            return output.appendingPathComponent("Photos.app")
        }
    }
}
