// swift-tools-version:6.0
import PackageDescription

/// A stand-in for the platform SDK.
///
/// Each framework is a `.dynamic` library product, so a target in another
/// package that depends on it links the shared library (`DT_NEEDED
/// libUIKit.so`) instead of copying the framework's code, just as apps link
/// the system frameworks.
/// Built with library evolution, like the real SDK: clients then call a
/// framework's open and public members through exported symbols (dispatch
/// thunks, accessors) instead of reading vtable offsets baked in at compile
/// time, so every use of an annotated member is an import of the client.
let sdkSettings: [SwiftSetting] = [.unsafeFlags(["-enable-library-evolution"])]

let package = Package(
    name: "PlatformSDK",
    products: [
        .library(name: "UIKit", type: .dynamic, targets: ["UIKit"]),
        .library(name: "AVFoundation", type: .dynamic, targets: ["AVFoundation"]),
    ],
    targets: [
        .target(name: "UIKit", swiftSettings: sdkSettings),
        .target(name: "AVFoundation", swiftSettings: sdkSettings),
    ]
)
