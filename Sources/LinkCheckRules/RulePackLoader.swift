import Foundation

/// Reads rule packs strictly: every problem is reported with its JSON path,
/// not just the first one.
public enum RulePackLoader {
    /// The `format` this linkcheck reads.
    public static let supportedFormat = 1

    /// What reading one pack file gave.
    public struct Outcome: Sendable {
        /// The pack, when the file has no problem.
        public var pack: RulePack?
        /// Every problem found.
        public var problems: [RulePackProblem]
        /// The rule ids the file declares (each rule object's string `id`,
        /// the first of a repeated one), also in a pack or rule with
        /// problems: ids repeated across packs are found in the same run
        /// (``RuleIDRegistry``).
        public var ruleIDs: [RuleIDRegistry.Declaration] = []
    }

    /// Reads and validates the pack at `path` (its syntax with
    /// ``JSONSyntax``, which rejects trailing commas and gives the line and
    /// column of a syntax error).
    ///
    /// - Returns: the pack when it has no problem, and every problem found:
    ///   unreadable file, invalid JSON, unsupported `format`, unknown key,
    ///   missing field, wrong type, invalid value (id shape, severity,
    ///   category, extension type), bad glob, or an id repeated in the file
    ///   (also between rules that have other problems).
    public static func load(path: String) -> Outcome {
        do throws(InputFile.Failure) {
            return load(data: try InputFile.read(path), path: path)
        } catch {
            return Outcome(pack: nil, problems: [RulePackProblem(file: path, jsonPath: "$", kind: .unreadable(reason: error.reason))])
        }
    }

    /// Validates a pack already in memory; `path` names it in problems.
    public static func load(data: Data, path: String) -> Outcome {
        let document: Any
        let duplicates: [JSONDuplicateKeys.Duplicate]
        do {
            (document, duplicates) = try JSONSyntax.parse(data)
        } catch {
            return Outcome(pack: nil, problems: [RulePackProblem(file: path, jsonPath: "$", kind: .invalidJSON(error))])
        }
        var reader = PackReader(file: path)
        for duplicate in duplicates {
            reader.report(duplicate.jsonPath, .duplicateKey(duplicate))
        }
        let pack = reader.pack(document)
        return Outcome(pack: reader.problems.isEmpty ? pack : nil, problems: reader.problems, ruleIDs: reader.ruleIDs)
    }
}

/// Walks the parsed JSON and records a problem for everything out of shape.
private struct PackReader {
    let file: String
    var problems: [RulePackProblem] = []
    /// The first declaration of each rule id, valid rule or not.
    var ruleIDs: [RuleIDRegistry.Declaration] = []

    static let packKeys: Set<String> = ["format", "name", "version", "description", "rules"]
    static let ruleKeys: Set<String> = [
        "id", "api", "category", "severity", "match", "message", "fixit", "source", "allowedIn", "sdk", "examples",
    ]
    static let sdkKeys: Set<String> = ["platform", "markedFrom", "markedUntil", "unmarkedFrom"]
    static let examplesKeys: Set<String> = ["triggering", "nonTriggering"]
    static let exampleKeys: Set<String> = [
        "language", "format", "code", "extension", "appOnly", "libraries", "objcRuntime", "platform", "minimumOS", "sdk",
        "severity",
    ]

    mutating func report(_ path: String, _ kind: RulePackProblem.Kind) {
        problems.append(RulePackProblem(file: file, jsonPath: path, kind: kind))
    }

    mutating func object(_ value: Any?, _ path: String, allowed: Set<String>) -> [String: Any]? {
        guard let object = value as? [String: Any] else {
            report(path, .wrongType(expected: "an object"))
            return nil
        }
        for key in object.keys.sorted() where !allowed.contains(key) {
            report("\(path).\(key)", .unknownKey(key))
        }
        return object
    }

    mutating func string(_ object: [String: Any], _ key: String, _ path: String, required: Bool = true) -> String? {
        guard let value = object[key] else {
            if required { report(path, .missingField(key)) }
            return nil
        }
        guard let text = value as? String else {
            report("\(path).\(key)", .wrongType(expected: "a string"))
            return nil
        }
        if text.isEmpty { report("\(path).\(key)", .invalidValue("must not be empty")) }
        return text
    }

    mutating func pack(_ document: Any) -> RulePack? {
        guard let root = object(document, "$", allowed: Self.packKeys) else { return nil }
        var format: Int?
        if let value = root["format"] {
            if let number = jsonInteger(value) {
                format = number
                if number != RulePackLoader.supportedFormat { report("$.format", .unsupportedFormat(number)) }
            } else {
                report("$.format", .wrongType(expected: "an integer"))
            }
        } else {
            report("$", .missingField("format"))
        }
        let name = string(root, "name", "$")
        let version = string(root, "version", "$")
        let description = string(root, "description", "$", required: false)
        var rules: [Rule] = []
        if let list = root["rules"] {
            if let array = list as? [Any] {
                var seen: [String: String] = [:]
                for (index, item) in array.enumerated() {
                    let path = "$.rules[\(index)]"
                    let parsed = rule(item, path, pack: name ?? "")
                    // An id repeated is a problem whatever else is wrong
                    // with either rule.
                    guard let id = (item as? [String: Any])?["id"] as? String else { continue }
                    if let first = seen[id] {
                        report("\(path).id", .duplicateID(RuleID(id), firstSeen: "\(file) \(first)"))
                    } else {
                        seen[id] = path
                        ruleIDs.append(RuleIDRegistry.Declaration(id: RuleID(id), jsonPath: "\(path).id"))
                        if let parsed { rules.append(parsed) }
                    }
                }
            } else {
                report("$.rules", .wrongType(expected: "an array"))
            }
        } else {
            report("$", .missingField("rules"))
        }
        guard let format, let name, let version else { return nil }
        return RulePack(path: file, format: format, name: name, version: version, description: description, rules: rules)
    }

    mutating func rule(_ value: Any, _ path: String, pack: String) -> Rule? {
        guard let object = object(value, path, allowed: Self.ruleKeys) else { return nil }
        let id = string(object, "id", path)
        if let id, !RuleID.isWellFormed(id) {
            report("\(path).id", .invalidValue("id '\(id)' must be 2–8 capital letters then 3–4 digits, e.g. AEX001"))
        }
        let api = string(object, "api", path)
        let categoryName = string(object, "category", path)
        let category = categoryName.flatMap(RuleCategory.init(rawValue:))
        if let categoryName, category == nil {
            let known = RuleCategory.allCases.map(\.rawValue).joined(separator: ", ")
            report("\(path).category", .invalidValue("unknown category '\(categoryName)' (known: \(known))"))
        }
        let severityName = string(object, "severity", path)
        let severity = severityName.flatMap(Severity.init(rawValue:))
        if let severityName, severity == nil {
            report("\(path).severity", .invalidValue("unknown severity '\(severityName)' (error, warning or note)"))
        }
        let matchers = matchers(object["match"], path)
        let message = string(object, "message", path)
        let fixit = string(object, "fixit", path)
        let source = string(object, "source", path)
        let sdk = object["sdk"].flatMap { sdkRange($0, "\(path).sdk") }
        let examples = object["examples"].flatMap { ruleExamples($0, "\(path).examples") } ?? RuleExamples()
        var allowedIn: [ExtensionType] = []
        if let value = object["allowedIn"] {
            if let list = value as? [String] {
                for (index, name) in list.enumerated() {
                    guard let type = ExtensionType(rawValue: name) else {
                        report("\(path).allowedIn[\(index)]", .invalidValue("unknown extension type '\(name)'"))
                        continue
                    }
                    allowedIn.append(type)
                }
            } else {
                report("\(path).allowedIn", .wrongType(expected: "an array of strings"))
            }
        }
        guard let id, let api, let category, let severity, let matchers, let message, let fixit, let source
        else { return nil }
        return Rule(
            id: RuleID(id), api: api, category: category, severity: severity, matchers: matchers, message: message,
            fixit: fixit, source: source, allowedIn: allowedIn, sdk: sdk, examples: examples, pack: pack
        )
    }

    /// A version string (`16.5`) at `object[key]`.
    mutating func version(_ object: [String: Any], _ key: String, _ path: String, required: Bool) -> SDKVersion? {
        guard let text = string(object, key, path, required: required), !text.isEmpty else { return nil }
        guard let version = SDKVersion(text) else {
            report("\(path).\(key)", .invalidValue("'\(text)' is not a version (16.5, 17.0, 13.4.1)"))
            return nil
        }
        return version
    }

    /// `{"platform": "ios", "markedFrom": "9.3", "markedUntil": "16.5", "unmarkedFrom": "17.0"}`.
    mutating func sdkRange(_ value: Any, _ path: String) -> SDKRange? {
        guard value is [String: Any] else {
            report(
                path,
                .wrongType(expected: "an object with platform, markedFrom and, when the marking was lifted, markedUntil and unmarkedFrom"))
            return nil
        }
        guard let object = object(value, path, allowed: Self.sdkKeys) else { return nil }
        let platform = platform(object, path, required: true)
        let from = version(object, "markedFrom", path, required: true)
        let until = version(object, "markedUntil", path, required: false)
        let unmarked = version(object, "unmarkedFrom", path, required: false)
        if (object["markedUntil"] == nil) != (object["unmarkedFrom"] == nil) {
            report(path, .invalidValue("markedUntil (the last SDK seen marked) and unmarkedFrom (the first seen unmarked) go together"))
            return nil
        }
        if let from, let until, from > until {
            report("\(path).markedUntil", .invalidValue("markedUntil \(until) is before markedFrom \(from)"))
        }
        if let until, let unmarked, unmarked <= until {
            report("\(path).unmarkedFrom", .invalidValue("unmarkedFrom \(unmarked) must come after markedUntil \(until)"))
        }
        guard let platform, let from else { return nil }
        return SDKRange(platform: platform, markedFrom: from, markedUntil: until, unmarkedFrom: unmarked)
    }

    /// A `platform` value (`ios`, `macos`, `tvos`, `watchos`, `visionos`).
    mutating func platform(_ object: [String: Any], _ path: String, required: Bool) -> SDKPlatform? {
        guard let name = string(object, "platform", path, required: required), !name.isEmpty else { return nil }
        guard let platform = SDKPlatform(rawValue: name) else {
            let known = SDKPlatform.allCases.map(\.rawValue).joined(separator: ", ")
            report("\(path).platform", .invalidValue("unknown platform '\(name)' (known: \(known))"))
            return nil
        }
        return platform
    }

    /// `{"triggering": [...], "nonTriggering": [...]}`.
    mutating func ruleExamples(_ value: Any, _ path: String) -> RuleExamples? {
        guard let object = object(value, path, allowed: Self.examplesKeys) else { return nil }
        var lists: [String: [RuleExample]] = [:]
        for key in ["triggering", "nonTriggering"] {
            guard let list = object[key] else { continue }
            guard let items = list as? [Any] else {
                report("\(path).\(key)", .wrongType(expected: "an array of examples"))
                continue
            }
            lists[key] = items.enumerated().compactMap { index, item in
                example(item, "\(path).\(key)[\(index)]", triggering: key == "triggering")
            }
        }
        return RuleExamples(triggering: lists["triggering"] ?? [], nonTriggering: lists["nonTriggering"] ?? [])
    }

    /// One example: `{"language": "objc", "format": "macho", "code": "…", …}`.
    mutating func example(_ value: Any, _ path: String, triggering: Bool) -> RuleExample? {
        guard let object = object(value, path, allowed: Self.exampleKeys) else { return nil }
        let languageName = string(object, "language", path)
        let language = languageName.flatMap(RuleExample.Language.init(rawValue:))
        if let languageName, language == nil {
            report("\(path).language", .invalidValue("unknown language '\(languageName)' (c, objc or swift)"))
        }
        let formatName = string(object, "format", path)
        let format = formatName.flatMap(RuleExample.Format.init(rawValue:))
        if let formatName, format == nil {
            report("\(path).format", .invalidValue("unknown format '\(formatName)' (elf or macho)"))
        }
        if let language, let format, !RuleExample.formats(of: language).contains(format) {
            report(
                "\(path).format",
                .invalidValue(
                    "\(language.rawValue) examples are built for \(RuleExample.formats(of: language).map(\.rawValue).joined(separator: " or ")) only"
                ))
        }
        let code = string(object, "code", path)
        let extensionName = string(object, "extension", path, required: false)
        let extensionType = extensionName.flatMap(ExtensionType.init(rawValue:))
        if let extensionName, extensionType == nil {
            report("\(path).extension", .invalidValue("unknown extension type '\(extensionName)'"))
        }
        var appOnly = false
        if let flag = object["appOnly"] {
            if let value = jsonBoolean(flag) { appOnly = value } else { report("\(path).appOnly", .wrongType(expected: "true or false")) }
        }
        if appOnly && extensionName != nil {
            report(path, .invalidValue("an example is checked either in an extension or as an app-only framework, not both"))
        }
        var libraries: [String] = []
        if let value = object["libraries"] {
            if let list = value as? [String], list.allSatisfy({ !$0.isEmpty && !$0.contains("/") }) {
                libraries = list
            } else {
                report("\(path).libraries", .wrongType(expected: "an array of library names (CoreKE for libCoreKE)"))
            }
        }
        var objcRuntime: RuleExample.ObjCRuntime?
        if let name = string(object, "objcRuntime", path, required: false) {
            objcRuntime = RuleExample.ObjCRuntime(rawValue: name)
            if objcRuntime == nil {
                report(
                    "\(path).objcRuntime",
                    .invalidValue(
                        "unknown runtime '\(name)' (\(RuleExample.ObjCRuntime.allCases.map(\.rawValue).joined(separator: " or ")))"))
            }
            if language != .objc || format?.choosesObjCRuntime != true {
                report("\(path).objcRuntime", .invalidValue("objcRuntime is for Objective-C examples built for ELF"))
            }
        }
        let platform = platform(object, path, required: false)
        let minimumOS = version(object, "minimumOS", path, required: false)
        let sdk = version(object, "sdk", path, required: false)
        if format?.recordsPlatform == false {
            for key in ["platform", "minimumOS", "sdk"] where object[key] != nil {
                report("\(path).\(key)", .invalidValue("\(key) is recorded in Mach-O images only (LC_BUILD_VERSION)"))
            }
        }
        if let platform, platform != .iOS, platform != .macOS {
            report("\(path).platform", .invalidValue("Mach-O examples are built for ios or macos"))
        }
        var severity: Severity?
        if let name = string(object, "severity", path, required: false) {
            severity = Severity(rawValue: name)
            if severity == nil { report("\(path).severity", .invalidValue("unknown severity '\(name)' (error, warning or note)")) }
            if !triggering { report("\(path).severity", .invalidValue("only a triggering example expects a severity")) }
        }
        guard let language, let format, let code else { return nil }
        return RuleExample(
            language: language, format: format, code: code, extensionType: extensionType, appOnly: appOnly, libraries: libraries,
            objcRuntime: objcRuntime, platform: platform, minimumOS: minimumOS, sdk: sdk, severity: severity)
    }

    mutating func matchers(_ value: Any?, _ rulePath: String) -> [Matcher]? {
        guard let value else {
            report(rulePath, .missingField("match"))
            return nil
        }
        let path = "\(rulePath).match"
        guard let list = value as? [Any], !list.isEmpty else {
            report(path, .wrongType(expected: "a non-empty array of matchers"))
            return nil
        }
        var result: [Matcher] = []
        for (index, item) in list.enumerated() {
            let itemPath = "\(path)[\(index)]"
            guard let object = item as? [String: Any], object.count == 1, let (key, argument) = object.first else {
                report(itemPath, .wrongType(expected: "an object with exactly one of symbol, glob, swift, cxx, objc, string, library"))
                continue
            }
            guard let pattern = argument as? String, !pattern.isEmpty else {
                report("\(itemPath).\(key)", .wrongType(expected: "a non-empty string"))
                continue
            }
            switch key {
            case "symbol": result.append(.symbol(pattern))
            case "string":
                if pattern.utf8.count < 4 {
                    report(
                        "\(itemPath).string",
                        .invalidValue("a string literal needs at least 4 bytes: shorter strings are not collected from read-only data"))
                } else {
                    result.append(.string(pattern))
                }
            case "glob", "library":
                if let reason = Glob.problem(in: pattern) {
                    report("\(itemPath).\(key)", .badGlob(pattern, reason: reason))
                } else {
                    result.append(key == "glob" ? .glob(pattern) : .library(pattern))
                }
            case "swift":
                if let reason = SwiftDeclarationPath.problem(in: pattern) {
                    report("\(itemPath).swift", .invalidValue(reason))
                } else {
                    result.append(.swift(pattern))
                }
            case "objc":
                if let name = ObjCName(pattern) {
                    result.append(.objc(name))
                } else {
                    report(
                        "\(itemPath).objc",
                        .invalidValue(
                            "an Objective-C class (UIApplication), class method (+[UIApplication sharedApplication]) or instance method (-[UIApplication openURL:])"
                        ))
                }
            case "cxx":
                if pattern.contains("(") || pattern.components(separatedBy: "::").contains(where: \.isEmpty) {
                    report("\(itemPath).cxx", .invalidValue("a C++ qualified name without parameters, e.g. ns::Class::method"))
                } else {
                    result.append(.cxx(pattern))
                }
            default:
                report("\(itemPath).\(key)", .unknownKey(key))
            }
        }
        return result.count == list.count ? result : nil
    }
}
