/// The rules of one run, indexed for matching: exact names in a dictionary,
/// Swift paths grouped by module so that only symbols whose mangled module
/// can match are demangled, C++ names behind a mangled-fragment pre-filter.
public final class RuleSet: Sendable {
    /// The packs, in the order given.
    public let packs: [RulePack]
    /// Every rule of every pack, in pack order.
    public let rules: [Rule]
    public let demangler: Demangler

    private let byID: [RuleID: Int]
    private let exact: [String: [Int]]
    /// Globs with the literal text before their first wildcard, a cheap
    /// test before `fnmatch`.
    private let globs: [(pattern: String, prefix: [UInt8], rule: Int)]
    /// The first bytes a glob can match (all, when one starts with a
    /// wildcard): most names are ruled out by their first byte.
    private let globFirstBytes: [Bool]
    private let swiftPathsByModule: [String: [(path: String, rule: Int)]]
    /// The modules of ``swiftPathsByModule``, sorted.
    private let swiftModules: [String]
    /// By a name's first two bytes (``leadKey(_:)``): whether
    /// ``mayMatchSymbol(_:)`` may accept a name that starts with them.
    private let symbolLeads: [Bool]
    /// The UTF-8 bytes of ``swiftModules``, for ``mayMatchSymbol(_:)``.
    private let swiftModuleBytes: [[UInt8]]
    /// Whether an exact name starts with the two bytes `first << 8 | second`:
    /// most names are ruled out without hashing them.
    private let exactPrefixes: [Bool]
    /// Whether an exact name is this many bytes long (index: length).
    private let exactLengths: [Bool]
    /// C++ names with their mangled fragment's bytes (``CxxQualifiedName/mangledFragment(of:)``).
    private let cxxNames: [(name: String, fragment: [UInt8], rule: Int)]
    private let strings: [String: [Int]]
    /// Library patterns with their ``Glob/longestLiteral(in:)``.
    private let libraries: [(pattern: String, literal: [UInt8], rule: Int)]
    private let objcNames: [(name: ObjCName, rule: Int)]
    /// The classes and selectors of the `objc` matchers that name a class's
    /// method (`+[UIApplication sharedApplication]`: `UIApplication`,
    /// `sharedApplication`), not a protocol's: the names a use by name
    /// passes to `NSClassFromString` and `NSSelectorFromString`.
    public let objcMethodNames: (classes: Set<String>, selectors: Set<String>)

    /// Indexes `packs`. Rule ids must be unique across packs: a repeated id
    /// is a problem (``RulePackProblem/Kind/duplicateID(_:firstSeen:)``) and
    /// the later rule is left out.
    public static func build(packs: [RulePack], demangler: Demangler = Demangler()) -> (RuleSet, [RulePackProblem]) {
        var problems: [RulePackProblem] = []
        var registry = RuleIDRegistry()
        var kept: [RulePack] = []
        for var pack in packs {
            pack.rules = pack.rules.enumerated().compactMap { index, rule in
                let declaration = RuleIDRegistry.Declaration(id: rule.id, jsonPath: "$.rules[\(index)].id")
                if let problem = registry.register(declaration, file: pack.path) {
                    problems.append(problem)
                    return nil
                }
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
        byID = Dictionary(rules.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        var exact: [String: [Int]] = [:]
        var globs: [(String, [UInt8], Int)] = []
        var swiftPaths: [String: [(String, Int)]] = [:]
        var cxxNames: [(String, [UInt8], Int)] = []
        var strings: [String: [Int]] = [:]
        var libraries: [(String, [UInt8], Int)] = []
        var objcNames: [(ObjCName, Int)] = []
        for (index, rule) in rules.enumerated() {
            for matcher in rule.matchers {
                switch matcher {
                case .symbol(let name): exact[name, default: []].append(index)
                case .glob(let pattern):
                    globs.append((pattern, Array(pattern.utf8.prefix { !"*?[\\".utf8.contains($0) }), index))
                case .swift(let path): swiftPaths[SwiftDeclarationPath.module(of: path), default: []].append((path, index))
                case .cxx(let name): cxxNames.append((name, Array(CxxQualifiedName.mangledFragment(of: name).utf8), index))
                case .string(let text): strings[text, default: []].append(index)
                case .library(let pattern): libraries.append((pattern, Glob.longestLiteral(in: pattern), index))
                case .objc(let name): objcNames.append((name, index))
                }
            }
        }
        self.exact = exact
        var prefixes = Array(repeating: false, count: 1 << 16)
        for name in exact.keys {
            let utf8 = name.utf8
            prefixes[Int(utf8.first ?? 0) << 8 | Int(utf8.dropFirst().first ?? 0)] = true
        }
        self.exactPrefixes = prefixes
        var lengths = Array(repeating: false, count: (exact.keys.map(\.utf8.count).max() ?? 0) + 1)
        for name in exact.keys { lengths[name.utf8.count] = true }
        self.exactLengths = lengths
        self.globs = globs
        var firstBytes = Array(repeating: false, count: 256)
        for (_, prefix, _) in globs {
            if let first = prefix.first { firstBytes[Int(first)] = true } else { firstBytes = Array(repeating: true, count: 256) }
        }
        self.globFirstBytes = firstBytes
        self.swiftPathsByModule = swiftPaths
        self.swiftModules = swiftPaths.keys.sorted()
        self.swiftModuleBytes = swiftModules.map { Array($0.utf8) }
        self.cxxNames = cxxNames
        var leads = Array(repeating: false, count: 1 << 16)
        func lead(_ first: UInt8, _ second: UInt8?) {
            if let second { leads[Int(first) << 8 | Int(second)] = true } else { (0...255).forEach { lead(first, $0) } }
        }
        for name in exact.keys { leads[Self.leadKey(name)] = true }
        for (_, prefix, _) in globs {
            if let first = prefix.first { lead(first, prefix.dropFirst().first) } else { (0...255).forEach { lead($0, nil) } }
        }
        // A Swift path matches only a name that starts with a mangling prefix.
        if !swiftPaths.isEmpty {
            for prefix in SwiftDeclarationPath.manglingPrefixes { leads[Self.leadKey(prefix)] = true }
        }
        if !cxxNames.isEmpty { lead(UInt8(ascii: "_"), UInt8(ascii: "Z")) }
        symbolLeads = leads
        self.strings = strings
        self.libraries = libraries
        self.objcNames = objcNames
        let methods = objcNames.map(\.0).filter { $0.selector != nil && !$0.isProtocolMethod }
        objcMethodNames = (Set(methods.map(\.className)), Set(methods.compactMap(\.selector)))
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
        let utf8 = name.utf8
        let first = utf8.first ?? 0
        let pair = Int(first) << 8 | Int(utf8.dropFirst().first ?? 0)
        if exactPrefixes[pair] {
            for rule in exact[name] ?? [] where matched[rule] == nil && considered(rule) {
                matched[rule] = .symbol(name)
            }
        }
        if globFirstBytes[Int(first)] {
            for (pattern, prefix, rule) in globs
            where matched[rule] == nil && considered(rule) && name.utf8.starts(with: prefix) && Glob.matches(pattern, name) {
                matched[rule] = .glob(pattern)
            }
        }
        if !swiftPathsByModule.isEmpty, let module = SwiftDeclarationPath.moduleName(ofMangled: name),
            let candidates = swiftPathsByModule[String(module)]?.filter({ considered($0.rule) }),
            !candidates.isEmpty,
            let demangled = demangler.swift(name)
        {
            for (path, rule) in candidates
            where matched[rule] == nil && SwiftDeclarationPath.matches(demangled: demangled, path: path) {
                matched[rule] = .swift(path)
            }
        }
        if !cxxNames.isEmpty && first == UInt8(ascii: "_") && utf8.dropFirst().first == UInt8(ascii: "Z") {
            let candidates = cxxNames.filter { considered($0.rule) && ByteSearch.contains(name, $0.fragment) }
            if !candidates.isEmpty, let demangled = demangler.cxx(name) {
                for candidate in candidates
                where matched[candidate.rule] == nil && CxxQualifiedName.matches(demangled: demangled, name: candidate.name) {
                    matched[candidate.rule] = .cxx(candidate.name)
                }
            }
        }
        guard !matched.isEmpty else { return [] }
        return matched.keys.sorted().map { RuleMatch(rule: rules[$0], matcher: matched[$0]!) }
    }

    /// Whether ``rules(matchingSymbol:unsafeOnly:)`` may match the symbol
    /// whose raw name is `name` (UTF-8 bytes, without the terminating NUL):
    /// `false` only when no rule can, decided from the bytes without making
    /// a string, demangling or hashing.
    ///
    /// What inspection keeps of a scan that needs only the findings
    /// (`ImageInspector.inspect(path:options:)`).
    public func mayMatchSymbol(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = name.first else { return false }
        let second = name.count > 1 ? name[1] : 0
        if exactPrefixes[Int(first) << 8 | Int(second)] && name.count < exactLengths.count && exactLengths[name.count] {
            return true
        }
        if globFirstBytes[Int(first)] && globs.contains(where: { name.starts(with: $0.prefix) }) {
            return true
        }
        if !swiftModules.isEmpty, let module = SwiftDeclarationPath.mangledModule(name) {
            let named =
                switch module {
                case .named(let bytes): swiftModuleBytes.contains { $0.count == bytes.count && $0.elementsEqual(bytes) }
                case .swift: swiftModules.contains("Swift")
                case .importedC: swiftModules.contains("__C")
                }
            if named { return true }
        }
        if !cxxNames.isEmpty && first == UInt8(ascii: "_") && second == UInt8(ascii: "Z") {
            return cxxNames.contains { fragment in fragment.fragment.withUnsafeBufferPointer { ByteSearch.contains(name, $0) } }
        }
        return false
    }

    /// By a name's first two bytes (``leadKey(_:)``), 65,536 flags: whether
    /// ``mayMatchSymbol(_:)`` may accept a name that starts with them, or
    /// one of `names` does. `false` only where neither does: what a reader
    /// tests before it measures a name (`SymbolSelection.only(leads:_:)`).
    public func symbolLeads(including names: some Sequence<String>) -> [Bool] {
        var leads = symbolLeads
        for name in names { leads[Self.leadKey(name)] = true }
        return leads
    }

    /// `first << 8 | second` for the first two bytes of `name`'s UTF-8; 0
    /// stands for a byte a shorter name does not have.
    public static func leadKey(_ name: String) -> Int {
        var bytes = name.utf8.makeIterator()
        let first = bytes.next() ?? 0
        return Int(first) << 8 | Int(bytes.next() ?? 0)
    }

    /// ``mayMatchSymbol(_:)`` for a name already a string.
    public func mayMatchSymbol(_ name: String) -> Bool {
        var name = name
        return name.withUTF8(mayMatchSymbol)
    }

    /// The rule with identifier `id`, if any.
    public func rule(withID id: RuleID) -> Rule? {
        byID[id].map { rules[$0] }
    }

    /// The rules whose `string` matcher is `text` (a literal the inspector
    /// found, ``stringPatterns``).
    public func rules(matchingString text: String) -> [RuleMatch] {
        (strings[text] ?? []).map { RuleMatch(rule: rules[$0], matcher: .string(text)) }
    }

    /// Every `string` matcher's text: what the string rules match.
    public var stringPatterns: [String] { strings.keys.sorted() }

    /// What the inspector also looks for in a Mach-O image's read-only
    /// data: the classes and selectors of the class methods and instance
    /// methods `objc` matchers name (``objcMethodNames``), which without
    /// call sites tell a use by name. (An ELF image has no Objective-C.)
    public var objcLiterals: [String] {
        objcMethodNames.classes.union(objcMethodNames.selectors).subtracting(strings.keys).sorted()
    }

    /// The rules whose `library` pattern matches the DT_NEEDED name or
    /// SONAME `library`.
    public func rules(matchingLibrary library: String) -> [RuleMatch] {
        libraries.filter { ByteSearch.contains(library, $0.literal) && Glob.matches($0.pattern, library) }
            .map { RuleMatch(rule: rules[$0.rule], matcher: .library($0.pattern)) }
    }
}

extension RuleSet {
    /// The rules whose `objc` matchers an image's Objective-C references
    /// satisfy, each once with the first matcher that matched, in rule
    /// order: a class matcher when `classes` holds the class; a class's
    /// method matcher when `classes` holds its class and `selectors` its
    /// selector; a protocol's method matcher when `selectors` holds its
    /// selector.
    ///
    /// - Parameters:
    ///   - classes: the classes the image references (`__objc_classrefs`).
    ///   - selectors: the selectors it references (`__objc_selrefs`,
    ///     `objc_msgSend$sel` stubs).
    ///   - unsafeOnly: consider only rules whose category makes an image
    ///     unsafe.
    public func rules(matchingClasses classes: Set<String>, selectors: Set<String>, unsafeOnly: Bool = false) -> [RuleMatch] {
        guard !objcNames.isEmpty, !classes.isEmpty || !selectors.isEmpty else { return [] }
        var matched: [Int: ObjCName] = [:]
        for (name, rule) in objcNames where matched[rule] == nil && (!unsafeOnly || rules[rule].category.makesUnsafe) {
            guard name.isProtocolMethod || classes.contains(name.className) else { continue }
            if let selector = name.selector, !selectors.contains(selector) { continue }
            matched[rule] = name
        }
        return matched.keys.sorted().map { RuleMatch(rule: rules[$0], matcher: .objc(matched[$0]!)) }
    }

    /// Whether any rule has an `objc` matcher.
    public var hasObjCMatchers: Bool { !objcNames.isEmpty }
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
