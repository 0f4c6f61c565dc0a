import Foundation
import LinkCheckRules
import LinkCheckTestSupport
import Testing

@Suite struct RulePackValidationTests {
    static func load(_ json: String) -> (RulePack?, [RulePackProblem]) {
        let outcome = RulePackLoader.load(data: Data(json.utf8), path: "pack.json")
        return (outcome.pack, outcome.problems)
    }

    static let validRule = """
        {"id": "TST001", "api": "Thing.shared", "category": "unavailable-api", "severity": "error",
         "match": [{"swift": "Kit.Thing.shared"}], "message": "m", "fixit": "f", "source": "s"}
        """

    @Test func shippedPacksAreValidAndIDsUnique() throws {
        let paths = DefaultRulePacks.paths()
        #expect(paths.count == 3)
        var packs: [RulePack] = []
        for path in paths {
            let loaded = RulePackLoader.load(path: path)
            #expect(loaded.problems.isEmpty, "\(loaded.problems)")
            packs += loaded.pack.map { [$0] } ?? []
        }
        let (set, duplicates) = RuleSet.build(packs: packs)
        #expect(duplicates.isEmpty)
        #expect(set.rules.count == Set(set.rules.map(\.id)).count)
        #expect(packs.map(\.name) == ["app-extension-unavailable", "conditional-loading", "selector-strings"])
    }

    @Test func shippedPacksCoverTheIssueList() throws {
        let packs = try ShippedRules.packs()
        let matchers = Set(packs.flatMap(\.rules).flatMap(\.matchers).map(\.description))
        for expected in [
            "swift: UIKit.UIApplication.shared", "symbol: dlopen", "symbol: dlmopen", "symbol: dlsym", "symbol: dlvsym",
            "objc: -[NSBundle load]", "objc: -[NSBundle loadAndReturnError:]",
            "objc: -[NSBundle classNamed:]", "swift: Foundation.NSClassFromString",
            "symbol: CFBundleGetFunctionPointerForName", "symbol: CFBundleGetFunctionPointersForNames",
            "symbol: CFBundleLoadExecutable", "string: TRUEPREDICATE", "string: sharedApplication",
            "string: openURL:",
        ] {
            #expect(matchers.contains(expected), "missing \(expected)")
        }
        let loading = try #require(packs.first { $0.name == "conditional-loading" })
        #expect(loading.rules.allSatisfy { $0.severity == .note && $0.category == .conditionalLoading })
        let capture = packs.flatMap(\.rules).first { $0.matchers.contains(.swift("AVFoundation.AVCaptureSession")) }
        #expect(capture?.allowedIn == [.imessage])
    }

    @Test func everyShippedRuleHasATriggeringAndANonTriggeringExample() throws {
        let packs = try ShippedRules.packs()
        #expect(packs.count == 3)
        for pack in packs {
            #expect(pack.exampleProblems.isEmpty, "\(pack.exampleProblems.map(\.description))")
        }
    }

    @Test func aRuleWithoutExamplesIsNamedWithItsJSONPath() throws {
        let pack = try #require(Self.load(#"{"format": 1, "name": "p", "version": "1", "rules": [\#(Self.validRule)]}"#).0)
        #expect(
            pack.exampleProblems.map(\.warningLine) == [
                "pack.json: warning: $.rules[0].examples: rule TST001 has no triggering and no nonTriggering example: examples show what the rule finds and what it leaves alone, and the shipped packs' are tests"
            ])
    }

    static func rule(sdk: String = "", examples: String = "") -> String {
        """
        {"format": 1, "name": "p", "version": "1", "rules": [
          {"id": "TST001", "api": "a", "category": "unavailable-api", "severity": "error", "match": [{"symbol": "x"}],
           "message": "m", "fixit": "f", "source": "s"\(sdk.isEmpty ? "" : ", \"sdk\": \(sdk)")\(examples.isEmpty ? "" : ", \"examples\": \(examples)")}]}
        """
    }

    @Test func anSDKRangeIsAnObjectOfVersions() throws {
        let pack = try #require(
            Self.load(Self.rule(sdk: #"{"platform": "ios", "markedFrom": "9.3", "markedUntil": "16.5", "unmarkedFrom": "17"}"#)).0)
        let range = try #require(pack.rules.first?.sdk)
        #expect(
            range
                == SDKRange(
                    platform: .iOS, markedFrom: SDKVersion("9.3")!, markedUntil: SDKVersion("16.5")!, unmarkedFrom: SDKVersion("17.0")!))
        #expect(range.isLifted)
        #expect(range.description == "iOS 9.3–16.5 (not marked from 17.0)")
        let marked = try #require(Self.load(Self.rule(sdk: #"{"platform": "macos", "markedFrom": "12.0"}"#)).0?.rules.first?.sdk)
        #expect(!marked.isLifted && marked.description == "macOS 12.0 and later")
    }

    @Test(arguments: [
        (
            #""iOS ≤16.5""#,
            "pack.json: $.rules[0].sdk: expected an object with platform, markedFrom and, when the marking was lifted, markedUntil and unmarkedFrom"
        ),
        (
            #"{"platform": "ios", "markedFrom": "9.3", "markedUntil": "16.5"}"#,
            "pack.json: $.rules[0].sdk: markedUntil (the last SDK seen marked) and unmarkedFrom (the first seen unmarked) go together"
        ),
        (
            #"{"platform": "ios", "markedFrom": "17.0", "markedUntil": "16.5", "unmarkedFrom": "16.5"}"#,
            "pack.json: $.rules[0].sdk.markedUntil: markedUntil 16.5 is before markedFrom 17.0"
        ),
        (
            #"{"platform": "ios", "markedFrom": "iOS 9"}"#,
            "pack.json: $.rules[0].sdk.markedFrom: 'iOS 9' is not a version (16.5, 17.0, 13.4.1)"
        ),
        (
            #"{"platform": "android", "markedFrom": "9.3"}"#,
            "pack.json: $.rules[0].sdk.platform: unknown platform 'android' (known: ios, macos, tvos, watchos, visionos)"
        ),
        (#"{"platform": "ios"}"#, "pack.json: $.rules[0].sdk: missing required field 'markedFrom'"),
        (#"{"platform": "ios", "markedFrom": "9.3", "from": "1"}"#, "pack.json: $.rules[0].sdk.from: unknown key 'from'"),
    ])
    func aBadSDKRangeIsAProblemAtItsPath(sdk: String, problem: String) {
        let (pack, problems) = Self.load(Self.rule(sdk: sdk))
        #expect(pack == nil)
        #expect(problems.map(\.description).contains(problem), "\(problems.map(\.description))")
    }

    @Test func examplesSayTheirLanguageFormatSourceAndContext() throws {
        let pack = try #require(
            Self.load(
                Self.rule(
                    sdk: #"{"platform": "ios", "markedFrom": "9.3", "markedUntil": "16.5", "unmarkedFrom": "17.0"}"#,
                    examples: """
                        {"triggering": [{"language": "swift", "format": "elf", "code": "import UIKit"},
                                        {"language": "objc", "format": "macho", "code": "x", "sdk": "16.4", "minimumOS": "14.0", "severity": "warning"}],
                         "nonTriggering": [{"language": "c", "format": "elf", "code": "y", "extension": "imessage", "libraries": ["CoreKE"]},
                                           {"language": "objc", "format": "elf", "code": "z", "objcRuntime": "gnustep-1.9", "appOnly": true}]}
                        """)
            ).0)
        let examples = try #require(pack.rules.first?.examples)
        #expect(
            examples.triggering == [
                RuleExample(language: .swift, format: .elf, code: "import UIKit"),
                RuleExample(
                    language: .objc, format: .macho, code: "x", minimumOS: SDKVersion("14.0"), sdk: SDKVersion("16.4"), severity: .warning),
            ])
        #expect(
            examples.nonTriggering == [
                RuleExample(language: .c, format: .elf, code: "y", extensionType: .imessage, libraries: ["CoreKE"]),
                RuleExample(language: .objc, format: .elf, code: "z", appOnly: true, objcRuntime: .gnustep1),
            ])
        #expect(examples.triggering[1].summary == "objc, macho, iOS 14.0, SDK 16.4, a warning")
        #expect(
            examples.nonTriggering.map(\.summary) == [
                "c, elf, links CoreKE, extension type imessage", "objc, elf, gnustep-1.9, linked only by the containing app",
            ])
        // What the writer writes (examples, range), the loader reads back.
        #expect(pack.rules.first?.sdk?.isLifted == true)
        let again = RulePackLoader.load(data: RulePackWriter.json(pack), path: "pack.json")
        #expect(again.problems.isEmpty)
        #expect(again.pack?.rules == pack.rules)
    }

    @Test func aBadExampleIsAProblemAtItsPath() {
        let (pack, problems) = Self.load(
            Self.rule(
                examples: """
                    {"triggering": [{"language": "swift", "format": "macho", "code": "x"},
                                    {"language": "kotlin", "format": "elf", "code": "x", "sdk": "16.4"}],
                     "nonTriggering": [{"language": "c", "format": "elf", "code": "y", "severity": "note", "extension": "imessage", "appOnly": true},
                                       {"language": "c", "format": "macho", "code": "z", "objcRuntime": "gnustep-2.0"}],
                     "nearMisses": []}
                    """))
        #expect(pack == nil)
        #expect(
            Set(problems.map(\.description)) == [
                "pack.json: $.rules[0].examples.nearMisses: unknown key 'nearMisses'",
                "pack.json: $.rules[0].examples.triggering[0].format: swift examples are built for elf only",
                "pack.json: $.rules[0].examples.triggering[1].language: unknown language 'kotlin' (c, objc or swift)",
                "pack.json: $.rules[0].examples.triggering[1].sdk: sdk is recorded in Mach-O images only (LC_BUILD_VERSION)",
                "pack.json: $.rules[0].examples.nonTriggering[0]: an example is checked either in an extension or as an app-only framework, not both",
                "pack.json: $.rules[0].examples.nonTriggering[0].severity: only a triggering example expects a severity",
                "pack.json: $.rules[0].examples.nonTriggering[1].objcRuntime: objcRuntime is for Objective-C examples built for ELF",
            ])
    }

    @Test func versionsCompareNumberByNumber() {
        let versions = ["9.3", "10.3", "16.5", "17", "17.0.1", "26.4"].map { SDKVersion($0)! }
        #expect(versions == versions.sorted())
        #expect(SDKVersion("17") == SDKVersion("17.0.0"))
        #expect(SDKVersion("17")?.description == "17.0")
        for bad in ["", "17.", ".5", "1.2.3.4", "v17", "12345.0", "17.0 (Xcode 15.0)"] {
            #expect(SDKVersion(bad) == nil, "\(bad)")
        }
    }

    @Test func aValidPackLoads() throws {
        let (pack, problems) = Self.load(#"{"format": 1, "name": "p", "version": "1", "rules": [\#(Self.validRule)]}"#)
        #expect(problems.isEmpty)
        #expect(pack?.rules.map(\.id) == ["TST001"])
        #expect(pack?.rules.first?.matchers == [.swift("Kit.Thing.shared")])
        #expect(pack?.rules.first?.pack == "p")
    }

    @Test func everyProblemIsReportedWithItsJSONPath() {
        let json = """
            {"format": 1, "name": "p", "version": "1", "extra": true, "rules": [
              \(Self.validRule),
              {"id": "TST001", "api": "a", "category": "unavailable-api", "severity": "fatal",
               "match": [{"glob": "foo[bar"}, {"symbol": "x", "glob": "y"}, {"regex": "z"}],
               "message": "m", "fixit": "f", "source": "s", "colour": "red"},
              {"id": "bad", "category": "nonsense", "severity": "note", "match": [{"swift": "NoModule"}],
               "message": "m", "fixit": "f", "source": "s", "allowedIn": ["spaceship"]}
            ]}
            """
        let (pack, problems) = Self.load(json)
        #expect(pack == nil)
        let found = Set(problems.map(\.description))
        let expected: Set<String> = [
            "pack.json: $.extra: unknown key 'extra'",
            "pack.json: $.rules[1].colour: unknown key 'colour'",
            "pack.json: $.rules[1].severity: unknown severity 'fatal' (error, warning or note)",
            "pack.json: $.rules[1].match[0].glob: bad glob 'foo[bar': unclosed '[' at offset 3",
            "pack.json: $.rules[1].match[1]: expected an object with exactly one of symbol, glob, swift, cxx, objc, string, library",
            "pack.json: $.rules[1].match[2].regex: unknown key 'regex'",
            "pack.json: $.rules[1].id: duplicate rule id 'TST001' (first defined in pack.json $.rules[0])",
            "pack.json: $.rules[2].id: id 'bad' must be 2–8 capital letters then 3–4 digits, e.g. AEX001",
            "pack.json: $.rules[2]: missing required field 'api'",
            "pack.json: $.rules[2].category: unknown category 'nonsense' (known: unavailable-api, restricted-api, conditional-loading, review-risk, configuration, architecture, bundle)",
            "pack.json: $.rules[2].match[0].swift: a Swift declaration path needs a module and a declaration, e.g. UIKit.UIApplication.shared",
            "pack.json: $.rules[2].allowedIn[0]: unknown extension type 'spaceship'",
        ]
        #expect(found == expected)
        #expect(problems.allSatisfy { $0.file == "pack.json" })
    }

    @Test func aKeyTwiceInOneObjectIsAProblemWhereverItIs() {
        // JSONSerialization keeps one of the two values without a word.
        let json = """
            {"format": 1, "name": "p", "version": "1", "rules": [
              {"id": "TST001", "api": "a", "category": "unavailable-api", "severity": "error", "severity": "note",
               "match": [{"symbol": "x", "symbol": "y"}], "message": "m", "fixit": "f", "source": "s"},
              {"id": "TST002", "api": "b", "category": "unavailable-api", "severity": "error",
               "match": [{"symbol": "z"}], "message": "m", "fixit": "f", "source": "s", "\\u0073ource": "t"}
            ], "name": "q"}
            """
        let (pack, problems) = Self.load(json)
        #expect(pack == nil)
        #expect(
            problems.map(\.description) == [
                "pack.json: $.rules[0].severity: key 'severity' appears more than once in this object (only one of the values would be used)",
                "pack.json: $.rules[0].match[0].symbol: key 'symbol' appears more than once in this object (only one of the values would be used)",
                "pack.json: $.rules[1].source: key 'source' appears more than once in this object (only one of the values would be used)",
                "pack.json: $.name: key 'name' appears more than once in this object (only one of the values would be used)",
            ])
    }

    @Test func aTrailingCommaInAPackIsAnErrorWithItsLineAndColumn() {
        let (pack, problems) = Self.load(
            """
            {"format": 1, "name": "p", "version": "1", "rules": [
              \(Self.validRule),
            ]}
            """)
        #expect(pack == nil)
        #expect(
            problems.map(\.errorLine) == [
                "pack.json:3:88: error: invalid JSON: trailing comma: JSON allows no comma after the last element of an array"
            ])
    }

    @Test func aFIFOOrAFolderIsNotReadAsAPack() throws {
        let directory = try Fixtures.temporaryDirectory()
        let fifo = directory.path("pack.json").path
        #expect(mkfifo(fifo, 0o644) == 0)
        // Opening the FIFO would wait for a writer forever.
        #expect(
            RulePackLoader.load(path: fifo).problems.map(\.description) == [
                "\(fifo): $: cannot read: is not a regular file (a FIFO, socket or device)"
            ])
        #expect(
            RulePackLoader.load(path: directory.url.path).problems.map(\.description) == [
                "\(directory.url.path): $: cannot read: is a directory"
            ])
    }

    @Test func theSameKeyInDifferentObjectsAndInStringsIsFine() throws {
        let data = Data(#"{"a": {"b": 1, "c": "\"b\": 2, \"b\""}, "d": [{"b": 1}, {"b": 2}], "e": "{\"a\": 1}"}"#.utf8)
        #expect(try JSONSyntax.check(data).isEmpty)
        #expect(
            try JSONSyntax.check(Data(#"[{"x": [1, {"y": 1, "y": 2}]}]"#.utf8)) == [
                JSONDuplicateKeys.Duplicate(key: "y", jsonPath: "$[0].x[1].y")
            ])
    }

    @Test func duplicateIDsInOnePackAndAcrossPacks() throws {
        let (_, inOne) = Self.load(#"{"format": 1, "name": "p", "version": "1", "rules": [\#(Self.validRule), \#(Self.validRule)]}"#)
        #expect(inOne.map(\.jsonPath) == ["$.rules[1].id"])
        #expect(inOne.first?.kind == .duplicateID("TST001", firstSeen: "pack.json $.rules[0]"))

        let first = try #require(
            RulePackLoader.load(
                data: Data(#"{"format": 1, "name": "a", "version": "1", "rules": [\#(Self.validRule)]}"#.utf8), path: "a.json"
            ).pack)
        let second = try #require(
            RulePackLoader.load(
                data: Data(#"{"format": 1, "name": "b", "version": "1", "rules": [\#(Self.validRule)]}"#.utf8), path: "b.json"
            ).pack)
        let (set, across) = RuleSet.build(packs: [first, second])
        #expect(across == [RulePackProblem(file: "b.json", jsonPath: "$.rules[0].id", kind: .duplicateID("TST001", firstSeen: "a.json"))])
        #expect(set.rules.count == 1)
    }

    /// Two rules of one id, each with another problem: the repeated id is
    /// reported too, and both ids are declared for the checks across packs.
    @Test func duplicateIDsBetweenRulesWithOtherProblems() {
        let broken = #"{"id": "TST001", "api": "a", "category": "unavailable-api", "severity": "error", "match": [{"symbol": "x"}]}"#
        let outcome = RulePackLoader.load(
            data: Data(#"{"format": 1, "name": "p", "version": "1", "rules": [\#(broken), \#(broken)]}"#.utf8), path: "pack.json")
        #expect(outcome.pack == nil)
        #expect(
            outcome.problems.filter { $0.jsonPath == "$.rules[1].id" }.map(\.kind) == [
                .duplicateID("TST001", firstSeen: "pack.json $.rules[0]")
            ])
        #expect(outcome.problems.count == 7, "\(outcome.problems)")
        #expect(outcome.ruleIDs == [RuleIDRegistry.Declaration(id: "TST001", jsonPath: "$.rules[0].id")])
    }

    @Test func missingFieldsFormatAndJSONErrors() {
        #expect(Self.load(#"{"name": "p", "version": "1", "rules": []}"#).1.map(\.kind) == [.missingField("format")])
        #expect(Self.load(#"{"format": 2, "name": "p", "version": "1", "rules": []}"#).1.map(\.kind) == [.unsupportedFormat(2)])
        #expect(
            Self.load(#"{"format": true, "name": "p", "version": "1", "rules": []}"#).1.map(\.kind) == [.wrongType(expected: "an integer")])
        let invalid = Self.load(#"{"format": 1,"#).1
        #expect(invalid.count == 1)
        if case .invalidJSON = invalid.first?.kind {} else { Issue.record("expected invalidJSON, got \(invalid)") }
        let unreadable = RulePackLoader.load(path: "/nonexistent/pack.json").problems
        if case .unreadable = unreadable.first?.kind {} else { Issue.record("expected unreadable, got \(unreadable)") }
    }
}
