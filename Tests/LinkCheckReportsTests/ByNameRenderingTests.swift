import LinkCheckAnalysis
import LinkCheckReports
import Testing

/// A use by name (``ByNameUse``) in the JSON document: the object that
/// marks it, with the checks that guard it when they are known.
@Suite struct ByNameRenderingTests {
    static func report(_ use: ByNameUse?) -> Report {
        var finding = Finding(rule: "AEX001", severity: .warning, category: .unavailableAPI, kind: .objcByName, image: "Kit", message: "m")
        finding.byName = use
        return Report(inputs: ["Kit"], rulePacks: [], images: [], findings: [finding], errors: [], skipped: [], notices: [])
    }

    @Test func theJSONKeepsAUseByNameAndItsGuards() {
        let use = ByNameUse(guards: [
            UseGuard(kind: .respondsToSelector, function: "+[BNCheckedSender currentApplication]"), UseGuard(kind: .extensionCheck),
        ])
        #expect(
            CheckJSON().render(Self.report(use)).contains(
                """
                      "byName" : {
                        "guards" : [
                          {
                            "function" : "+[BNCheckedSender currentApplication]",
                            "kind" : "responds-to-selector"
                          },
                          {
                            "kind" : "extension-check"
                          }
                        ]
                      },
                """))
        #expect(CheckJSON().render(Self.report(ByNameUse())).contains("\"byName\" : {\n        \"guards\" : [\n\n        ]\n      },"))
        #expect(!CheckJSON().render(Self.report(nil)).contains("byName"))
    }
}

/// The notes about the run (the toolchain's code left out of the findings)
/// are one line each in the HTML report's account of the run.
@Suite struct RunNotesRenderingTests {
    @Test func theHTMLReportListsTheRunsNotesOnce() {
        var report = Report(inputs: ["Kit"], rulePacks: [], images: [], findings: [], errors: [], skipped: [], notices: [])
        report.remarks = ["the toolchain's availability check (compiler-rt) in 2 images (A.framework, B<.framework) calls dlopen, dlsym: …"]
        let html = HTMLRenderer().render(report)
        #expect(
            html.contains(
                "<dt>Notes</dt><dd><ul class=\"remarks\"><li>the toolchain&#39;s availability check (compiler-rt) in 2 images (A.framework, B&lt;.framework) calls dlopen, dlsym: …</li></ul></dd>"
            ))
        #expect(html.components(separatedBy: "availability check (compiler-rt)").count == 2)
        report.remarks = []
        #expect(!HTMLRenderer().render(report).contains("<dt>Notes</dt>"))
    }
}
