// swift-tools-version:6.0
import PackageDescription

/// The embedded frameworks shared by the photo editor app and its share
/// extension.
///
/// Each framework is its own `.dynamic` product and no target here depends on
/// another, so each shared library holds exactly one framework's code; the
/// platform SDK, a product of another package, is linked as a shared library.
let package = Package(
    name: "SharedFrameworks",
    products: [
        .library(name: "ImageFilters", type: .dynamic, targets: ["ImageFilters"]),
        .library(name: "ShareKit", type: .dynamic, targets: ["ShareKit"]),
        .library(name: "LegacyLoader", type: .dynamic, targets: ["LegacyLoader"]),
        .library(name: "EditorKit", type: .dynamic, targets: ["EditorKit"]),
    ],
    dependencies: [
        .package(path: "../PlatformSDK"),
        .package(path: "../Analytics"),
    ],
    targets: [
        // Extension-safe: uses only UIImage.
        .target(name: "ImageFilters", dependencies: [.product(name: "UIKit", package: "PlatformSDK")]),
        // Unsafe: reaches UIApplication.shared through an internal helper.
        .target(name: "ShareKit", dependencies: [.product(name: "UIKit", package: "PlatformSDK")]),
        // Loads a plug-in with dlopen after a run-time OS version check.
        .target(name: "LegacyLoader"),
        // Unsafe only by the project's own annotation: calls
        // Analytics.logAppLaunch(options:).
        .target(name: "EditorKit", dependencies: [.product(name: "Analytics", package: "Analytics")]),
    ]
)
