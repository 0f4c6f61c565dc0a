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
        let use = ByNameUse(guards: [UseGuard(kind: .respondsToSelector, function: "+[BNCheckedSender currentApplication]"), UseGuard(kind: .extensionCheck)])
        #expect(CheckJSON.render(Self.report(use)).contains("""
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
        #expect(CheckJSON.render(Self.report(ByNameUse())).contains("\"byName\" : {\n        \"guards\" : [\n\n        ]\n      },"))
        #expect(!CheckJSON.render(Self.report(nil)).contains("byName"))
    }
}
