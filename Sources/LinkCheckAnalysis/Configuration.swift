import Foundation
import LinkCheckInspection
import LinkCheckRules

/// A project's `linkcheck.json`: roles, extension types, required
/// architectures, extra rule packs, search paths, suppressions and the
/// severity of uses by name. The
/// schema is `Documentation/linkcheck-config.schema.json`.
///
/// Reading is strict: a syntax error (a trailing comma too, ``JSONSyntax``)
/// is a ``ConfigurationProblem`` with its line and column; an unknown key, a
/// wrong type, an unknown extension type or a search path that is not a
/// folder is one naming the file and the key's JSON path. Relative paths
/// (`rules`, `searchPaths`) are taken from the file's folder.
public struct Configuration: Sendable, Equatable {
    /// The file it was read from.
    public var path: String
    /// Extension name → extension type (`share`, `imessage`, …).
    public var extensions: [String: ExtensionType] = [:]
    /// The containing app's image name(s).
    public var apps: [String] = []
    /// Images that are embedded frameworks, by name.
    public var frameworks: [String] = []
    public var requiredArchitectures: [String] = []
    /// Extra rule packs, as absolute paths.
    public var rules: [String] = []
    /// Extra DT_NEEDED search folders, as absolute paths.
    public var searchPaths: [String] = []
    public var suppressions: [Suppression] = []
    /// `byNameUses`: the severity of a use by name of an API unavailable in
    /// extensions (``Policy/byNameUses``), `warning` or `error`; `nil` when
    /// not given (a warning).
    public var byNameUses: Severity?

    public init(path: String) {
        self.path = path
    }

    /// The file name the CLI looks for in the working directory, and the
    /// plugin at the package root.
    public static let fileName = "linkcheck.json"

    static let keys: Set<String> = [
        "extensions", "app", "frameworks", "requiredArchitectures", "rules", "searchPaths", "suppressions", "byNameUses",
    ]

    /// Reads and checks `path`.
    ///
    /// - Returns: the configuration, or every problem found.
    public static func load(path: String) -> Result<Configuration, ConfigurationFailure> {
        let data: Data
        do {
            data = try InputFile.read(path)
        } catch {
            return .failure(
                ConfigurationFailure(problems: [ConfigurationProblem(file: path, jsonPath: "$", message: "cannot read: \(error.reason)")]))
        }
        let document: Any
        let duplicates: [JSONDuplicateKeys.Duplicate]
        do {
            (document, duplicates) = try JSONSyntax.parse(data)
        } catch {
            return .failure(
                ConfigurationFailure(problems: [
                    ConfigurationProblem(
                        file: path, jsonPath: "$", message: "invalid JSON: \(error.reason)", line: error.line, column: error.column)
                ]))
        }
        var reader = ConfigurationReader(file: path)
        reader.problems += duplicates.map { duplicate in
            ConfigurationProblem(file: path, jsonPath: duplicate.jsonPath, message: duplicate.problem)
        }
        let configuration = reader.read(document)
        return reader.problems.isEmpty ? .success(configuration) : .failure(ConfigurationFailure(problems: reader.problems))
    }
}

/// One accepted finding: `rule` on `image` (file name, SONAME or module
/// name), for `symbol` when given (raw or demangled), with the `reason`.
public struct Suppression: Sendable, Equatable {
    public var rule: RuleID
    public var image: String
    public var symbol: String?
    public var reason: String
    /// Where it is written: `$.suppressions[2]`.
    public var jsonPath: String

    public init(rule: RuleID, image: String, symbol: String? = nil, reason: String, jsonPath: String) {
        self.rule = rule
        self.image = image
        self.symbol = symbol
        self.reason = reason
        self.jsonPath = jsonPath
    }
}

/// Something wrong in `linkcheck.json`, located by file and JSON path, and
/// by line and column (1-based) for a syntax error.
public struct ConfigurationProblem: Error, Sendable, Equatable, CustomStringConvertible {
    public var file: String
    public var jsonPath: String
    public var message: String
    public var line: Int?
    public var column: Int?

    public init(file: String, jsonPath: String, message: String, line: Int? = nil, column: Int? = nil) {
        self.file = file
        self.jsonPath = jsonPath
        self.message = message
        self.line = line
        self.column = column
    }

    /// `FILE: JSONPATH: message`, or `FILE:LINE:COLUMN: message`.
    public var description: String {
        if let line, let column { return "\(file):\(line):\(column): \(message)" }
        return "\(file): \(jsonPath): \(message)"
    }

    /// The problem as an error line: `FILE: error: JSONPATH: message`, or
    /// `FILE:LINE:COLUMN: error: message`.
    public var errorLine: String {
        if let line, let column { return "\(file):\(line):\(column): error: \(message)" }
        return "\(file): error: \(jsonPath): \(message)"
    }
}

/// Every problem of one configuration file.
public struct ConfigurationFailure: Error, Sendable, Equatable {
    public var problems: [ConfigurationProblem]
}

private struct ConfigurationReader {
    let file: String
    var problems: [ConfigurationProblem] = []

    mutating func report(_ path: String, _ message: String) {
        problems.append(ConfigurationProblem(file: file, jsonPath: path, message: message))
    }

    var directory: String { (file as NSString).deletingLastPathComponent }

    func absolute(_ path: String) -> String {
        path.hasPrefix("/")
            ? path
            : URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: directory.isEmpty ? "." : directory)).standardizedFileURL.path
    }

    mutating func strings(_ value: Any, _ path: String) -> [String]? {
        guard let list = value as? [Any] else {
            report(path, "expected an array of strings")
            return nil
        }
        var result: [String] = []
        for (index, item) in list.enumerated() {
            if let text = item as? String, !text.isEmpty {
                result.append(text)
            } else {
                report("\(path)[\(index)]", "expected a non-empty string")
            }
        }
        return result
    }

    mutating func read(_ document: Any) -> Configuration {
        var configuration = Configuration(path: file)
        guard let root = document as? [String: Any] else {
            report("$", "expected an object")
            return configuration
        }
        for key in root.keys.sorted() where !Configuration.keys.contains(key) {
            report("$.\(key)", "unknown key '\(key)' (known: \(Configuration.keys.sorted().joined(separator: ", ")))")
        }
        if let value = root["extensions"] {
            if let object = value as? [String: Any] {
                for (name, type) in object.sorted(by: { $0.key < $1.key }) {
                    guard !name.isEmpty else {
                        report("$.extensions", "an extension name is empty")
                        continue
                    }
                    guard let typeName = type as? String else {
                        report("$.extensions.\(name)", "expected an extension type (a string)")
                        continue
                    }
                    guard let type = ExtensionType(rawValue: typeName) else {
                        report("$.extensions.\(name)", ExtensionType.unknown(typeName))
                        continue
                    }
                    configuration.extensions[name] = type
                }
            } else {
                report("$.extensions", "expected an object of extension name → extension type")
            }
        }
        if let value = root["app"] {
            if let name = value as? String, !name.isEmpty {
                configuration.apps = [name]
            } else if value is [Any] {
                configuration.apps = strings(value, "$.app") ?? []
            } else {
                report("$.app", "expected the app's image name, or an array of names")
            }
        }
        if let value = root["frameworks"] { configuration.frameworks = strings(value, "$.frameworks") ?? [] }
        if let value = root["requiredArchitectures"] {
            let architectures = strings(value, "$.requiredArchitectures") ?? []
            for (index, name) in architectures.enumerated() where !ArchitectureNames.isKnown(name) {
                report("$.requiredArchitectures[\(index)]", "unknown architecture '\(name)'")
            }
            configuration.requiredArchitectures = architectures
        }
        if let value = root["rules"] { configuration.rules = (strings(value, "$.rules") ?? []).map(absolute) }
        if let value = root["searchPaths"] {
            configuration.searchPaths = (strings(value, "$.searchPaths") ?? []).map(absolute)
            // A folder that is not there would leave its libraries unfound
            // (LINK001) without saying why.
            for (index, folder) in configuration.searchPaths.enumerated() {
                if let failure = InputFile.directoryFailure(folder) {
                    report("$.searchPaths[\(index)]", "search path \(folder) \(failure.reason)")
                }
            }
        }
        if let value = root["byNameUses"] {
            if let name = value as? String, let level = Severity(rawValue: name), level != .note {
                configuration.byNameUses = level
            } else {
                report("$.byNameUses", "expected \"warning\" or \"error\"")
            }
        }
        if let value = root["suppressions"] {
            if let list = value as? [Any] {
                configuration.suppressions = list.enumerated().compactMap { suppression($1, "$.suppressions[\($0)]") }
            } else {
                report("$.suppressions", "expected an array of suppressions")
            }
        }
        return configuration
    }

    mutating func suppression(_ value: Any, _ path: String) -> Suppression? {
        guard let object = value as? [String: Any] else {
            report(path, "expected an object with rule, image, reason and optionally symbol")
            return nil
        }
        for key in object.keys.sorted() where !["rule", "image", "symbol", "reason"].contains(key) {
            report("\(path).\(key)", "unknown key '\(key)'")
        }
        func text(_ key: String, required: Bool) -> String? {
            guard let value = object[key] else {
                if required { report(path, "missing required field '\(key)'") }
                return nil
            }
            guard let string = value as? String, !string.trimmingCharacters(in: .whitespaces).isEmpty else {
                report("\(path).\(key)", "expected a non-empty string")
                return nil
            }
            return string
        }
        let rule = text("rule", required: true)
        let image = text("image", required: true)
        let symbol = text("symbol", required: false)
        let reason = text("reason", required: true)
        guard let rule = rule.map({ RuleID(rawValue: $0) }), let image, let reason else { return nil }
        guard !BuiltInRules.isCompleteness(rule) else {
            report(
                "\(path).rule",
                "\(rule) cannot be suppressed: an image read only in part is never called safe; replace the damaged file instead")
            return nil
        }
        return Suppression(rule: rule, image: image, symbol: symbol, reason: reason, jsonPath: path)
    }
}
