// swift-tools-version:6.0
import PackageDescription

/// The project's own analytics framework. It marks one of its APIs
/// `@available(iOSApplicationExtension, unavailable)`, as a framework author
/// does for API that needs the containing app; `linkcheck rules extract`
/// turns that annotation into a rule.
///
/// A package of its own so that its clients link it as a shared library
/// (`DT_NEEDED libAnalytics.so`) and import the annotated API by name.
let package = Package(
    name: "Analytics",
    products: [
        .library(name: "Analytics", type: .dynamic, targets: ["Analytics"]),
    ],
    targets: [
        .target(name: "Analytics"),
    ]
)
