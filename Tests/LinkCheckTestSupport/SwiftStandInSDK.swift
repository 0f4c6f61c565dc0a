import Foundation

/// The stand-in Swift SDK that Swift sources for ELF compile against: the
/// modules of Apple's frameworks as Swift declares them, with their
/// `@available(…ApplicationExtension, unavailable)` markings, built as
/// module interfaces only (`swiftc -emit-module`, library evolution on, as
/// Apple's are), so that a client's calls import the symbols a rule's Swift
/// path names.
///
/// UIKit and AVFoundation are the Samples' stand-ins
/// (`Samples/PhotoEditor/Packages/PlatformSDK/Sources`) plus the members the
/// sample does not use (`Tests/Fixtures/SwiftSDK/UIKit`, `…/AVFoundation`);
/// the other frameworks are in `Tests/Fixtures/SwiftSDK/<Module>`.
public enum SwiftStandInSDK {
    /// The modules, in build order (StoreKit and EventKitUI import UIKit).
    public static let modules = [
        "UIKit", "AVFoundation", "AppIntents", "BackgroundTasks", "CoreLocation", "CoreNFC", "EventKitUI", "HealthKit",
        "Intents", "PassKit", "SafariServices", "StoreKit",
    ]

    /// `Tests/Fixtures/SwiftSDK`.
    public static let sourceDirectory = Fixtures.sourceDirectory.appendingPathComponent("SwiftSDK")

    /// The Samples' stand-in SDK sources, one folder per module.
    static let sampleSourceDirectory = Fixtures.repositoryRoot.appendingPathComponent("Samples/PhotoEditor/Packages/PlatformSDK/Sources")

    /// The Swift language mode the stand-in SDK and its clients use.
    public static let swiftVersion = "5"

    /// The folder holding `<Module>.swiftmodule` for each of ``modules``
    /// (`swiftc -I` it), built on first use in this process.
    ///
    /// - Throws: ``CommandFailure`` when swiftc fails (the same error on
    ///   every later call).
    public static func moduleDirectory() throws -> URL {
        try MachOFixtureCache.shared.path(for: "swift-stand-in-sdk") { directory in
            for module in modules {
                let sources = try [sampleSourceDirectory, sourceDirectory].flatMap { root in
                    try swiftFiles(in: root.appendingPathComponent(module))
                }
                try Command.run(
                    Fixtures.swiftc,
                    [
                        "-swift-version", swiftVersion, "-emit-module", "-parse-as-library", "-enable-library-evolution",
                        "-module-name", module, "-I", directory.path,
                        "-emit-module-path", directory.appendingPathComponent("\(module).swiftmodule").path,
                    ] + sources.map(\.path))
            }
            return directory
        }
    }

    /// The `.swift` files directly in `folder`, sorted; none when it does not
    /// exist.
    static func swiftFiles(in folder: URL) throws -> [URL] {
        guard FileManager.default.fileExists(atPath: folder.path) else { return [] }
        return try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "swift" }.sorted { $0.path < $1.path }
    }
}
