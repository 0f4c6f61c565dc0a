import Foundation
import LinkCheckRules
import LinkCheckTestSupport
import Testing

/// Rules from `@available(…ApplicationExtension, unavailable)` in symbol graphs.
@Suite struct SymbolGraphRulesTests {
    /// A symbol graph as swift-symbolgraph-extract writes it, cut down to the
    /// fields linkcheck reads.
    static let graph = """
        {"metadata": {"formatVersion": {"major": 0, "minor": 6, "patch": 0}, "generator": "test"},
         "module": {"name": "Kit", "platform": {}},
         "symbols": [
          {"identifier": {"precise": "s:3Kit6WidgetC6sharedACvpZ", "interfaceLanguage": "swift"},
           "pathComponents": ["Widget", "shared"], "kind": {"identifier": "swift.type.property"},
           "availability": [{"domain": "iOSAppExtension", "isUnconditionallyUnavailable": true, "message": "Use the context."}]},
          {"identifier": {"precise": "s:3Kit6WidgetC4open4pathSbSS_tF", "interfaceLanguage": "swift"},
           "pathComponents": ["Widget", "open(path:)"], "kind": {"identifier": "swift.method"},
           "availability": [{"domain": "macOSAppExtension", "isUnconditionallyUnavailable": true}]},
          {"identifier": {"precise": "s:3Kit6WidgetC5label5styleACSS_SitcfC", "interfaceLanguage": "swift"},
           "pathComponents": ["Widget", "init(label:style:)"], "kind": {"identifier": "swift.init"},
           "availability": [{"domain": "iOSAppExtension", "isUnconditionallyUnavailable": true}]},
          {"identifier": {"precise": "s:3Kit6WidgetC4sizeSivp", "interfaceLanguage": "swift"},
           "pathComponents": ["Widget", "size"], "kind": {"identifier": "swift.property"},
           "availability": [{"domain": "iOS", "introduced": {"major": 13}}]},
          {"identifier": {"precise": "s:3Kit6WidgetC5resetyyF", "interfaceLanguage": "swift"},
           "pathComponents": ["Widget", "reset()"], "kind": {"identifier": "swift.method"},
           "availability": [{"domain": "iOSAppExtension", "introduced": {"major": 15}}]}
         ],
         "relationships": []}
        """

    static func annotations() throws -> [SymbolGraphRules.Annotation] {
        let directory = try Fixtures.temporaryDirectory()
        try graph.write(to: directory.path("Kit.symbols.json"), atomically: true, encoding: .utf8)
        return try SymbolGraphRules.annotations(inDirectory: directory.url.path)
    }

    @Test func unconditionallyUnavailableInAnExtensionDomainBecomesARule() throws {
        let annotations = try Self.annotations()
        #expect(annotations.map(\.path) == ["Kit.Widget.init", "Kit.Widget.open", "Kit.Widget.shared"])
        #expect(annotations.map(\.title) == ["Widget.init(label:style:)", "Widget.open(path:)", "Widget.shared"])
        #expect(annotations.last?.message == "Use the context.")
        #expect(annotations[1].domains == ["macOSAppExtension"])
    }

    @Test func theGeneratedPackIsAValidPackThatMatchesTheDeclarations() throws {
        let pack = SymbolGraphRules.pack(try Self.annotations(), name: "kit", idPrefix: "KIT")
        #expect(pack.rules.map(\.id) == ["KIT001", "KIT002", "KIT003"])
        #expect(pack.rules[2].message == "Kit.Widget.shared is unavailable in app extensions: Use the context.")
        #expect(
            pack.rules[1].source
                == "Kit: @available(macOSApplicationExtension, unavailable) on Widget.open(path:) (s:3Kit6WidgetC4open4pathSbSS_tF)")
        let outcome = RulePackLoader.load(data: RulePackWriter.json(pack), path: "kit.json")
        let loaded = outcome.pack
        #expect(outcome.problems.isEmpty)
        #expect(
            loaded?.rules
                == pack.rules.map { rule in
                    var copy = rule; copy.pack = "kit"; return copy
                })
        let rules = RuleSet.build(packs: [try #require(loaded)]).0
        // The getter a client imports, and the allocating initializer.
        #expect(rules.rules(matchingSymbol: "$s3Kit6WidgetC6sharedACvgZ").map(\.rule.id) == ["KIT003"])
        #expect(rules.rules(matchingSymbol: "$s3Kit6WidgetC5label5styleACSS_SitcfC").map(\.rule.id) == ["KIT001"])
        #expect(rules.rules(matchingSymbol: "$s3Kit6WidgetC4sizeSivg").isEmpty)
    }

    /// Fields of the wrong type were read as absent, so such a graph gave
    /// 0 rules without a word.
    @Test(
        arguments: [
            (#"{"module": {"name": "Kit"}, "symbols": {"a": 1}}"#, "$.symbols", "expected an array"),
            (
                #"{"module": {"name": "Kit"}, "symbols": [{"identifier": {"precise": "s:1"}, "pathComponents": ["a"], "availability": ["iOSAppExtension"]}]}"#,
                "$.symbols[0].availability[0]", "expected an object"
            ),
            (
                #"{"module": {"name": "Kit"}, "symbols": [{"identifier": {"precise": "s:1"}, "pathComponents": ["a"], "availability": [{"domain": "iOSAppExtension", "isUnconditionallyUnavailable": 1}]}]}"#,
                "$.symbols[0].availability[0].isUnconditionallyUnavailable", "expected true or false"
            ),
            (
                #"{"module": {"name": "Kit"}, "symbols": [{"identifier": {"precise": 7}, "pathComponents": ["a"]}]}"#,
                "$.symbols[0].identifier.precise", "expected a string"
            ),
            (
                #"{"module": {"name": "Kit"}, "symbols": [{"identifier": {"precise": "s:1"}, "pathComponents": "a"}]}"#,
                "$.symbols[0].pathComponents", "expected an array"
            ),
            (#"{"module": "Kit", "symbols": []}"#, "$.module", "expected an object"),
            (#"{"module": {"name": "Kit"}}"#, "$", "missing required field 'symbols'"),
        ] as [(String, String, String)])
    func aSymbolGraphOfTheWrongTypesIsAnErrorWithItsJSONPath(json: String, jsonPath: String, problem: String) throws {
        let directory = try Fixtures.temporaryDirectory()
        try json.write(to: directory.path("Kit.symbols.json"), atomically: true, encoding: .utf8)
        let file = directory.path("Kit.symbols.json").path
        let error = #expect(throws: RulePackProblem.self) { try SymbolGraphRules.annotations(inDirectory: directory.url.path) }
        #expect(error?.description == "\(file): \(jsonPath): \(problem)")
    }

    @Test func notASymbolGraph() throws {
        let directory = try Fixtures.temporaryDirectory()
        try "[1, 2]".write(to: directory.path("Bad.symbols.json"), atomically: true, encoding: .utf8)
        #expect(throws: RulePackProblem.self) { try SymbolGraphRules.annotations(inDirectory: directory.url.path) }
    }
}
