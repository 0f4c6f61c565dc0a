#if canImport(CLibDW)  // ELF source lines read through libdw: not in a build without libelf (Package.swift)
import Foundation
import LinkCheckAnalysis
import LinkCheckTestSupport
import Testing

/// The last stage of a check looks up the source lines of the call sites
/// the findings show; a run whose output shows none (`linkcheck graph`)
/// skips it: on a library whose `.debug_info` is damaged, the stage says
/// so in a notice, and without it there is no such notice and no source.
@Suite struct SourceLinesStageTests {
    @Test func aRunWithoutSourceLinesDoesNotReadTheDebugInformation() throws {
        let directory = try Fixtures.temporaryDirectory()
        let flags = ["-shared", "-g", "-O0"]
        let library = try Fixtures.compile("SourceLines/loader.c", to: directory.path("libloader.so"), flags: flags)
        let rules = try ShippedRules.ruleSet()
        let intact = CheckRun.check(paths: [library.path], rules: rules, policy: Policy(), jobs: 1)
        let sites = intact.findings.flatMap(\.callSites)
        #expect(!sites.isEmpty && sites.allSatisfy { $0.source != nil })
        // A reserved unit length (0xfffffff0) as the first unit's.
        try Readelf.overwrite(section: ".debug_info", of: library, with: [0xf0, 0xff, 0xff, 0xff])
        let checked = CheckRun.check(paths: [library.path], rules: rules, policy: Policy(), jobs: 1)
        #expect(checked.notices.contains { $0.hasPrefix("\(library.path): unreadable debug information") }, "\(checked.notices)")
        let graphed = CheckRun.check(paths: [library.path], rules: rules, policy: Policy(), sourceLines: false, jobs: 1)
        #expect(graphed.notices.isEmpty, "\(graphed.notices)")
        #expect(graphed.findings.flatMap(\.callSites).allSatisfy { $0.source == nil })
        #expect(graphed.findings.map(\.rule) == checked.findings.map(\.rule))
        #expect(graphed.findings.flatMap(\.callSites).map(\.address) == checked.findings.flatMap(\.callSites).map(\.address))
    }
}
#endif
