import LinkCheckImage

/// The platform and OS versions an image was built for: one
/// `LC_BUILD_VERSION` (`build_version_command`) or `LC_VERSION_MIN_*`
/// (`version_min_command`).
public struct PlatformVersion: Sendable, Hashable {
    /// The platform: from `build_version_command.platform`, or named by the
    /// `LC_VERSION_MIN_*` command (which has no simulator variants, so a
    /// simulator slice built that way reads as its device platform).
    public var platform: Platform
    /// `minos` (`version`): the lowest OS version it runs on.
    public var minimumOS: PackedVersion
    /// `sdk`: the SDK it was linked against; `nil` when 0 ("n/a").
    public var sdk: PackedVersion?
    /// Which command it came from.
    public var source: PlatformVersionSource
}

/// Which command a ``PlatformVersion`` was read from.
public enum PlatformVersionSource: String, Sendable, Hashable {
    case buildVersion = "LC_BUILD_VERSION"
    case versionMinMacOSX = "LC_VERSION_MIN_MACOSX"
    case versionMinIPhoneOS = "LC_VERSION_MIN_IPHONEOS"
    case versionMinTVOS = "LC_VERSION_MIN_TVOS"
    case versionMinWatchOS = "LC_VERSION_MIN_WATCHOS"
}

/// `PLATFORM_*` (`<mach-o/loader.h>`).
public enum Platform: Sendable, Hashable, CustomStringConvertible {
    case macOS, iOS, tvOS, watchOS, bridgeOS, macCatalyst
    case iOSSimulator, tvOSSimulator, watchOSSimulator
    case driverKit, visionOS, visionOSSimulator
    /// A value this reader does not know.
    case other(UInt32)

    /// From `build_version_command.platform`.
    public init(rawValue: UInt32) {
        switch rawValue {
        case 1: self = .macOS
        case 2: self = .iOS
        case 3: self = .tvOS
        case 4: self = .watchOS
        case 5: self = .bridgeOS
        case 6: self = .macCatalyst
        case 7: self = .iOSSimulator
        case 8: self = .tvOSSimulator
        case 9: self = .watchOSSimulator
        case 10: self = .driverKit
        case 11: self = .visionOS
        case 12: self = .visionOSSimulator
        default: self = .other(rawValue)
        }
    }

    /// The `PLATFORM_*` value.
    public var rawValue: UInt32 {
        switch self {
        case .macOS: 1
        case .iOS: 2
        case .tvOS: 3
        case .watchOS: 4
        case .bridgeOS: 5
        case .macCatalyst: 6
        case .iOSSimulator: 7
        case .tvOSSimulator: 8
        case .watchOSSimulator: 9
        case .driverKit: 10
        case .visionOS: 11
        case .visionOSSimulator: 12
        case .other(let raw): raw
        }
    }

    /// Whether it is a simulator platform.
    public var isSimulator: Bool { [.iOSSimulator, .tvOSSimulator, .watchOSSimulator, .visionOSSimulator].contains(self) }

    /// The name `llvm-objdump --private-headers` prints for it (`macos`,
    /// `ios`, `macCatalyst`, `iossimulator`, `xros`, …:
    /// `MachOObjectFile::getBuildPlatform`) or the number.
    public var description: String {
        switch self {
        case .macOS: "macos"
        case .iOS: "ios"
        case .tvOS: "tvos"
        case .watchOS: "watchos"
        case .bridgeOS: "bridgeos"
        case .macCatalyst: "macCatalyst"
        case .iOSSimulator: "iossimulator"
        case .tvOSSimulator: "tvossimulator"
        case .watchOSSimulator: "watchossimulator"
        case .driverKit: "driverkit"
        case .visionOS: "xros"
        case .visionOSSimulator: "xrossimulator"
        case .other(let raw): "\(raw)"
        }
    }
}

extension PlatformVersion {
    /// Reads an `LC_BUILD_VERSION` or `LC_VERSION_MIN_*` command; `nil`, with
    /// a warning, when it is too short.
    static func read(_ command: LoadCommand, in image: ByteReader, warnings: inout ReadWarnings) -> PlatformVersion? {
        let bytes = command.bytes(in: image)
        if command.command == LoadCommandType.buildVersion {
            guard let record = try? bytes.record("build_version_command", at: 0, size: 24) else {
                warnings.add(command.name, at: bytes.fileOffset, "shorter than build_version_command; skipped")
                return nil
            }
            let sdk = record.u32(16)
            return PlatformVersion(
                platform: Platform(rawValue: record.u32(8)), minimumOS: PackedVersion(rawValue: record.u32(12)),
                sdk: sdk == 0 ? nil : PackedVersion(rawValue: sdk), source: .buildVersion)
        }
        let (platform, source): (Platform, PlatformVersionSource)
        switch command.command {
        case LoadCommandType.versionMinMacOSX: (platform, source) = (.macOS, .versionMinMacOSX)
        case LoadCommandType.versionMinIPhoneOS: (platform, source) = (.iOS, .versionMinIPhoneOS)
        case LoadCommandType.versionMinTVOS: (platform, source) = (.tvOS, .versionMinTVOS)
        default: (platform, source) = (.watchOS, .versionMinWatchOS)
        }
        guard let record = try? bytes.record("version_min_command", at: 0, size: 16) else {
            warnings.add(command.name, at: bytes.fileOffset, "shorter than version_min_command; skipped")
            return nil
        }
        let sdk = record.u32(12)
        return PlatformVersion(
            platform: platform, minimumOS: PackedVersion(rawValue: record.u32(8)),
            sdk: sdk == 0 ? nil : PackedVersion(rawValue: sdk), source: source)
    }
}
