import Foundation
import LinkCheckAnalysis
import LinkCheckTestSupport
import Testing

/// The built-in rules that apply to ELF and Mach-O alike say what they are
/// in terms of both (the api and source an HTML card, `rules explain` and a
/// finding show): a Mach-O image's missing library is no `DT_NEEDED` found
/// by `ld.so(8)` alone.
@Suite struct BuiltInRuleTextTests {
    /// Reader, an iOS executable linking `@rpath/Kit.framework/Kit`, checked
    /// without Kit: `LINK001`, described for Mach-O as well as ELF.
    @Test func aMachOImagesMissingLibraryIsDescribedInMachOTerms() throws {
        let directory = try Fixtures.temporaryDirectory()
        let frameworks = directory.url.appendingPathComponent("Frameworks")
        try MachOFixtures.link(
            MachOFixtures.Image(
                sources: MachOFixtures.sources("by-name-strings.m"), product: .dylib(installName: "@rpath/Kit.framework/Kit")),
            to: frameworks.appendingPathComponent("Kit.framework/Kit"))
        let reader = try MachOFixtures.link(
            MachOFixtures.Image(
                sources: MachOFixtures.sources("by-name-extension.c"), product: .executable, rpaths: ["@executable_path/Frameworks"],
                frameworks: ["Kit"], libraries: ["System"], frameworkSearchPaths: [frameworks], linkerFlags: ["-e", "_NSExtensionMain"]),
            to: directory.url.appendingPathComponent("bin/Reader"))
        let report = try ShippedRules.check(reader)
        let missing = try #require(report.findings.first { $0.rule == "LINK001" })
        #expect(missing.symbol == "@rpath/Kit.framework/Kit")
        let rule = try #require(report.rules["LINK001"])
        #expect(rule.api == "a needed library (DT_NEEDED, LC_LOAD_DYLIB)")
        #expect(missing.source == rule.source)
        #expect(
            rule.source
                == "ld.so(8): DT_RPATH, LD_LIBRARY_PATH, DT_RUNPATH, ld.so.cache, default paths; dyld(1): @rpath (LC_RPATH), @executable_path, @loader_path, DYLD_LIBRARY_PATH"
        )
        #expect(report.rules["INSP001"]?.api == "malformed image structure")
    }
}
