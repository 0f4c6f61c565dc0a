import LinkCheckCodeIndex
import LinkCheckImage
import LinkCheckRules

/// Objective-C reached by name: a class looked up from a string
/// (`NSClassFromString(@"UIApplication")`) and sent a selector made from
/// one (`NSSelectorFromString(@"sharedApplication")`) leaves no class
/// reference and no selector reference, only strings, which the compiler's
/// extension check and the linker never see.
enum ObjCByName {
    /// The runtime functions that look a class up by name (`<objc/runtime.h>`,
    /// Foundation's `NSClassFromString`), by C-level name.
    static let classLookUps: Set<String> = ["NSClassFromString", "objc_getClass", "objc_lookUpClass", "objc_getRequiredClass"]

    /// The runtime functions that make a selector from its name.
    static let selectorMakers = MessageSend.selectorMakers

    /// Whether the raw symbol name `name` (C-level, UTF-8) is one of
    /// ``classLookUps``: the imports inspection keeps for this check.
    static func isClassLookUp(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        (name.first == UInt8(ascii: "N") || name.first == UInt8(ascii: "o")) && classLookUps.contains { $0.utf8.elementsEqual(name) }
    }

    /// Whether `image` imports a class look-up function.
    static func looksUpClasses(_ image: BinaryImage) -> Bool {
        image.imports.contains { classLookUps.contains($0.name) }
    }

    /// The key-value coding messages that call a method by its name
    /// (`[UIApplication valueForKey:@"sharedApplication"]`, Swift's
    /// `value(forKey:)`): their key argument reaches the selector by name.
    static let keyValueSelectors: Set<String> = ["valueForKey:", "valueForKeyPath:"]

    /// The checks of `checks` (a function's, ``CodeIndex/guards(of:)``)
    /// that guard a use of `selector` by name in `function` (its display
    /// name): a `respondsToSelector:` of that selector, any check of "am I
    /// an extension".
    static func guards(_ checks: Set<GuardCheck>, of selector: String, in function: String) -> [UseGuard] {
        checks.compactMap { check in
            switch check {
            case .respondsToSelector(let asked): asked == selector ? UseGuard(kind: .respondsToSelector, function: function) : nil
            case .extensionCheck: UseGuard(kind: .extensionCheck, function: function)
            }
        }
    }
}

extension OwnFindings {
    /// A finding per rule whose `objc` matcher names a class's method
    /// (`+[UIApplication sharedApplication]`, `-[UIApplication openURL:]`)
    /// that the image reaches by name, at the rule's severity: a class
    /// look-up (``ObjCByName/classLookUps``) whose literal argument is the
    /// class (``LoaderCalls/literalArgument(_:where:)``), and the selector
    /// reached through a selector reference or a selector maker
    /// (``ObjCByName/selectorMakers``) whose literal argument it is. The
    /// look-ups and selector makers (or, for a selector reference, the
    /// sends of it whose receiver is not known and its loads in functions
    /// that do not send it) are the call sites. Rules
    /// the image's own references match already (``objcFindings()``) are
    /// left out.
    ///
    /// Where which class a look-up is given is not known, the class's and
    /// selector's names among the image's strings, or the selector among its
    /// references, together with an import of a look-up function, make a
    /// warning at most (``Finding/unconfirmed``) that says why: without call
    /// sites (``code`` is `nil`), and with them for a look-up call that is
    /// passed no literal (`NSClassFromString(name)` in a wrapper), or a
    /// look-up function imported but never seen called. So call sites never
    /// give less than their absence. Its call sites are then the code that
    /// uses the names: the loads of the class's and selector's names as
    /// literals (`@"UIApplication"`, `"sharedApplication"`) and of the
    /// selector's references; where there is none the message says so and
    /// no function is named (a look-up passed no literal is not one that
    /// looks the class up).
    ///
    /// A look-up function called only from the toolchain's own code
    /// (``toolchain``: the Swift runtime's compatibility overrides call
    /// `objc_getClass`) is none of the image's, and a call from there none
    /// of its look-ups.
    ///
    /// A key-value coding message (``ObjCByName/keyValueSelectors``) whose
    /// literal key is the selector reaches the selector by name as a
    /// selector maker does. What guards each use in the functions of its
    /// call sites (``ObjCByName/guards(_:of:in:)``) is the finding's
    /// ``ByNameUse/guards``.
    func objcByNameFindings() -> [Finding] {
        guard matches.looksUpClassesByName else { return [] }
        let lookUps = classLookUpImports()
        guard !lookUps.isEmpty else { return [] }
        guard let code else {
            return unconfirmedByNameFindings(lookUps: lookUps, why: .callsUnseen(unseenCalls))
        }
        let lookedUp = literalCalls(to: lookUps, passing: rules.objcMethodNames.classes, in: code)
        let made = selectorsMade(passing: rules.objcMethodNames.selectors, in: code)
        let confirmed = byNameMethods(classes: Set(lookedUp.keys), selectors: Set(image.selectorReferences).union(made.keys))
            .map { match, name in
                confirmedByNameFinding(match, name, lookUp: lookedUp[name.className]!, made: made[name.selector!], in: code)
            }
        guard let why = unknownLookUps(lookUps, in: code) else { return confirmed }
        return confirmed + unconfirmedByNameFindings(lookUps: lookUps, why: why, except: Set(confirmed.map(\.rule)))
    }

    /// The class look-up functions (``ObjCByName/classLookUps``) the image
    /// imports, by name, but those whose only calls are the toolchain's
    /// (a function never seen called stays).
    func classLookUpImports() -> [String] {
        Set(image.imports.map(\.name)).intersection(ObjCByName.classLookUps).sorted().filter { name in
            guard let code, let calls = code.callsToImport[name], !calls.isEmpty else { return true }
            return !ownCalls(name, in: code).isEmpty
        }
    }

    /// The calls to import `name` in `code`, but those from the
    /// toolchain's code (``toolchain``).
    func ownCalls(_ name: String, in code: CodeIndex) -> [CallSite] {
        (code.callsToImport[name] ?? []).filter { $0.caller.map { toolchain[$0] == nil } ?? true }
    }

    /// The rules whose `objc` matcher names a method of one of `classes`
    /// with one of `selectors` (not a protocol's), but those the image's
    /// own references match already, each with its method.
    func byNameMethods(classes: Set<String>, selectors: Set<String>) -> [(RuleMatch, ObjCName)] {
        let direct = Set(matches.objc.map(\.rule.id))
        return rules.rules(matchingClasses: classes, selectors: selectors).compactMap { match in
            guard case .objc(let name) = match.matcher, name.selector != nil, !name.isProtocolMethod,
                !direct.contains(match.rule.id)
            else { return nil }
            return (match, name)
        }
    }

    /// The finding of a method whose class `lookUp` looks up by a literal
    /// name, and whose selector the code makes from a literal (`made`) or
    /// holds a reference to: the look-ups, then the selector's makers, or
    /// the sends of its reference to an unknown receiver and its loads, are
    /// the call sites.
    func confirmedByNameFinding(_ match: RuleMatch, _ name: ObjCName, lookUp: LiteralCalls, made: LiteralCalls?, in code: CodeIndex)
        -> Finding
    {
        let selector = name.selector!
        var sites: [any CodeLocation] = lookUp.sites
        if let made {
            sites += made.sites
        } else {
            sites += (code.callsToSelector[selector] ?? []).filter { $0.receiverClass == nil }
            sites += code.selectorLoadsNotSent(selector)
        }
        var finding = finding(
            match, kind: .objcByName, subject: name.description, demangled: nil,
            detail: .looksUpByName(
                className: name.className, selector: selector, lookUps: lookUp.functions, selectorMakers: made?.functions))
        locator.locate(&finding, sites: sites.sorted { $0.address < $1.address }, in: code, api: name.description)
        finding.byName?.guards = byNameGuards(at: sites, of: selector, in: code)
        return finding
    }

    /// The warnings from the strings, references and look-up imports
    /// (`lookUps`), but for the rules `confirmed`; `why` says why the name a
    /// look-up is passed is not known.
    func unconfirmedByNameFindings(lookUps: [String], why: FindingDetail.LookUpUnknown, except confirmed: Set<RuleID> = []) -> [Finding] {
        let names = rules.objcMethodNames
        let strings = Set(image.stringLiterals)
        let references = Set(image.selectorReferences)
        return byNameMethods(
            classes: names.classes.intersection(strings), selectors: references.union(names.selectors.intersection(strings))
        )
        .filter { !confirmed.contains($0.0.rule.id) }
        .map { match, name in
            let selector = name.selector!
            let uses = code.map { code -> [any CodeLocation] in
                let loads =
                    (code.literalLoads[name.className] ?? []) + (code.literalLoads[selector] ?? [])
                    + (references.contains(selector) ? code.selectorLoads[selector] ?? [] : [])
                return loads.sorted { $0.address < $1.address }
            }
            var finding = finding(
                match, kind: .objcByName, subject: name.description, demangled: nil,
                detail: .mayLookUpByName(
                    className: name.className, selector: selector, selectorHeldAsString: strings.contains(selector),
                    lookUps: lookUps, unknownBecause: why, namesUnused: uses?.isEmpty == true))
            finding.severity = min(finding.severity, .warning)
            finding.unconfirmed = true
            if let code, let uses {
                locator.locate(&finding, sites: uses, in: code, api: name.description)
                finding.byName?.guards = byNameGuards(at: uses, of: selector, in: code)
            }
            return finding
        }
    }

    /// Why the names the look-ups `lookUps` are passed are not all known:
    /// calls passed no literal (a wrapper's parameter), by calling
    /// function, and look-up functions imported but never seen called;
    /// `nil` when every call passes a literal.
    func unknownLookUps(_ lookUps: [String], in code: CodeIndex) -> FindingDetail.LookUpUnknown? {
        let names = rules.objcMethodNames
        let unknown = lookUps.flatMap { function in
            ownCalls(function, in: code).filter {
                $0.firstArgument == nil && LoaderCalls.literalArgument($0, where: names.classes.contains) == nil
            }
        }.sorted { $0.address < $1.address }
        let uncalled = lookUps.filter { code.callsToImport[$0]?.isEmpty ?? true }
        guard !unknown.isEmpty || !uncalled.isEmpty else { return nil }
        var callers: [String?] = []
        for caller in unknown.map({ site in site.caller.map { locator.displayName(code.functions[$0].name) } })
        where !callers.contains(caller) {
            callers.append(caller)
        }
        return .notPassedALiteral(noLiteralIn: callers, neverCalled: uncalled)
    }

    /// Name → the image's own calls (``ownCalls(_:in:)``) to the imports
    /// `functions` whose literal argument (``LoaderCalls/literalArgument(_:where:)``)
    /// is one of `wanted`.
    func literalCalls(to functions: [String], passing wanted: Set<String>, in code: CodeIndex) -> [String: LiteralCalls] {
        var found: [String: LiteralCalls] = [:]
        for function in functions {
            for site in ownCalls(function, in: code) {
                guard let name = LoaderCalls.literalArgument(site, where: wanted.contains) else { continue }
                found[name, default: LiteralCalls()].add(site, calling: function)
            }
        }
        return found
    }

    /// Selector name → the calls that make a selector of it from a literal
    /// of `wanted`: the image's own calls to a selector maker
    /// (``ObjCByName/selectorMakers``), and the key-value coding messages
    /// (``ObjCByName/keyValueSelectors``) with it as the key.
    func selectorsMade(passing wanted: Set<String>, in code: CodeIndex) -> [String: LiteralCalls] {
        var made = literalCalls(to: ObjCByName.selectorMakers.sorted(), passing: wanted, in: code)
        for selector in ObjCByName.keyValueSelectors.sorted() {
            for site in code.callsToSelector[selector] ?? [] {
                guard let name = LoaderCalls.literalArgument(site, where: wanted.contains) else { continue }
                made[name, default: LiteralCalls()].add(site, calling: selector)
            }
        }
        return made
    }

    /// What guards a use of `selector` by name at `sites` in `code`
    /// (``ObjCByName/guards(_:of:in:)`` of each function the sites are in).
    func byNameGuards(at sites: [any CodeLocation], of selector: String, in code: CodeIndex) -> [UseGuard] {
        var found: [UseGuard] = []
        for caller in Set(sites.compactMap(\.caller)).sorted() {
            let function = locator.displayName(code.functions[caller].name)
            for check in ObjCByName.guards(code.guards(of: caller), of: selector, in: function) where !found.contains(check) {
                found.append(check)
            }
        }
        // Extension checks, then respondsToSelector:, each by function (one
        // of unknown function first).
        let order = { (check: UseGuard) in (check.kind == .extensionCheck ? 0 : 1, check.function ?? "") }
        return found.sorted { order($0) < order($1) }
    }
}

/// The calls that pass one literal name: the sites, in the order found,
/// and the functions (or key-value coding selectors) called, each once.
struct LiteralCalls {
    var sites: [CallSite] = []
    var functions: [String] = []

    mutating func add(_ site: CallSite, calling function: String) {
        sites.append(site)
        if !functions.contains(function) { functions.append(function) }
    }
}
