import Foundation
import LinkCheckTestSupport
import Testing

/// The answer's verdict lines (the text output's and the HTML report's
/// headline) never contradict the findings of their image: an app-only
/// framework names what it uses, an incomplete one says it was read only in
/// part, an extension names the bundle errors that stop it at launch, an
/// xcframework's slice is named once, and a line starts from the caller its
/// finding line starts from.
@Suite struct VerdictLineTests {
    static let uikit = ["UIKit", "Foundation", "CoreFoundation"]

    /// Links `sources` into `Frameworks/<name>.framework/<name>` of `app`,
    /// install name `@rpath/<name>.framework/<name>`; returns the binary.
    @discardableResult
    static func framework(_ name: String, _ sources: [URL], in app: MachOFixtures.AppBundle) throws -> URL {
        try MachOFixtures.link(
            MachOFixtures.Image(
                sources: sources, product: .dylib(installName: "@rpath/\(name).framework/\(name)"), frameworks: uikit),
            to: app.addFramework(named: name))
    }

    /// `linkcheck check PATH --html report.html` in `directory`: the text
    /// output's lines and the HTML report.
    static func check(_ path: String, in directory: TemporaryDirectory) throws -> (lines: [String], html: String) {
        let output = try Command.capture(
            Fixtures.linkcheckExecutable, ["check", path, "--html", "report.html"], currentDirectory: directory.url)
        #expect(output.status < 2, "\(output.standardError)")
        let html = try String(contentsOf: directory.path("report.html"), encoding: .utf8)
        return (output.standardOutput.split(separator: "\n").map(String.init), html)
    }

    /// An app without extensions linking Direct and Stripped (both send
    /// +[UIApplication sharedApplication] from a static helper and a
    /// category method; Stripped is `strip -x`ed, so the helper is
    /// `sub_…`) and Broken (cut to half its size after linking): app-only
    /// lines name the calls, the stripped one from the named method, as
    /// its finding line does; the incomplete line says it was read only in
    /// part.
    @Test func appOnlyAndIncompleteLinesSayWhatTheImageUses() throws {
        let directory = try Fixtures.temporaryDirectory()
        let app = try MachOFixtures.AppBundle(named: "Review", in: directory.url)
        try Self.framework("Direct", MachOFixtures.sources("hidden-caller.m"), in: app)
        try MachOFixtures.stripLocalSymbols(try Self.framework("Stripped", MachOFixtures.sources("hidden-caller.m"), in: app))
        let broken = try Self.framework("Broken", MachOFixtures.sources("direct-shared-application.m"), in: app)
        try MachOFixtures.link(
            MachOFixtures.Image(
                sources: MachOFixtures.sources("app-main.m"), product: .executable, rpaths: ["@executable_path/Frameworks"],
                frameworks: Self.uikit + ["Direct", "Stripped", "Broken"], frameworkSearchPaths: [app.frameworksDirectory]),
            to: app.executable)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: broken.path)[.size] as? Int)
        try Data(try Data(contentsOf: broken).prefix(size / 2)).write(to: broken)

        let (lines, html) = try Self.check("Review.app", in: directory)
        #expect(
            Array(lines.prefix(4)) == [
                "Review.app: 1 app, 0 extensions, 3 embedded frameworks",
                "Broken.framework: incomplete — it could be read only in part (13 problems with its structure)",
                "Direct.framework: app-only — it calls +[UIApplication sharedApplication] from +[NSObject(HCHelpers) hc_app] and 1 more",
                "Stripped.framework: app-only — it calls +[UIApplication sharedApplication] from +[NSObject(HCHelpers) hc_app] and 1 more",
            ], "\(lines)")
        #expect(
            lines.contains(
                "Review.app/Frameworks/Stripped.framework/Stripped: note: [AEX001] calls +[UIApplication sharedApplication] from +[NSObject(HCHelpers) hc_app] and 1 more caller (only the containing app links or loads it)"
            ),
            "\(lines)")
        #expect(html.contains("<strong>Direct.framework</strong>: <span class=\"verdict app-only\">app-only</span> — it calls "), "\(html)")
        #expect(
            html.contains(
                "<strong>Broken.framework</strong>: <span class=\"verdict incomplete\">incomplete</span> — it could be read only in part (13 problems with its structure).</li>"
            ))
        #expect(!html.contains("it uses no API unavailable in app extensions"))
    }

    /// A share extension linking Cartography (Swift, from the corpus),
    /// whose Swift runtime libraries the app does not embed: the
    /// extension's line names them, as the launch error they are.
    @Test func anExtensionsLineNamesWhatStopsItAtLaunch() throws {
        let directory = try Fixtures.temporaryDirectory()
        let app = try MachOFixtures.AppBundle(named: "Review", in: directory.url)
        try app.embed(framework: try #require(MachOFixtures.corpusFrameworks["Cartography"]))
        let source = directory.path("share.m")
        try """
        #import <Foundation/Foundation.h>
        @interface ShareViewController : NSObject
        @end
        @implementation ShareViewController
        @end
        """.write(to: source, atomically: true, encoding: .utf8)
        try MachOFixtures.link(
            MachOFixtures.Image(
                sources: [source], product: .executable, applicationExtensionSafe: true, rpaths: ["@executable_path/../../Frameworks"],
                frameworks: ["Foundation", "Cartography"], frameworkSearchPaths: [app.frameworksDirectory],
                linkerFlags: ["-e", "_NSExtensionMain"]),
            to: app.addExtension(named: "Share", principalClass: "ShareViewController"))
        try MachOFixtures.link(
            MachOFixtures.Image(
                sources: MachOFixtures.sources("app-main.m"), product: .executable, rpaths: ["@executable_path/Frameworks"],
                frameworks: Self.uikit), to: app.executable)

        let (lines, html) = try Self.check("Review.app", in: directory)
        let libraries = ["Core", "CoreGraphics", "CoreImage", "Darwin", "Dispatch", "Foundation", "ObjectiveC", "Security", "UIKit"]
            .map { "@rpath/libswift\($0).dylib" }
        // Cartography's simulator slices: the upload would be refused too.
        #expect(lines.dropFirst().first == "Review.app: would be rejected on upload: ITMS-90087 (below)")
        #expect(
            lines.dropFirst(2).first
                == "Share.appex (share extension): unsafe — Cartography.framework needs \(libraries.dropLast().joined(separator: ", ")) and \(libraries.last!), which dyld would not find: the extension would not launch",
            "\(lines)")
        #expect(
            html.contains(
                "<strong>Cartography.framework</strong> needs <a href=\"#BNDL001-Cartography.framework\"><code>@rpath/libswiftCore.dylib</code></a>, "
            ), "\(html)")
        #expect(html.contains(", which dyld would not find: the extension would not launch."))
        // The upload's refusal comes before the extensions' verdicts.
        let rejected = try #require(
            html.range(
                of:
                    "<span class=\"verdict unsafe\">would be rejected on upload</span> App Store Connect would refuse the upload: ITMS-90087"
            ))
        #expect(rejected.lowerBound < (html.range(of: "Cartography.framework</strong> needs")?.lowerBound ?? html.startIndex))
    }

    /// An xcframework of an unsafe framework, one slice per platform: each
    /// line names the slice's folder and the framework once.
    @Test func anXCFrameworksSlicesAreNamedOnce() throws {
        let directory = try Fixtures.temporaryDirectory()
        let xcframework = directory.path("Kit.xcframework")
        var libraries: [[String: Any]] = []
        for (identifier, target) in [("ios-arm64", MachOFixtures.Target.arm64), ("ios-x86_64-simulator", .x86_64Simulator)] {
            let framework = xcframework.appendingPathComponent("\(identifier)/Kit.framework")
            try MachOFixtures.link(
                MachOFixtures.Image(
                    sources: MachOFixtures.sources("direct-shared-application.m"), product: .dylib(installName: "@rpath/Kit.framework/Kit"),
                    target: target, frameworks: Self.uikit),
                to: framework.appendingPathComponent("Kit"))
            try MachOFixtures.writeInfoPlist(
                [
                    "CFBundleExecutable": "Kit", "CFBundleIdentifier": "com.example.Kit", "CFBundlePackageType": "FMWK",
                    "MinimumOSVersion": "15.0",
                ], in: framework, format: .xml)
            libraries.append(
                [
                    "LibraryIdentifier": identifier, "LibraryPath": "Kit.framework", "SupportedArchitectures": [target.arch],
                    "SupportedPlatform": "ios",
                ].merging(target == .arm64 ? [:] : ["SupportedPlatformVariant": "simulator"]) { first, _ in first })
        }
        try MachOFixtures.writeInfoPlist(
            ["CFBundlePackageType": "XFWK", "XCFrameworkFormatVersion": "1.0", "AvailableLibraries": libraries], in: xcframework,
            format: .xml)

        let (lines, html) = try Self.check("Kit.xcframework", in: directory)
        #expect(
            Array(lines.prefix(3)) == [
                "Kit.xcframework: 2 libraries (ios-arm64, ios-x86_64-simulator)",
                "ios-arm64/Kit.framework: unsafe — it calls +[UIApplication sharedApplication] from direct_shared_application",
                "ios-x86_64-simulator/Kit.framework: unsafe — it calls +[UIApplication sharedApplication] from direct_shared_application",
            ], "\(lines)")
        #expect(html.contains("<strong>ios-arm64/Kit.framework</strong>: <span class=\"verdict unsafe\">unsafe</span>"), "\(html)")
        #expect(!html.contains("Kit.framework/Kit.framework"))
    }
}
