import Foundation
import LinkCheckTestSupport
import Testing

/// What the plugin checks of a build's products, in any platform's format
/// (`Plugins/LinkCheckPlugin/BuiltProducts.swift`, compiled here with a
/// small driver, as a plugin cannot be linked into a test): the path the
/// build reports, or the `.framework` bundle that holds it; a dependency's
/// dynamic library as `lib<name>.so`, `lib<name>.dylib` or `<name>.framework`.
@Suite struct PluginProductTests {
    static let driver = """
        import Foundation
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments[0] == "checked" {
            for path in arguments.dropFirst() { print(BuiltProducts.checkedPath(ofArtifact: path)) }
        } else {
            let folder = URL(fileURLWithPath: arguments[1])
            for path in BuiltProducts.builtLibraries(Array(arguments.dropFirst(2)), in: folder) { print(path) }
        }

        """

    static func buildDriver(in directory: TemporaryDirectory) throws -> String {
        let main = directory.path("main.swift")
        try driver.write(to: main, atomically: true, encoding: .utf8)
        let source = Fixtures.repositoryRoot.appendingPathComponent("Plugins/LinkCheckPlugin/BuiltProducts.swift")
        let executable = directory.path("built-products").path
        try Command.run(Fixtures.swiftc, [source.path, main.path, "-o", executable])
        return executable
    }

    @Test func theProductIsTheFileTheBuildReportsOrItsFramework() throws {
        let directory = try Fixtures.temporaryDirectory()
        let driver = try Self.buildDriver(in: directory)
        let paths = [
            "/b/debug/libShareKit.so", "/b/debug/libShareKit.dylib", "/b/debug/Photos",
            "/b/Debug/PackageFrameworks/ShareKit.framework/ShareKit",
            "/b/Debug/PackageFrameworks/ShareKit.framework/Versions/A/ShareKit",
        ]
        let output = try Command.capture(driver, ["checked"] + paths)
        #expect(output.status == 0)
        #expect(
            output.standardOutput.split(separator: "\n")
                == [
                    "/b/debug/libShareKit.so", "/b/debug/libShareKit.dylib", "/b/debug/Photos",
                    "/b/Debug/PackageFrameworks/ShareKit.framework", "/b/Debug/PackageFrameworks/ShareKit.framework",
                ])
    }

    @Test func aDependencysLibraryIsFoundUnderEachPlatformsName() throws {
        let directory = try Fixtures.temporaryDirectory()
        let driver = try Self.buildDriver(in: directory)
        let products = directory.path("products")
        try FileManager.default.createDirectory(
            at: products.appendingPathComponent("Analytics.framework"), withIntermediateDirectories: true)
        for file in ["libImageFilters.so", "libEditorKit.dylib", "Analytics.framework/Analytics", "Unrelated.so"] {
            try Data().write(to: products.appendingPathComponent(file))
        }
        let output = try Command.capture(driver, ["libraries", products.path, "ImageFilters", "EditorKit", "Analytics", "Missing"])
        #expect(output.status == 0)
        #expect(
            output.standardOutput.split(separator: "\n").map(String.init)
                == ["libImageFilters.so", "libEditorKit.dylib", "Analytics.framework"].map { products.appendingPathComponent($0).path })
    }
}
