import Foundation

/// Reads rule packs strictly: every problem is reported with its JSON path,
/// not just the first one.
public enum RulePackLoader {
    /// The `format` this linkcheck reads.
    public static let supportedFormat = 1

    /// Reads and validates the pack at `path` (its syntax with
    /// ``JSONSyntax``, which rejects trailing commas and gives the line and
    /// column of a syntax error).
    ///
    /// - Returns: the pack when it has no problem, and every problem found:
    ///   unreadable file, invalid JSON, unsupported `format`, unknown key,
    ///   missing field, wrong type, invalid value (id shape, severity,
    ///   category, extension type), bad glob, or an id repeated in the file.
    public static func load(path: String) -> (pack: RulePack?, problems: [RulePackProblem]) {
        do throws(InputFile.Failure) {
            return load(data: try InputFile.read(path), path: path)
        } catch {
            return (nil, [RulePackProblem(file: path, jsonPath: "$", kind: .unreadable(reason: error.reason))])
        }
    }

    /// Validates a pack already in memory; `path` names it in problems.
    public static func load(data: Data, path: String) -> (pack: RulePack?, problems: [RulePackProblem]) {
        let document: Any
        let duplicates: [JSONDuplicateKeys.Duplicate]
        do {
            (document, duplicates) = try JSONSyntax.parse(data)
        } catch {
            return (nil, [RulePackProblem(file: path, jsonPath: "$", kind: .invalidJSON(error))])
        }
        var reader = PackReader(file: path)
        for duplicate in duplicates {
            reader.report(duplicate.jsonPath, .duplicateKey(duplicate))
        }
        let pack = reader.pack(document)
        return (reader.problems.isEmpty ? pack : nil, reader.problems)
    }
}

/// Walks the parsed JSON and records a problem for everything out of shape.
private struct PackReader {
    let file: String
    var problems: [RulePackProblem] = []

    static let packKeys: Set<String> = ["format", "name", "version", "description", "rules"]
    static let ruleKeys: Set<String> = [
        "id", "api", "category", "severity", "match", "message", "fixit", "source", "allowedIn", "sdk",
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
                    guard let rule = rule(item, path, pack: name ?? "") else { continue }
                    if let first = seen[rule.id] {
                        report("\(path).id", .duplicateID(rule.id, firstSeen: "\(file) \(first)"))
                    } else {
                        seen[rule.id] = path
                        rules.append(rule)
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
        if let id, !isRuleID(id) {
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
        let sdk = string(object, "sdk", path, required: false)
        var allowedIn: [String] = []
        if let value = object["allowedIn"] {
            if let list = value as? [String] {
                for (index, type) in list.enumerated() where !knownExtensionTypes.contains(type) {
                    report("\(path).allowedIn[\(index)]", .invalidValue("unknown extension type '\(type)'"))
                }
                allowedIn = list
            } else {
                report("\(path).allowedIn", .wrongType(expected: "an array of strings"))
            }
        }
        guard let id, let api, let category, let severity, let matchers, let message, let fixit, let source
        else { return nil }
        return Rule(
            id: id, api: api, category: category, severity: severity, matchers: matchers, message: message,
            fixit: fixit, source: source, allowedIn: allowedIn, sdk: sdk, pack: pack
        )
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
                    report("\(itemPath).string", .invalidValue("a string literal needs at least 4 bytes: shorter strings are not collected from read-only data"))
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
                    report("\(itemPath).objc", .invalidValue("an Objective-C class (UIApplication), class method (+[UIApplication sharedApplication]) or instance method (-[UIApplication openURL:])"))
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

/// `^[A-Z]{2,8}[0-9]{3,4}$`: capital letters, then digits.
private func isRuleID(_ id: String) -> Bool {
    let letters = id.prefix { $0.isASCII && $0.isUppercase }
    let digits = id.dropFirst(letters.count)
    return (2...8).contains(letters.count) && (3...4).contains(digits.count)
        && digits.allSatisfy { $0.isASCII && $0.isNumber }
}
