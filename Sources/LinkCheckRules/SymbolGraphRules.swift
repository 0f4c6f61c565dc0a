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
    ///   not a symbol graph.
    public static func annotations(inDirectory directory: String, demangler: Demangler = Demangler()) throws -> [Annotation] {
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

    static func annotations(inFile path: String, demangler: Demangler) throws -> [Annotation] {
        let graph: [String: Any]
        do {
            let data = try InputFile.read(path)
            guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                throw RulePackProblem(file: path, jsonPath: "$", kind: .wrongType(expected: "a symbol graph object"))
            }
            graph = object
        } catch let problem as RulePackProblem {
            throw problem
        } catch let failure as InputFile.Failure {
            throw RulePackProblem(file: path, jsonPath: "$", kind: .unreadable(reason: failure.reason))
        } catch {
            throw RulePackProblem(file: path, jsonPath: "$", kind: .invalidJSON(reason: error.localizedDescription))
        }
        let module = (graph["module"] as? [String: Any])?["name"] as? String ?? ""
        let symbols = graph["symbols"] as? [[String: Any]] ?? []
        return symbols.compactMap { symbol in
            let availability = symbol["availability"] as? [[String: Any]] ?? []
            let unavailable = availability.filter { item in
                (item["domain"] as? String)?.hasSuffix("AppExtension") == true
                    && item["isUnconditionallyUnavailable"] as? Bool == true
            }
            guard !unavailable.isEmpty,
                  let precise = (symbol["identifier"] as? [String: Any])?["precise"] as? String
            else { return nil }
            let components = symbol["pathComponents"] as? [String] ?? []
            guard let path = declarationPath(precise: precise, module: module, components: components, demangler: demangler)
            else { return nil }
            return Annotation(
                path: path, title: components.joined(separator: "."), module: module,
                domains: unavailable.compactMap { $0["domain"] as? String },
                message: unavailable.compactMap { $0["message"] as? String }.first,
                preciseIdentifier: precise)
        }
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
                id: String(format: "%@%03d", idPrefix, index + 1), api: api, category: .unavailableAPI, severity: .error,
                matchers: [.swift(annotation.path)],
                message: annotation.message.map { "\(api) is unavailable in app extensions: \($0)" }
                    ?? "\(api) is marked unavailable in app extensions.",
                fixit: "Keep calls to \(api) out of code that extensions link, or mark the calling declaration @available(\(annotation.domains.map(attributeSpelling).first ?? "iOSApplicationExtension"), unavailable) too.",
                source: "\(annotation.module): @available(\(spelling), unavailable) on \(annotation.title) (\(annotation.preciseIdentifier))",
                pack: name)
        }
        return RulePack(path: "", name: name, version: "1", description: "Generated by linkcheck rules extract from Swift symbol graphs.", rules: rules)
    }
}
