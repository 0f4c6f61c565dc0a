/// The rules of one run, indexed for matching: exact names in a dictionary,
/// Swift paths grouped by module so that only symbols whose mangled module
/// can match are demangled, C++ names behind a mangled-fragment pre-filter.
public final class RuleSet: Sendable {
    /// The packs, in the order given.
    public let packs: [RulePack]
    /// Every rule of every pack, in pack order.
    public let rules: [Rule]
    public let demangler: Demangler

    private let exact: [String: [Int]]
    private let globs: [(pattern: String, rule: Int)]
    private let swiftPathsByModule: [String: [(path: String, rule: Int)]]
    private let cxxNames: [(name: String, fragment: String, rule: Int)]
    private let strings: [String: [Int]]
    private let libraries: [(pattern: String, rule: Int)]

    /// Indexes `packs`. Rule ids must be unique across packs: a repeated id
    /// is a problem (``RulePackProblem/Kind/duplicateID(_:firstSeen:)``) and
    /// the later rule is left out.
    public static func build(packs: [RulePack], demangler: Demangler = Demangler()) -> (RuleSet, [RulePackProblem]) {
        var problems: [RulePackProblem] = []
        var firstFile: [String: String] = [:]
        var kept: [RulePack] = []
        for var pack in packs {
            pack.rules = pack.rules.enumerated().compactMap { index, rule in
                if let first = firstFile[rule.id] {
                    problems.append(RulePackProblem(
                        file: pack.path, jsonPath: "$.rules[\(index)].id",
                        kind: .duplicateID(rule.id, firstSeen: first)))
                    return nil
                }
                firstFile[rule.id] = pack.path
                return rule
            }
            kept.append(pack)
        }
        return (RuleSet(packs: kept, demangler: demangler), problems)
    }

    private init(packs: [RulePack], demangler: Demangler) {
        self.packs = packs
        self.demangler = demangler
        let rules = packs.flatMap(\.rules)
        self.rules = rules
        var exact: [String: [Int]] = [:]
        var globs: [(String, Int)] = []
        var swiftPaths: [String: [(String, Int)]] = [:]
        var cxxNames: [(String, String, Int)] = []
        var strings: [String: [Int]] = [:]
        var libraries: [(String, Int)] = []
        for (index, rule) in rules.enumerated() {
            for matcher in rule.matchers {
                switch matcher {
                case .symbol(let name): exact[name, default: []].append(index)
                case .glob(let pattern): globs.append((pattern, index))
                case .swift(let path): swiftPaths[SwiftDeclarationPath.module(of: path), default: []].append((path, index))
                case .cxx(let name): cxxNames.append((name, CxxQualifiedName.mangledFragment(of: name), index))
                case .string(let text): strings[text, default: []].append(index)
                case .library(let pattern): libraries.append((pattern, index))
                }
            }
        }
        self.exact = exact
        self.globs = globs
        self.swiftPathsByModule = swiftPaths
        self.cxxNames = cxxNames
        self.strings = strings
        self.libraries = libraries
    }

    /// The rules that symbol `name` (raw, mangled) matches, each once with
    /// the first matcher that matched, in rule order. Swift names are demangled only when their mangled module
    /// has a Swift-path rule; C++ names only when their mangling contains a
    /// C++ rule's last name component.
    ///
    /// - Parameter unsafeOnly: consider only rules whose category makes an
    ///   image unsafe (``RuleCategory/makesUnsafe``), and demangle only for
    ///   those.
    public func rules(matchingSymbol name: String, unsafeOnly: Bool = false) -> [RuleMatch] {
        func considered(_ rule: Int) -> Bool { !unsafeOnly || rules[rule].category.makesUnsafe }
        var matched: [Int: Matcher] = [:]
        for rule in exact[name] ?? [] where matched[rule] == nil && considered(rule) {
            matched[rule] = .symbol(name)
        }
        for (pattern, rule) in globs where matched[rule] == nil && considered(rule) && Glob.matches(pattern, name) {
            matched[rule] = .glob(pattern)
        }
        if let module = SwiftDeclarationPath.moduleName(ofMangled: name),
           let candidates = swiftPathsByModule[String(module)]?.filter({ considered($0.rule) }),
           !candidates.isEmpty,
           let demangled = demangler.swift(name) {
            for (path, rule) in candidates
            where matched[rule] == nil && SwiftDeclarationPath.matches(demangled: demangled, path: path) {
                matched[rule] = .swift(path)
            }
        }
        if name.hasPrefix("_Z") {
            let candidates = cxxNames.filter { considered($0.rule) && name.contains($0.fragment) }
            if !candidates.isEmpty, let demangled = demangler.cxx(name) {
                for candidate in candidates
                where matched[candidate.rule] == nil && CxxQualifiedName.matches(demangled: demangled, name: candidate.name) {
                    matched[candidate.rule] = .cxx(candidate.name)
                }
            }
        }
        return matched.keys.sorted().map { RuleMatch(rule: rules[$0], matcher: matched[$0]!) }
    }

    /// The rules whose `string` matcher equals `text`, or ends it after a
    /// character that cannot continue a name (not a letter, digit, `_` or
    /// `:`): linkers merge a string into the tail of a longer one, and data
    /// may precede a literal without a NUL (`?TRUEPREDICATE`).
    public func rules(matchingString text: String) -> [RuleMatch] {
        var matched = strings[text] ?? []
        let bytes = text.utf8
        for (pattern, indices) in strings where bytes.count > pattern.utf8.count {
            let tail = bytes.suffix(pattern.utf8.count)
            guard tail.elementsEqual(pattern.utf8) else { continue }
            let before = bytes[bytes.index(tail.startIndex, offsetBy: -1)]
            let continuesName = (before >= 0x30 && before <= 0x3a) || (before >= 0x41 && before <= 0x5a)
                || (before >= 0x61 && before <= 0x7a) || before == 0x5f || before >= 0x80
            if !continuesName { matched += indices }
        }
        return Array(Set(matched)).sorted().map { index in
            RuleMatch(rule: rules[index], matcher: .string(rules[index].matchers.first { matcher in
                if case .string(let pattern) = matcher { return text.hasSuffix(pattern) }
                return false
            }?.pattern ?? text))
        }
    }

    /// Whether any rule has a `string` matcher (so read-only strings matter).
    public var hasStringRules: Bool { !strings.isEmpty }

    /// The rules whose `library` pattern matches the DT_NEEDED name or
    /// SONAME `library`.
    public func rules(matchingLibrary library: String) -> [RuleMatch] {
        libraries.filter { Glob.matches($0.pattern, library) }
            .map { RuleMatch(rule: rules[$0.rule], matcher: .library($0.pattern)) }
    }
}

/// A rule together with the matcher of it that matched.
public struct RuleMatch: Sendable, Equatable {
    public var rule: Rule
    public var matcher: Matcher

    public init(rule: Rule, matcher: Matcher) {
        self.rule = rule
        self.matcher = matcher
    }
}
