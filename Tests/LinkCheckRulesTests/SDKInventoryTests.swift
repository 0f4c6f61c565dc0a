import Foundation
import LinkCheckRules
import LinkCheckTestSupport
import Testing

/// The default packs against the SDK inventory
/// (`../shared/reference/sdk-extension-markings.tsv`: every declaration the
/// iOS 9.3 to 26.5 and macOS 12 SDK headers mark unavailable in app
/// extensions), read at test time: every marking with a trace in a binary
/// is caught by one rule, through its Objective-C name in Mach-O and its
/// Swift path in ELF, with the header's message, the header and macro in
/// its source, and the SDKs in which the marking was seen as its range;
/// every marking without a trace is listed in `Rules/README.md` as out of
/// reach.
@Suite struct SDKInventoryTests {
    /// One row of the inventory.
    struct Marking: CustomStringConvertible {
        var fields: [String: String]
        subscript(_ column: String) -> String { fields[column] ?? "" }

        /// `-[UIApplication openURL:]`, without `(@property …)`.
        var declaration: String {
            let text = self["declaration"]
            return text.range(of: " (@property").map { String(text[..<$0.lowerBound]) } ?? text
        }

        var description: String { declaration }

        /// An enum constant or a protocol a class adopts: nothing a binary
        /// keeps names it.
        var hasTrace: Bool { !self["macho_symbol"].hasPrefix("none") }

        /// The Objective-C matcher that finds it in Mach-O, or `nil` for a
        /// Swift-only declaration.
        var objcMatcher: Matcher? {
            if self["kind"] == "class" { return ObjCName(declaration).map(Matcher.objc) }
            guard declaration.hasPrefix("+[") || declaration.hasPrefix("-[") else { return nil }
            if self["macho_symbol"].contains("selector only"), let space = declaration.firstIndex(of: " ") {
                // A protocol's method: `-[id<Protocol> selector]`.
                return ObjCName("-[id<\(declaration.dropFirst(2)[..<space])>\(declaration[space...])").map(Matcher.objc)
            }
            return ObjCName(declaration).map(Matcher.objc)
        }

        /// `UIKit.UIApplication.openURL`, from the Swift name
        /// (`UIApplication.openURL(_:) (deprecated iOS 10)`): module first,
        /// no labels, an initializer as `init`.
        var swiftPath: String {
            var name = self["swift_name"]
            for separator in [" (", " / ", " ["] {
                if let range = name.range(of: separator) { name = String(name[..<range.lowerBound]) }
            }
            if let parenthesis = name.firstIndex(of: "(") {
                let base = name[..<parenthesis]
                name = base.contains(".") ? String(base) : "\(base).init"
            }
            let framework = self["framework"]
            return name.hasPrefix(framework + ".") ? name : "\(framework).\(name)"
        }

        /// `(platform, version)` of a column such as `iOS 9.3 (theos)`.
        func version(_ column: String) -> (SDKPlatform, SDKVersion)? {
            let words = self[column].split(separator: " ")
            guard words.count >= 2, let version = SDKVersion(String(words[1])) else { return nil }
            switch words[0] {
            case "iOS": return (.iOS, version)
            case "macOS": return (.macOS, version)
            default: return nil
            }
        }

        var isLifted: Bool { self["status"].hasPrefix("historical") }
    }

    static func inventory() throws -> [Marking] {
        let file = Fixtures.referenceDirectory.appendingPathComponent("sdk-extension-markings.tsv")
        let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: true)
        let header = try #require(lines.first).split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        return lines.dropFirst().map { line in
            let cells = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            return Marking(fields: Dictionary(uniqueKeysWithValues: zip(header, cells)))
        }
    }

    static func rules() throws -> [Rule] {
        try ShippedRules.packs().flatMap(\.rules)
    }

    /// The rule that finds `marking` in Mach-O: by its Objective-C name, or
    /// for a Swift-only declaration by its Swift path.
    static func rule(for marking: Marking, in rules: [Rule]) -> Rule? {
        if let objc = marking.objcMatcher { return rules.first { $0.matchers.contains(objc) } }
        return rules.first { covers($0, marking.swiftPath) }
    }

    /// Whether a `swift` matcher of `rule` covers `path` (itself, or a type
    /// or member it belongs to).
    static func covers(_ rule: Rule, _ path: String) -> Bool {
        rule.matchers.contains { matcher in
            guard case .swift(let pattern) = matcher else { return false }
            return path == pattern || path.hasPrefix(pattern + ".")
        }
    }

    @Test func theInventoryIsThere() throws {
        let inventory = try Self.inventory()
        #expect(inventory.count == 51, "\(Fixtures.referenceDirectory.path)")
        #expect(inventory.filter(\.hasTrace).count == 44)
    }

    @Test func everyMarkingWithATraceIsCaughtInMachOAndInELFByOneRule() throws {
        let rules = try Self.rules()
        for marking in try Self.inventory() where marking.hasTrace {
            guard let rule = Self.rule(for: marking, in: rules) else {
                Issue.record("\(marking): no rule has \(marking.objcMatcher.map(\.description) ?? marking.swiftPath)")
                continue
            }
            #expect(Self.covers(rule, marking.swiftPath), "\(marking): \(rule.id) has no Swift path for \(marking.swiftPath)")
            #expect(rule.category == .unavailableAPI && rule.severity == .error, "\(marking): \(rule.id)")
        }
    }

    @Test func eachRuleCarriesTheHeadersMessageAndNamesTheHeaderAndMacro() throws {
        let rules = try Self.rules()
        for marking in try Self.inventory() where marking.hasTrace {
            guard let rule = Self.rule(for: marking, in: rules) else { continue }
            let message = marking["message"]
            #expect(message.isEmpty || rule.message.contains("\"\(message)\""), "\(marking): \(rule.id)'s message lacks \"\(message)\"")
            let header = URL(fileURLWithPath: marking["header_or_interface"]).lastPathComponent
            #expect(rule.source.contains(header), "\(marking): \(rule.id)'s source does not name \(header)")
            let macro = marking["marking_macro"].hasPrefix("@available") ? "@available(iOSApplicationExtension" : marking["marking_macro"]
            #expect(
                rule.source.contains(macro + "(") || rule.source.contains(macro + " ") || rule.source.contains(macro + ","),
                "\(marking): \(rule.id)'s source does not name \(macro)")
        }
    }

    /// A rule's range starts at the first SDK seen marking any of its
    /// declarations; one whose marking was lifted ends where the inventory
    /// last saw it and names the first SDK without it; the source says the
    /// same.
    @Test func eachRulesSDKRangeIsTheInventorys() throws {
        let rules = try Self.rules()
        var firstMarked: [RuleID: SDKVersion] = [:]
        for marking in try Self.inventory() where marking.hasTrace {
            guard let rule = Self.rule(for: marking, in: rules) else { continue }
            guard let range = rule.sdk, let (platform, first) = marking.version("first_sdk_seen_marked") else {
                Issue.record("\(marking): \(rule.id) has no SDK range")
                continue
            }
            #expect(range.platform == platform, "\(marking): \(rule.id)")
            firstMarked[rule.id] = min(firstMarked[rule.id] ?? first, first)
            if marking.isLifted {
                #expect(range.markedUntil == marking.version("last_sdk_seen_marked")?.1, "\(marking): \(rule.id)")
                #expect(range.unmarkedFrom == marking.version("first_sdk_seen_unmarked")?.1, "\(marking): \(rule.id)")
            } else {
                #expect(!range.isLifted, "\(marking) is still marked, but \(rule.id)'s range ends")
            }
            for version in [range.markedFrom, range.markedUntil, range.unmarkedFrom].compactMap({ $0 }) {
                #expect(rule.source.contains(" \(version)"), "\(rule.id)'s source does not give \(version)")
            }
        }
        for (id, first) in firstMarked {
            #expect(rules.first { $0.id == id }?.sdk?.markedFrom == first, "\(id)")
        }
    }

    /// What has no trace (an enum constant compiled to a number, a protocol
    /// a class adopts) is named in `Rules/README.md`, under what the packs do
    /// not cover.
    @Test func everyMarkingWithoutATraceIsDocumentedAsOutOfReach() throws {
        let readme = try String(contentsOf: Fixtures.repositoryRoot.appendingPathComponent("Rules/README.md"), encoding: .utf8)
        let section = try #require(readme.range(of: "## What the packs do not cover").map { readme[$0.upperBound...] })
        for marking in try Self.inventory() where !marking.hasTrace {
            let name = marking.declaration.replacingOccurrences(of: "@protocol ", with: "")
            #expect(section.contains("`\(name)`"), "\(name) is not in Rules/README.md's out-of-reach list")
        }
    }
}
