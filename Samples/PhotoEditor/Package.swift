// swift-tools-version:6.0
import PackageDescription

/// A photo editor app with a share extension, laid out the way an iOS
/// project links embedded frameworks.
///
/// - `PhotoEditorExtension` (the share extension) links ImageFilters,
///   ShareKit and EditorKit (which uses Analytics' app-only API), and
///   contains PhotoLibrary, whose app-only background sync it calls.
/// - `PhotoEditorApp` (the containing app) links ImageFilters, ShareKit and
///   LegacyLoader, contains PhotoLibrary too, and uses app-only UIKit and
///   PhotoLibrary API itself.
/// - `PhotoEffects` is the plug-in LegacyLoader loads with `dlopen`; nothing
///   links it.
///
/// The frameworks and the SDK live in packages of their own under
/// `Packages/`: SwiftPM links a `.dynamic` product of another package as a
/// shared library, but copies targets of the same package into each product,
/// as it does with PhotoLibrary.
///
/// The dependency on linkcheck itself (the repository's root package) makes
/// its command plugin available: `swift package linkcheck` builds these
/// products and checks them with `linkcheck.json`.
let package = Package(
    name: "PhotoEditor",
    products: [
        .library(name: "PhotoEditorExtension", type: .dynamic, targets: ["PhotoEditorExtension"]),
        .library(name: "PhotoEffects", type: .dynamic, targets: ["PhotoEffects"]),
        .executable(name: "PhotoEditorApp", targets: ["PhotoEditorApp"]),
    ],
    dependencies: [
        .package(path: "Packages/PlatformSDK"),
        .package(path: "Packages/SharedFrameworks"),
        .package(name: "linkcheck", path: "../.."),
    ],
    targets: [
        .target(
            name: "PhotoEditorExtension",
            dependencies: [
                .product(name: "UIKit", package: "PlatformSDK"),
                .product(name: "ImageFilters", package: "SharedFrameworks"),
                .product(name: "ShareKit", package: "SharedFrameworks"),
                .product(name: "EditorKit", package: "SharedFrameworks"),
                "PhotoLibrary",
            ]
        ),
        // Marks one API unavailable in app extensions; linked statically
        // into the extension and the app, with its callers.
        .target(name: "PhotoLibrary"),
        .target(
            name: "PhotoEffects",
            dependencies: [.product(name: "AVFoundation", package: "PlatformSDK")]
        ),
        .executableTarget(
            name: "PhotoEditorApp",
            dependencies: [
                .product(name: "UIKit", package: "PlatformSDK"),
                .product(name: "ImageFilters", package: "SharedFrameworks"),
                .product(name: "ShareKit", package: "SharedFrameworks"),
                .product(name: "LegacyLoader", package: "SharedFrameworks"),
                "PhotoLibrary",
            ]
        ),
    ]
)
