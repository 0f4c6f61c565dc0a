import Foundation
import LinkCheckAnalysis
import LinkCheckImage
import LinkCheckInspection
import LinkCheckReports
import LinkCheckTestSupport
import Testing

/// One framework, however many slices: on an app shaped like a real one
/// (``MachOFixtures/realShapedApp()``: an arm64-only app and share
/// extension, and the corpus' fat SVProgressHUD, MBProgressHUD and
/// Cartography, each i386, x86_64, armv7 and arm64, in an iOS 15.0 app).
@Suite struct FatFrameworkTests {
    static let frameworks = ["SVProgressHUD", "MBProgressHUD", "Cartography"]

    /// `Frameworks/X.framework/X` in `app`.
    static func framework(_ name: String, in app: URL) -> String {
        app.appendingPathComponent("Frameworks/\(name).framework/\(name)").path
    }

    /// Every slice of a fat framework is linked by whoever links the file,
    /// though the app and the extension are arm64 only: none is a framework
    /// that no one links.
    @Test func everySliceIsReachedByWhoeverReachesTheFile() throws {
        let app = try MachOFixtures.realShapedApp()
        let report = try ShippedRules.check(app)
        let (photos, share) = (app.appendingPathComponent("Photos").path, app.appendingPathComponent("PlugIns/Share.appex/Share").path)
        for name in Self.frameworks {
            let slices = report.images.filter { $0.path == Self.framework(name, in: app) }
            #expect(slices.map { $0.identity.slice } == ["arm64", "armv7", "i386", "x86_64"], "\(name)")
            for slice in slices {
                #expect(slice.reachedBy == (name == "SVProgressHUD" ? [photos, share] : [photos]), "\(slice.name)")
            }
        }
        // Every slice looks for its libraries where dyld would for the
        // app: `@rpath` through the app's LC_RPATH too, not only its own.
        // The app embeds no Swift runtime and no run path leads to the OS's:
        // the app would not launch (an error for the slice the app loads).
        let swiftCore = report.findings.filter { $0.rule == "BNDL001" && $0.symbol == "@rpath/libswiftCore.dylib" }
        #expect(swiftCore.map(\.severity) == [.error, .note, .note, .note])
        let frameworks = app.appendingPathComponent("Frameworks").path
        #expect(
            swiftCore.allSatisfy {
                $0.message.contains(
                    "(dyld looks in \(frameworks), \(frameworks)/Cartography.framework/Frameworks): Photos.app, which loads it, would not launch"
                )
            },
            "\(swiftCore.map(\.message))")
    }

    /// The slices no process of an iOS 15.0 app loads are named, once per
    /// file, and are not checked as code an extension runs: their findings
    /// are notes and their verdict `not-loaded`; the arm64 slice, which the
    /// share extension loads, is unsafe for its +[UIApplication sharedApplication].
    @Test func unloadableSlicesAreNamedAndNotCheckedAsExtensionCode() throws {
        let app = try MachOFixtures.realShapedApp()
        let report = try ShippedRules.check(app)
        for name in Self.frameworks {
            let notes = report.findings.filter { $0.rule == "ARCH004" && $0.image.hasPrefix(Self.framework(name, in: app)) }
            #expect(notes.map(\.severity) == [.note], "\(name)")
            #expect(
                notes.first?.typedDetail
                    == .slicesNotLoaded(simulator: ["i386", "x86_64"], thirtyTwoBit: ["armv7"], platform: .iOS, minimumOS: "15.0"))
        }
        let svProgressHUD = Self.framework("SVProgressHUD", in: app)
        let verdicts = report.images.filter { $0.path == svProgressHUD }.map { [$0.identity.slice ?? "", $0.verdict.rawValue] }
        #expect(verdicts == [["arm64", "unsafe"], ["armv7", "not-loaded"], ["i386", "not-loaded"], ["x86_64", "not-loaded"]])
        let errors = report.findings.filter { $0.severity == .error && $0.image.hasPrefix(svProgressHUD) }
        // The arm64 slice's use of the API, and the file's simulator slices,
        // which App Store Connect refuses (ITMS-90087).
        #expect(errors.map(\.image) == [svProgressHUD + "[arm64]", svProgressHUD + "[i386]"])
        #expect(errors.map(\.rule) == ["AEX001", "BNDL005"])
        #expect(
            errors.last?.aboutFile == true
                && errors.last?.message.hasPrefix(
                    "Photos.app/Frameworks/SVProgressHUD.framework/SVProgressHUD has slices for the simulator (i386, x86_64): App Store Connect refuses"
                ) == true)
        let simulator = try #require(report.findings.first { $0.rule == "AEX001" && $0.image == svProgressHUD + "[x86_64]" })
        #expect(simulator.severity == .note)
        #expect(simulator.remarks.contains(.sliceNotLoaded))
        #expect(report.images.allSatisfy { $0.verdict != .notLoaded || $0.identity.slice != "arm64" })
    }

    /// The share extension is unsafe because of SVProgressHUD's arm64
    /// sharedApplication, and each fat framework is one file with one
    /// verdict; a finding held by every slice is one group naming them.
    @Test func oneVerdictPerFatFrameworkAndOneFindingAcrossSlices() throws {
        let app = try MachOFixtures.realShapedApp()
        let report = try ShippedRules.check(app)
        let grouping = FileGrouping(report)
        let share = app.appendingPathComponent("PlugIns/Share.appex/Share").path
        let verdicts = Dictionary(uniqueKeysWithValues: grouping.files.map { ($0.name, $0.image.verdict) })
        #expect(
            verdicts == [
                app.appendingPathComponent("Photos").path: .appOnly, share: .unsafe,
                Self.framework("SVProgressHUD", in: app): .unsafe, Self.framework("MBProgressHUD", in: app): .extensionSafe,
                Self.framework("Cartography", in: app): .unsafe,
            ])
        let svProgressHUD = Self.framework("SVProgressHUD", in: app)
        #expect(grouping.files.first { $0.name == svProgressHUD }?.architectures == ["arm64", "armv7", "i386", "x86_64"])
        let cause = try #require(report.findings.first { $0.image == share && $0.severity == .error })
        #expect(cause.chain == ["Share", "SVProgressHUD.framework", "+[UIApplication sharedApplication]"])
        #expect(cause.chainImages == [share, svProgressHUD + "[arm64]"])

        let groups = grouping.findings.filter { $0.file == svProgressHUD }
        #expect(
            groups.map { [$0.lead.rule.rawValue] + $0.slices } == [
                ["AEX001", "arm64", "armv7", "i386", "x86_64"], ["ARCH004"], ["BNDL005"], ["FLAG001", "arm64"],
                ["LOAD008", "arm64", "armv7", "i386", "x86_64"], ["LOAD014", "arm64", "armv7", "i386", "x86_64"],
            ])
        let sharedApplication = try #require(groups.first)
        #expect(sharedApplication.severity == .error)
        #expect(sharedApplication.lead.image == svProgressHUD + "[arm64]")
        #expect(sharedApplication.lead.callSites.first?.displayName == "-[SVProgressHUD positionHUD:]")
        #expect(sharedApplication.place == svProgressHUD + " (arm64, armv7, i386, x86_64)")
        // MBProgressHUD's ARCLite, in its arm64 and x86_64 slices, is one image's.
        #expect(
            report.remarks.contains {
                $0.hasPrefix("ARCLite (the toolchain's ARC support for older OSes) in 1 image (MBProgressHUD.framework) calls ")
            },
            "\(report.remarks)")
    }

    /// A fat framework left with only its 32-bit slices (armv7 and i386,
    /// taken out with `llvm-lipo -thin`) has no slice any process of the app loads,
    /// yet the file's own problem stays an error: it has no 64-bit slice
    /// (`ARCH001`), and the extension that links it finds no slice for it
    /// (`ARCH003`).
    @Test func aFileWithoutA64BitSliceStaysAnError() throws {
        let directory = try Fixtures.temporaryDirectory()
        let app = directory.path("Photos.app")
        try FileManager.default.copyItem(at: try MachOFixtures.realShapedApp(), to: app)
        let svProgressHUD = Self.framework("SVProgressHUD", in: app)
        try FileManager.default.removeItem(atPath: svProgressHUD)
        let original = MachOFixtures.corpusFrameworks["SVProgressHUD"]!.appendingPathComponent("SVProgressHUD").path
        let thin = try ["armv7", "i386"].map { arch in
            try Command.run("/usr/lib/llvm-14/bin/llvm-lipo", [original, "-thin", arch, "-output", directory.path(arch).path])
            return directory.path(arch)
        }
        try MachOFixtures.fat(thin, to: URL(fileURLWithPath: svProgressHUD))

        let report = try ShippedRules.check(app)
        let arch = report.findings.filter { $0.image.hasPrefix(svProgressHUD) && $0.rule.rawValue.hasPrefix("ARCH") }
        #expect(arch.map { "\($0.rule) \($0.severity)" } == ["ARCH001 error", "ARCH004 note"])
        #expect(arch.first?.typedDetail == .noSixtyFourBitCode(format: .macho, architectures: ["armv7", "i386"]))
        #expect(
            arch.last?.typedDetail
                == .slicesNotLoaded(simulator: ["i386"], thirtyTwoBit: ["armv7"], platform: .iOS, minimumOS: "15.0"))
        #expect(FileGrouping(report).files.first { $0.name == svProgressHUD }?.image.verdict == .unsafe)
        let share = app.appendingPathComponent("PlugIns/Share.appex/Share").path
        #expect(report.findings.contains { $0.image == share && $0.rule == "ARCH003" && $0.severity == .error })
    }

    /// In an app whose minimum OS still runs on 32-bit devices (iOS 10.0),
    /// the armv7 slice is loaded and checked: unsafe like arm64; only the
    /// simulator slices are named.
    @Test func thirtyTwoBitSlicesCountWhenTheMinimumOSHasThirtyTwoBitDevices() throws {
        let directory = try Fixtures.temporaryDirectory()
        let app = directory.path("Photos.app")
        try FileManager.default.copyItem(at: try MachOFixtures.realShapedApp(), to: app)
        let plist = app.appendingPathComponent("Info.plist")
        var info = try #require(try PropertyListSerialization.propertyList(from: Data(contentsOf: plist), format: nil) as? [String: Any])
        info["MinimumOSVersion"] = "10.0"
        try PropertyListSerialization.data(fromPropertyList: info, format: .xml, options: 0).write(to: plist)

        let report = try ShippedRules.check(app)
        let svProgressHUD = Self.framework("SVProgressHUD", in: app)
        let note = try #require(report.findings.first { $0.rule == "ARCH004" && $0.image.hasPrefix(svProgressHUD) })
        #expect(note.typedDetail == .slicesNotLoaded(simulator: ["i386", "x86_64"], thirtyTwoBit: [], platform: .iOS, minimumOS: "10.0"))
        let verdicts = report.images.filter { $0.path == svProgressHUD }.map { [$0.identity.slice ?? "", $0.verdict.rawValue] }
        #expect(verdicts == [["arm64", "unsafe"], ["armv7", "unsafe"], ["i386", "not-loaded"], ["x86_64", "not-loaded"]])
    }
}
