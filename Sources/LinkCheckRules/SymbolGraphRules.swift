import Foundation

/// Rules from a project's own `@available(…ApplicationExtension,
/// unavailable)` annotations, read from Swift symbol graphs
/// (`swift build -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir
/// -Xswiftc DIR`, or `swift symbolgraph-extract`; format described in
/// swift-docc-symbolkit's `SymbolGraph`).
///
/// Every symbol with an availability item whose `domain` ends in
/// `AppExtension` (`iOSAppExtension`, `macOSAppExtension`, …) and
/// `isUnconditionallyUnavailable: true` becomes a rule whose Swift
/// declaration path comes from the symbol's precise identifier (its USR,
/// `s:5UIKit13UIApplicationC6sharedACvpZ`, demangled).
public enum SymbolGraphRules {
    /// One annotated declaration.
    public struct Annotation: Sendable, Equatable {
        /// `UIKit.UIApplication.shared`.
        public var path: String
        /// `UIApplication.open(_:)`, as the symbol graph names it.
        public var title: String
        public var module: String
        /// `iOSAppExtension`, …
        public var domains: [String]
        public var message: String?
        /// The USR.
        public var preciseIdentifier: String
    }

    /// The annotations in every `*.symbols.json` file under `directory`,
    /// sorted by path, each path once.
    ///
    /// - Throws: a ``RulePackProblem`` naming the file that is unreadable or
    ///   not JSON, or the file and JSON path of the first value that is not
    ///   of the symbol-graph type (`$.symbols` not an array,
    ///   `$.symbols[3].availability[0]` not an object, …).
    public static func annotations(inDirectory directory: String, demangler: Demangler = Demangler()) throws(RulePackProblem)
        -> [Annotation]
    {
        let files = (FileManager.default.enumerator(atPath: directory)?.allObjects as? [String] ?? [])
            .filter { $0.hasSuffix(".symbols.json") }.sorted()
        var byPath: [String: Annotation] = [:]
        for file in files {
            let path = (directory as NSString).appendingPathComponent(file)
            for annotation in try annotations(inFile: path, demangler: demangler) where byPath[annotation.path] == nil {
                byPath[annotation.path] = annotation
            }
        }
        return byPath.keys.sorted().map { byPath[$0]! }
    }

    static func annotations(inFile path: String, demangler: Demangler) throws(RulePackProblem) -> [Annotation] {
        let data: Data
        do {
            data = try InputFile.read(path)
        } catch {
            throw RulePackProblem(file: path, jsonPath: "$", kind: .unreadable(reason: error.reason))
        }
        let document: Any
        do {
            document = try JSONSyntax.parse(data).document
        } catch {
            throw RulePackProblem(file: path, jsonPath: "$", kind: .invalidJSON(error))
        }
        let graph = SymbolGraphReader(file: path)
        let root = try graph.object(document, "$", "a symbol graph object")
        let module = try graph.string(try graph.object(root["module"], "$.module", "an object"), "name", "$.module")
        var annotations: [Annotation] = []
        for (index, item) in try graph.array(root["symbols"], "$.symbols").enumerated() {
            let symbolPath = "$.symbols[\(index)]"
            let symbol = try graph.object(item, symbolPath, "an object")
            var unavailable: [(domain: String, message: String?)] = []
            for (position, entry) in try graph.array(symbol["availability"], "\(symbolPath).availability", required: false).enumerated() {
                let entryPath = "\(symbolPath).availability[\(position)]"
                let item = try graph.object(entry, entryPath, "an object")
                let domain = try graph.optionalString(item, "domain", entryPath)
                let message = try graph.optionalString(item, "message", entryPath)
                let always = try graph.boolean(item, "isUnconditionallyUnavailable", entryPath)
                if let domain, domain.hasSuffix("AppExtension"), always { unavailable.append((domain, message)) }
            }
            let identifierPath = "\(symbolPath).identifier"
            let precise = try graph.string(try graph.object(symbol["identifier"], identifierPath, "an object"), "precise", identifierPath)
            let components = try graph.array(symbol["pathComponents"], "\(symbolPath).pathComponents").enumerated().map {
                position, item throws(RulePackProblem) in
                guard let text = item as? String else {
                    throw RulePackProblem(
                        file: path, jsonPath: "\(symbolPath).pathComponents[\(position)]", kind: .wrongType(expected: "a string"))
                }
                return text
            }
            guard !unavailable.isEmpty,
                let declaration = declarationPath(precise: precise, module: module, components: components, demangler: demangler)
            else { continue }
            annotations.append(
                Annotation(
                    path: declaration, title: components.joined(separator: "."), module: module,
                    domains: unavailable.map(\.domain), message: unavailable.compactMap(\.message).first,
                    preciseIdentifier: precise))
        }
        return annotations
    }

    /// The declaration path of a USR: `s:…` demangled as `$s…`, qualifiers
    /// and the signature cut off, an extension's `(extension in M):` dropped;
    /// else the module and path components without parameter lists.
    static func declarationPath(precise: String, module: String, components: [String], demangler: Demangler) -> String? {
        if precise.hasPrefix("s:"), let demangled = demangler.swift("$s" + precise.dropFirst(2)) {
            var text = Substring(demangled)
            while let range = text.range(of: "(extension in "), let end = text[range.upperBound...].range(of: "):") {
                text = text[..<range.lowerBound] + text[end.upperBound...]
            }
            for prefix in ["static ", "class "] where text.hasPrefix(prefix) { text = text.dropFirst(prefix.count) }
            var path = ""
            var depth = 0
            for character in text {
                if character == "<" { depth += 1; continue }
                if character == ">" { depth -= 1; continue }
                if depth > 0 { continue }
                if character == "(" || character == " " { break }
                path.append(character)
            }
            path = path.replacingOccurrences(of: ".__allocating_init", with: ".init")
            if SwiftDeclarationPath.problem(in: path) == nil { return path }
        }
        let names = components.map { String($0.prefix { $0 != "(" }) }
        let path = ([module] + names).joined(separator: ".")
        return SwiftDeclarationPath.problem(in: path) == nil ? path : nil
    }

    /// The `@available` spelling of a symbol-graph domain:
    /// `iOSAppExtension` → `iOSApplicationExtension`.
    static func attributeSpelling(_ domain: String) -> String {
        domain.hasSuffix("AppExtension") ? String(domain.dropLast("AppExtension".count)) + "ApplicationExtension" : domain
    }

    /// A rule pack with one rule per annotation, ids `<prefix>001`, … in
    /// path order.
    public static func pack(_ annotations: [Annotation], name: String, idPrefix: String) -> RulePack {
        let rules = annotations.enumerated().map { index, annotation in
            let spelling = annotation.domains.map(attributeSpelling).joined(separator: ", ")
            let api = "\(annotation.module).\(annotation.title)"
            return Rule(
                id: RuleID(String(format: "%@%03d", idPrefix, index + 1)), api: api, category: .unavailableAPI, severity: .error,
                matchers: [.swift(annotation.path)],
                message: annotation.message.map { "\(api) is unavailable in app extensions: \($0)" }
                    ?? "\(api) is marked unavailable in app extensions.",
                fixit:
                    "Keep calls to \(api) out of code that extensions link, or mark the calling declaration @available(\(annotation.domains.map(attributeSpelling).first ?? "iOSApplicationExtension"), unavailable) too.",
                source:
                    "\(annotation.module): @available(\(spelling), unavailable) on \(annotation.title) (\(annotation.preciseIdentifier))",
                pack: name)
        }
        return RulePack(
            path: "", name: name, version: "1", description: "Generated by linkcheck rules extract from Swift symbol graphs.", rules: rules)
    }
}

/// Reads the fields of a symbol graph linkcheck uses, with their types as
/// swift-docc-symbolkit's `SymbolGraph` declares them; a value of another
/// type is a ``RulePackProblem`` with its JSON path.
private struct SymbolGraphReader {
    let file: String

    func problem(_ path: String, _ expected: String) -> RulePackProblem {
        RulePackProblem(file: file, jsonPath: path, kind: .wrongType(expected: expected))
    }

    /// An object; an absent one is a missing field of the parent.
    func object(_ value: Any?, _ path: String, _ expected: String) throws(RulePackProblem) -> [String: Any] {
        guard let value else { throw RulePackProblem(file: file, jsonPath: parent(of: path), kind: .missingField(last(of: path))) }
        guard let object = value as? [String: Any] else { throw problem(path, expected) }
        return object
    }

    /// An array; an absent one is a missing field of the parent, or empty
    /// when not `required`.
    func array(_ value: Any?, _ path: String, required: Bool = true) throws(RulePackProblem) -> [Any] {
        guard let value else {
            if required { throw RulePackProblem(file: file, jsonPath: parent(of: path), kind: .missingField(last(of: path))) }
            return []
        }
        guard let array = value as? [Any] else { throw problem(path, "an array") }
        return array
    }

    /// The string `key` of `object` (at `path`).
    func string(_ object: [String: Any], _ key: String, _ path: String) throws(RulePackProblem) -> String {
        guard let text = try optionalString(object, key, path) else {
            throw RulePackProblem(file: file, jsonPath: path, kind: .missingField(key))
        }
        return text
    }

    /// The string `key` of `object`, or `nil` when it is absent.
    func optionalString(_ object: [String: Any], _ key: String, _ path: String) throws(RulePackProblem) -> String? {
        guard let value = object[key] else { return nil }
        guard let text = value as? String else { throw problem("\(path).\(key)", "a string") }
        return text
    }

    /// A boolean (an absent one is `false`).
    func boolean(_ object: [String: Any], _ key: String, _ path: String) throws(RulePackProblem) -> Bool {
        guard let value = object[key] else { return false }
        guard let flag = jsonBoolean(value) else { throw problem("\(path).\(key)", "true or false") }
        return flag
    }

    /// `$.symbols[2].availability` → `$.symbols[2]`.
    func parent(of path: String) -> String {
        String(path[..<(path.lastIndex(of: ".") ?? path.endIndex)])
    }

    /// `$.symbols[2].availability` → `availability`.
    func last(of path: String) -> String {
        path.lastIndex(of: ".").map { String(path[path.index(after: $0)...]) } ?? path
    }
}
