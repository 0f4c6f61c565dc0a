import Foundation

extension MachOFixtures {
    /// An app shaped like the ones people ship, with the third-party
    /// frameworks as Carthage built them: fat files whose simulator and
    /// 32-bit slices ride along in the device app. Built once per test
    /// process (``realShapedApp()``) into `Photos.app`:
    ///
    /// - `Photos` (`MH_EXECUTE`, thin arm64, iOS 15.0, rpath
    ///   `@executable_path/Frameworks`, from `app-main.m`) links
    ///   SVProgressHUD, MBProgressHUD and Cartography; `Info.plist`
    ///   `MinimumOSVersion` 15.0;
    /// - `Frameworks/SVProgressHUD.framework`,
    ///   `Frameworks/MBProgressHUD.framework`,
    ///   `Frameworks/Cartography.framework` (Swift): the corpus' own
    ///   (``corpusFrameworks``), copied with their `Info.plist`, each a fat
    ///   file of i386, x86_64, armv7 and arm64 (`LC_VERSION_MIN_IPHONEOS`
    ///   in every slice, iOS 8); SVProgressHUD sends
    ///   +[UIApplication sharedApplication] from -[SVProgressHUD positionHUD:]
    ///   among others;
    /// - `PlugIns/Share.appex/Share`: a share extension
    ///   (`com.apple.share-services`, thin arm64, `-application_extension`,
    ///   entry `_NSExtensionMain`, rpath `@executable_path/../../Frameworks`,
    ///   from `hud-share-extension.m`) linking SVProgressHUD by
    ///   `@rpath/SVProgressHUD.framework/SVProgressHUD`.
    ///
    /// Linked by Debian's `ld64.lld` 14 (``Linker/opcodes``), which reads
    /// the real frameworks' dyld information. The path is the `.app`.
    ///
    /// - Throws: ``CommandFailure`` when a tool fails, or a file system
    ///   error when the corpus' frameworks cannot be copied.
    public static func realShapedApp() throws -> URL {
        try MachOFixtureCache.shared.path(for: "RealShapedApp") { directory in
            let app = try AppBundle(named: "Photos", in: directory)
            for framework in corpusFrameworks.values {
                try app.embed(framework: framework)
            }
            let frameworks = ["UIKit", "Foundation", "CoreFoundation"]
            try link(
                Image(
                    sources: sources("app-main.m"), product: .executable, rpaths: ["@executable_path/Frameworks"],
                    frameworks: frameworks + ["SVProgressHUD", "MBProgressHUD", "Cartography"],
                    frameworkSearchPaths: [app.frameworksDirectory]),
                to: app.executable)
            try link(
                Image(
                    sources: sources("hud-share-extension.m"), product: .executable, applicationExtensionSafe: true,
                    rpaths: ["@executable_path/../../Frameworks"], frameworks: frameworks + ["SVProgressHUD"],
                    frameworkSearchPaths: [app.frameworksDirectory], linkerFlags: ["-e", "_NSExtensionMain"]),
                to: app.addExtension(named: "Share", principalClass: "HUDShareViewController"))
            return app.url
        }
    }

    /// The fat Carthage-built frameworks of `../shared/corpus/macho` that
    /// ``realShapedApp()`` embeds, by name: `SVProgressHUD` and
    /// `Cartography` (from jpsim/CardsAgainst), `MBProgressHUD` (from
    /// techery-pods-mirror/carthage-test), each a `.framework` folder.
    public static let corpusFrameworks: [String: URL] = {
        let corpus = Fixtures.corpusDirectory.appendingPathComponent("macho")
        let cards = corpus.appendingPathComponent("jpsim__CardsAgainst/Carthage/Build/iOS")
        return [
            "SVProgressHUD": cards.appendingPathComponent("SVProgressHUD.framework"),
            "Cartography": cards.appendingPathComponent("Cartography.framework"),
            "MBProgressHUD": corpus.appendingPathComponent("techery-pods-mirror__carthage-test/Carthage/Build/iOS/MBProgressHUD.framework"),
        ]
    }()
}

extension MachOFixtures.AppBundle {
    /// Copies the framework folder `framework` (`X.framework`, with its
    /// binary and `Info.plist`) into ``frameworksDirectory``, as Xcode's
    /// "Embed Frameworks" phase does; returns the copy's binary.
    ///
    /// - Throws: a file system error.
    @discardableResult
    public func embed(framework: URL) throws -> URL {
        try FileManager.default.createDirectory(at: frameworksDirectory, withIntermediateDirectories: true)
        let copy = frameworksDirectory.appendingPathComponent(framework.lastPathComponent)
        try FileManager.default.copyItem(at: framework, to: copy)
        return copy.appendingPathComponent(framework.deletingPathExtension().lastPathComponent)
    }
}
