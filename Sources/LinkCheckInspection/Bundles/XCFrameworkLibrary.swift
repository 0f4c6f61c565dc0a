/// One library of an xcframework: an `AvailableLibraries` entry of its
/// `Info.plist`, or what the folder's name says when there is none
/// (`ios-arm64_x86_64-simulator`). Encoded as it is in the JSON report
/// (`bundles[].libraries`, `images[].bundle.library`).
public struct XCFrameworkLibrary: Sendable, Hashable, Encodable {
    /// `LibraryIdentifier`: the folder inside the xcframework
    /// (`ios-arm64`, `ios-arm64_x86_64-simulator`).
    public var identifier: String
    /// `LibraryPath`: the framework or library inside that folder
    /// (`SnapKit.framework`); `nil` when read from the folder's name.
    public var libraryPath: String?
    /// `SupportedPlatform`: `ios`, `macos`, `tvos`, `watchos`, `xros`.
    public var platform: String
    /// `SupportedPlatformVariant`: `simulator` or `maccatalyst`; `nil` for
    /// the device.
    public var variant: String?
    /// `SupportedArchitectures` (`arm64`, `x86_64`).
    public var architectures: [String]

    public init(identifier: String, libraryPath: String?, platform: String, variant: String?, architectures: [String]) {
        self.identifier = identifier
        self.libraryPath = libraryPath
        self.platform = platform
        self.variant = variant
        self.architectures = architectures
    }

    /// An `AvailableLibraries` entry; `nil` without `LibraryIdentifier` and
    /// `SupportedPlatform`.
    init?(availableLibrary entry: [String: Any]) {
        guard let identifier = entry["LibraryIdentifier"] as? String, let platform = entry["SupportedPlatform"] as? String else {
            return nil
        }
        self.init(
            identifier: identifier, libraryPath: entry["LibraryPath"] as? String, platform: platform,
            variant: entry["SupportedPlatformVariant"] as? String, architectures: entry["SupportedArchitectures"] as? [String] ?? [])
    }

    /// The names Xcode gives a library's folder: `PLATFORM-ARCHS[-VARIANT]`,
    /// the architectures joined by `_` (`ios-arm64_x86_64-simulator`,
    /// `macos-arm64_x86_64`, `ios-arm64_x86_64-maccatalyst`); `nil` for
    /// another name.
    public init?(folderName name: String) {
        let parts = name.split(separator: "-").map(String.init)
        guard parts.count == 2 || parts.count == 3, !parts[0].isEmpty else { return nil }
        if parts.count == 3 { guard ["simulator", "maccatalyst"].contains(parts[2]) else { return nil } }
        guard let architectures = Self.architectures(in: parts[1]) else { return nil }
        self.init(
            identifier: name, libraryPath: nil, platform: parts[0], variant: parts.count == 3 ? parts[2] : nil, architectures: architectures
        )
    }

    /// Apple's architecture names, longest first where one starts another.
    static let architectureNames = ["arm64_32", "arm64e", "arm64", "x86_64h", "x86_64", "armv7k", "armv7s", "armv7", "i386"]

    /// `arm64_x86_64` → `[arm64, x86_64]`; `nil` when a part is no
    /// architecture name.
    static func architectures(in text: String) -> [String]? {
        var rest = Substring(text)
        var found: [String] = []
        while !rest.isEmpty {
            guard
                let name = architectureNames.first(where: {
                    rest.hasPrefix($0) && (rest.count == $0.count || rest.dropFirst($0.count).hasPrefix("_"))
                })
            else { return nil }
            found.append(name)
            rest = rest.dropFirst(name.count)
            if rest.hasPrefix("_") {
                rest = rest.dropFirst()
                if rest.isEmpty { return nil }
            }
        }
        return found.isEmpty ? nil : found
    }
}
