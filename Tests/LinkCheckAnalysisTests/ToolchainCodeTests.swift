import Foundation
import LinkCheckAnalysis
import LinkCheckCodeIndex
import LinkCheckReports
import LinkCheckTestSupport
import Testing

/// Code the toolchain puts into every binary (compiler-rt's availability
/// check, which dlopens CoreFoundation and dlsyms its functions; ARCLite's
/// load hook, which looks classes up by name) is not a framework's own
/// conditional loading: its calls make no finding and no load, and the run
/// says once, in one note per kind of code, which images hold it; a
/// framework's own dlopen keeps its findings.
@Suite struct ToolchainCodeTests {
    /// Three frameworks built with `toolchain-support.c` (written as
    /// compiler-rt's and ARCLite's code is): `Format`, nothing else;
    /// `Loader`, which also dlopens a plug-in of its own after an
    /// `@available` check (`own-loader.c`); `Stripped`, like Format with its
    /// local symbols stripped, so that `_initializeAvailabilityCheck` has no
    /// name left.
    static func frameworks(in directory: TemporaryDirectory) throws -> URL {
        let folder = directory.path("Frameworks")
        for (name, sources) in [
            ("Format", ["toolchain-support.c"]), ("Loader", ["toolchain-support.c", "own-loader.c"]), ("Stripped", ["toolchain-support.c"]),
        ] {
            let binary = try MachOFixtures.link(
                MachOFixtures.Image(
                    sources: sources.map { MachOFixtures.sourceDirectory.appendingPathComponent($0) },
                    product: .dylib(installName: "@rpath/\(name).framework/\(name)"), applicationExtensionSafe: true,
                    frameworks: [], libraries: ["objc", "System"]),
                to: folder.appendingPathComponent("\(name).framework/\(name)"))
            if name == "Stripped" {
                let strip = try Command.capture("/usr/lib/llvm-14/bin/llvm-strip", ["-x", binary.path])
                try #require(strip.status == 0, "\(strip.standardError)")
            }
        }
        return folder
    }

    @Test func theToolchainsCodeMakesOneNoteForTheRunAndNoFinding() throws {
        let directory = try Fixtures.temporaryDirectory()
        let folder = try Self.frameworks(in: directory)
        let report = try ShippedRules.check(folder)
        func findings(_ name: String) -> [Finding] {
            report.findings.filter { $0.image == folder.appendingPathComponent("\(name).framework/\(name)").path }
        }
        // Stripped, the availability check is a function no symbol names.
        let stripped = try #require(report.images.first { $0.shortName == "Stripped.framework" })
        #expect(stripped.callSites == .analysed)
        for name in ["Format", "Stripped"] {
            #expect(!findings(name).contains { $0.category == .conditionalLoading }, "\(name): \(findings(name).map(\.message))")
        }
        #expect(report.images.allSatisfy { image in !image.loads.contains { $0.name.hasSuffix("CoreFoundation") } })
        #expect(
            !report.findings.contains { finding in
                finding.callSites.contains {
                    ["_initializeAvailabilityCheck", "__ARCLite__load"].contains($0.function) || $0.function?.hasPrefix("sub_") == true
                }
            })
        #expect(
            report.remarks == [
                "the toolchain's availability check (compiler-rt) in 3 images (Format.framework, Loader.framework, Stripped.framework) calls dlopen, dlsym: the toolchain's own code, not the images' conditional loading; left out of the findings",
                "ARCLite (the toolchain's ARC support for older OSes) in 3 images (Format.framework, Loader.framework, Stripped.framework) calls objc_getClass: the toolchain's own code, not the images' conditional loading; left out of the findings",
            ])
    }

    /// Loader's own dlopen and dlsym keep their findings, from its own
    /// function alone, and its own load; the version check it makes is the
    /// toolchain's function it calls, which still counts as one.
    @Test func aFrameworksOwnLoadingKeepsItsFindings() throws {
        let directory = try Fixtures.temporaryDirectory()
        let folder = try Self.frameworks(in: directory)
        let report = try ShippedRules.check(folder)
        let loader = report.findings.filter { $0.image == folder.appendingPathComponent("Loader.framework/Loader").path }
        let byRule = Dictionary(grouping: loader, by: \.rule)
        #expect(byRule["LOAD001"]?.map { $0.callSites.map(\.label) } == [["load_filters"]])
        #expect(byRule["LOAD003"]?.map { $0.callSites.map(\.label) } == [["load_filters"]])
        #expect(
            byRule["DLOP010"]?.first?.typedDetail
                == .loaderCall(
                    caller: .function("load_filters"), loader: "dlopen", versionChecks: [.init(query: "__isPlatformVersionAtLeast")]))
        #expect(byRule["DLOP011"] == nil)
        #expect(byRule["DLOP003"]?.map(\.symbol) == ["@rpath/Effects.framework/Effects"])
        #expect(byRule["LOAD013"] == nil)
        let image = try #require(report.images.first { $0.shortName == "Loader.framework" })
        #expect(image.loads.map(\.name) == ["@rpath/Effects.framework/Effects"])
    }

    @Test func toolchainFunctionsAreKnownByName() {
        for (name, origin) in [
            ("_initializeAvailabilityCheck", ToolchainCode.Origin.availabilityCheck), ("__isOSVersionAtLeast", .availabilityCheck),
            ("__isPlatformVersionAtLeast", .availabilityCheck), ("compatibilityInitializeAvailabilityCheck", .availabilityCheck),
            ("__ARCLite__load", .arcLite), ("__arclite_objc_retainAutoreleasedReturnValue", .arcLite),
            ("swift51override_conformsToProtocol", .swiftSupport),
            ("_ZN5swift34swift56override_conformsToProtocolEPKNS_14TargetMetadata", .swiftSupport),
            ("swift_getFunctionReplacement_Compatibility50", .swiftSupport), ("_ZNK5swift9Demangler6demangleEv", .swiftSupport),
            // As real frameworks name them (MBProgressHUD 0.9.2, SnapKit 5.6.0):
            // C++ statics and lambdas, block invocations.
            ("_ZL15__ARCLite__loadv", .arcLite), ("_ZL31__arclite_objc_getRequiredClassPKc", .arcLite),
            ("_ZZN5swift17getRootSuperclassEvENK3$_0clEvENUlPvE_8__invokeES1_", .swiftSupport),
            ("_ZZZL20getObjCClassMetadataPKN5swift19TargetClassMetadataINS_9InProcessEEEENK3$_1clEvENUlPvE_8__invokeES7_", .swiftSupport),
            ("__swift_getFunctionTypeMetadataGlobalActorBackDeploy_block_invoke", .swiftSupport),
        ] {
            #expect(ToolchainCode.origin(ofFunction: name) == origin, "\(name)")
        }
        for name in [
            "load_filters", "isOSVersionAtLeast", "swiftoverride_x", "myswift5override", "-[SDWebImageManager load]", "sub_4000",
            "$s8Kingfisher13ImageDownloaderC8downloadyyF", "_ZN4acme5swift4loadEv", "swift_app_helper",
        ] {
            #expect(ToolchainCode.origin(ofFunction: name) == nil, "\(name)")
        }
    }
}
