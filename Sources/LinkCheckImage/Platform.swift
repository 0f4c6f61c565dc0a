/// The platform a Mach-O image is built for, with its minimum OS and SDK
/// (`LC_BUILD_VERSION`, or `LC_VERSION_MIN_*` in older images).
public struct PlatformVersion: Sendable, Hashable {
    public var platform: Platform
    /// The deployment target, `x.y` or `x.y.z`.
    public var minimumOS: String
    /// The SDK the image was built with, when recorded (`n/a` is `nil`).
    public var sdk: String?

    public init(platform: Platform, minimumOS: String, sdk: String? = nil) {
        self.platform = platform
        self.minimumOS = minimumOS
        self.sdk = sdk
    }
}

/// Apple's platforms as `LC_BUILD_VERSION` numbers them (`PLATFORM_*` in
/// `<mach-o/loader.h>`); a simulator and Mac Catalyst are platforms of their
/// own, never mixed with the device in one process.
public enum Platform: String, Sendable, Hashable, Codable, CaseIterable {
    case macOS = "macos"
    case iOS = "ios"
    case tvOS = "tvos"
    case watchOS = "watchos"
    case bridgeOS = "bridgeos"
    case macCatalyst = "maccatalyst"
    case iOSSimulator = "ios-simulator"
    case tvOSSimulator = "tvos-simulator"
    case watchOSSimulator = "watchos-simulator"
    case driverKit = "driverkit"
    case visionOS = "visionos"
    case visionOSSimulator = "visionos-simulator"

    /// `PLATFORM_MACOS` (1) … `PLATFORM_VISIONOS_SIMULATOR` (12); `nil` for
    /// a number this list does not know.
    public init?(buildVersionPlatform number: UInt32) {
        let all: [UInt32: Platform] = [
            1: .macOS, 2: .iOS, 3: .tvOS, 4: .watchOS, 5: .bridgeOS, 6: .macCatalyst, 7: .iOSSimulator,
            8: .tvOSSimulator, 9: .watchOSSimulator, 10: .driverKit, 11: .visionOS, 12: .visionOSSimulator,
        ]
        guard let platform = all[number] else { return nil }
        self = platform
    }

    /// Whether this is a simulator platform.
    public var isSimulator: Bool {
        [.iOSSimulator, .tvOSSimulator, .watchOSSimulator, .visionOSSimulator].contains(self)
    }
}
