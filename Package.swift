// swift-tools-version:6.0
import PackageDescription

/// Where the ELF reader has libelf (elfutils): on Linux; on macOS, where
/// Homebrew offers no libelf, only with `LINKCHECK_WITH_LIBELF=1` (for a
/// libelf pkg-config finds, built from elfutils' sources; a manifest cannot
/// ask pkg-config itself); nowhere with `LINKCHECK_WITHOUT_LIBELF=1`, which
/// builds here what a Mac builds by default. Without libelf, an ELF input is
/// an error that names the file ("this build of linkcheck reads no ELF: it
/// was built without libelf"); Mach-O, bundles, archives, rules and reports
/// are as they are with it. The code asks `#if canImport(CLibELF)`.
let libelfPlatforms: [Platform] =
    Context.environment["LINKCHECK_WITHOUT_LIBELF"] == "1"
    ? [] : Context.environment["LINKCHECK_WITH_LIBELF"] == "1" ? [.linux, .macOS] : [.linux]

/// The dependency on libelf of the targets that read ELF through it, for
/// the platforms ``libelfPlatforms`` names.
let libelf: [Target.Dependency] = libelfPlatforms.isEmpty ? [] : [.target(name: "CLibELF", condition: .when(platforms: libelfPlatforms))]

/// The dependency on libdw (elfutils' DWARF library, beside its libelf), which
/// reads the source lines of ELF images: where ``libelfPlatforms`` has libelf.
/// The code asks `#if canImport(CLibDW)`.
let libdw: [Target.Dependency] = libelfPlatforms.isEmpty ? [] : [.target(name: "CLibDW", condition: .when(platforms: libelfPlatforms))]

/// linkcheck: finds APIs unavailable in app extensions, architecture
/// problems, bundle problems and conditional-loading paths in ELF shared
/// objects and executables and in Mach-O images (thin or fat, in app,
/// extension and framework bundles, `.xcframework`s and `.ipa` archives).
///
/// The engine is split along the pipeline (see Documentation/development.md):
/// inspection → rules → analysis → reports, with a thin CLI on top.
let package = Package(
    name: "linkcheck",
    products: [
        .executable(name: "linkcheck", targets: ["LinkCheckCLI"]),
        .plugin(name: "LinkCheckPlugin", targets: ["LinkCheckPlugin"]),
        .library(
            name: "LinkCheckKit",
            targets: [
                "LinkCheckImage", "LinkCheckELF", "LinkCheckCodeIndex", "LinkCheckInspection", "LinkCheckRules",
                "LinkCheckAnalysis", "LinkCheckReports", "LinkCheckSourceLines",
            ]
        ),
    ],
    targets: [
        // libelf from elfutils: all ELF reading goes through libelf/gelf
        // (where ``libelfPlatforms`` says; Homebrew has none for macOS).
        .systemLibrary(
            name: "CLibELF",
            pkgConfig: "libelf",
            providers: [.apt(["libelf-dev"])]
        ),
        // libdw from elfutils: the DWARF of ELF images, for the source lines of
        // call sites (where libelf is).
        .systemLibrary(
            name: "CLibDW",
            pkgConfig: "libdw",
            providers: [.apt(["libdw-dev"])]
        ),
        // The Capstone disassembler, for call sites.
        .systemLibrary(
            name: "CCapstone",
            pkgConfig: "capstone",
            providers: [.apt(["libcapstone-dev"]), .brew(["capstone"])]
        ),
        // Graphviz's layout engine, which draws the HTML report's link graph.
        .systemLibrary(
            name: "CGraphviz",
            pkgConfig: "libgvc",
            providers: [.apt(["libgraphviz-dev"]), .brew(["graphviz"])]
        ),
        // libarchive, for the zip archives an .ipa is. Homebrew's is keg-only:
        // PKG_CONFIG_PATH="$(brew --prefix libarchive)/lib/pkgconfig"
        // (Documentation/macos.md).
        .systemLibrary(
            name: "CArchive",
            pkgConfig: "libarchive",
            providers: [.apt(["libarchive-dev"]), .brew(["libarchive"])]
        ),
        // The Swift runtime's swift_demangle and the C++ ABI's __cxa_demangle.
        .systemLibrary(name: "CDemangle"),
        // The C library (Glibc, Musl or Darwin) and the calls that differ
        // between them, behind one seam.
        .target(name: "SystemInterface"),
        // SIGBUS-safe reading of a mapped file that shrinks while it is read.
        .target(name: "CMappedFileGuard"),
        // Whole-section byte scans in tight C loops: the places in code that
        // may transfer to an address of interest, and the ends of read-only
        // strings that may be a literal of interest.
        .target(name: "CByteScan"),
        // The format-neutral image model every stage after the readers sees.
        .target(name: "LinkCheckImage", dependencies: ["SystemInterface"]),
        // Which string literals occur in read-only data: shared by the ELF
        // and Mach-O readers.
        .target(name: "LinkCheckLiterals", dependencies: ["CByteScan", "SystemInterface"]),
        // The ELF reader: libelf/gelf only; without libelf, a reader that
        // recognises ELF and says this build does not read it.
        .target(
            name: "LinkCheckELF", dependencies: ["LinkCheckImage", "LinkCheckLiterals", "CMappedFileGuard", "SystemInterface"] + libelf),
        // The Mach-O reader, in pure Swift (no library reads modern Mach-O).
        .target(name: "LinkCheckMachO", dependencies: ["LinkCheckImage", "LinkCheckLiterals", "CMappedFileGuard", "SystemInterface"]),
        // Call sites: a byte scan, then Capstone over the code of ELF (with
        // libelf) and Mach-O images.
        .target(
            name: "LinkCheckCodeIndex",
            dependencies: [
                "LinkCheckImage", "LinkCheckELF", "LinkCheckMachO", "LinkCheckLiterals", "CCapstone", "CByteScan", "SystemInterface",
            ] + libelf
        ),
        // The source (file, line, column, inline chain) of the call sites a
        // report shows, from the images' debug information: ELF's DWARF
        // through libdw, Mach-O's (dSYM, debug map) through the DWARF
        // decoder of its own.
        .target(
            name: "LinkCheckSourceLines",
            dependencies: ["LinkCheckImage", "LinkCheckELF", "LinkCheckMachO", "SystemInterface"] + libelf + libdw),
        // Discovery (with bundles, and .ipa archives unpacked through
        // libarchive), and the reader the magic picks.
        .target(
            name: "LinkCheckInspection",
            dependencies: [
                "LinkCheckImage", "LinkCheckELF", "LinkCheckMachO", "LinkCheckLiterals", "LinkCheckRules", "CArchive", "SystemInterface",
            ]),
        // __cxa_demangle (CDemangle) is in libstdc++ on Linux, in libc++ on Darwin.
        .target(
            name: "LinkCheckRules", dependencies: ["CDemangle", "SystemInterface"],
            linkerSettings: [.linkedLibrary("stdc++", .when(platforms: [.linux])), .linkedLibrary("c++", .when(platforms: [.macOS]))]),
        .target(
            name: "LinkCheckAnalysis",
            dependencies: [
                "LinkCheckImage", "LinkCheckInspection", "LinkCheckCodeIndex", "LinkCheckRules", "LinkCheckSourceLines", "SystemInterface",
            ]
        ),
        .target(name: "LinkCheckReports", dependencies: ["LinkCheckImage", "LinkCheckAnalysis", "LinkCheckSourceLines", "CGraphviz"]),
        .executableTarget(
            name: "LinkCheckCLI",
            dependencies: [
                "LinkCheckImage", "LinkCheckInspection", "LinkCheckRules", "LinkCheckAnalysis", "LinkCheckReports", "SystemInterface",
            ]
        ),
        // `swift package linkcheck`: builds the products, checks them.
        .plugin(
            name: "LinkCheckPlugin",
            capability: .command(
                intent: .custom(verb: "linkcheck", description: "Check the package's products for APIs unavailable in app extensions"),
                permissions: []
            ),
            dependencies: ["LinkCheckCLI"]
        ),
        // Helpers the test targets share: temporary folders, compiling
        // fixtures from Tests/Fixtures (ELF and Mach-O, with LLVM's tools as
        // Mach-O and source-line oracles, and bundles), writing zip archives, running
        // commands, building Samples/, and the shipped rule packs, loaded
        // strictly and checked with.
        .target(
            name: "LinkCheckTestSupport",
            dependencies: [
                "LinkCheckImage", "LinkCheckCodeIndex", "LinkCheckRules", "LinkCheckAnalysis", "LinkCheckSourceLines", "CArchive",
            ],
            path: "Tests/LinkCheckTestSupport"
        ),
        .testTarget(
            name: "LinkCheckELFTests",
            dependencies: ["LinkCheckELF", "LinkCheckCodeIndex", "LinkCheckInspection", "CMappedFileGuard", "LinkCheckTestSupport"] + libelf
        ),
        .testTarget(
            name: "LinkCheckCodeIndexTests",
            dependencies: ["LinkCheckCodeIndex", "LinkCheckELF", "LinkCheckMachO", "CByteScan", "CCapstone", "LinkCheckTestSupport"]
                + libelf
        ),
        .testTarget(name: "LinkCheckLiteralsTests", dependencies: ["LinkCheckLiterals", "CByteScan", "SystemInterface"]),
        .testTarget(name: "LinkCheckInspectionTests", dependencies: ["LinkCheckInspection", "LinkCheckELF", "LinkCheckTestSupport"]),
        .testTarget(
            name: "LinkCheckSourceLinesTests",
            dependencies: ["LinkCheckSourceLines", "LinkCheckImage", "LinkCheckMachO", "LinkCheckInspection", "LinkCheckTestSupport"]),
        .testTarget(name: "LinkCheckMachOTests", dependencies: ["LinkCheckMachO", "LinkCheckTestSupport"]),
        .testTarget(name: "LinkCheckRulesTests", dependencies: ["LinkCheckRules", "LinkCheckTestSupport"]),
        .testTarget(
            name: "LinkCheckAnalysisTests",
            dependencies: [
                "LinkCheckAnalysis", "LinkCheckCodeIndex", "LinkCheckELF", "LinkCheckImage", "LinkCheckInspection", "LinkCheckReports",
                "LinkCheckRules",
                "LinkCheckTestSupport",
            ]
        ),
        // Snapshots/ holds golden files the tests read in place.
        .testTarget(
            name: "LinkCheckReportsTests",
            dependencies: [
                "LinkCheckReports", "LinkCheckAnalysis", "LinkCheckImage", "LinkCheckRules", "LinkCheckSourceLines", "LinkCheckTestSupport",
            ],
            exclude: ["Snapshots"]),
        .testTarget(
            name: "LinkCheckCLITests", dependencies: ["LinkCheckCLI", "LinkCheckSourceLines", "LinkCheckTestSupport"],
            exclude: ["Snapshots"]),
    ],
    swiftLanguageModes: [.v6]
)
