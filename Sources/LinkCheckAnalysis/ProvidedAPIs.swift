import LinkCheckImage
import LinkCheckRules

extension OwnFindings {
    /// The C libraries that define the loader functions: their definitions
    /// are not interpositions (glibc and musl; Darwin's libSystem and
    /// libdyld).
    static let loaderProviders = ["libc.so.*", "libdl.so.*", "libc.musl-*", "ld-musl-*", "libSystem.*dylib", "libdyld.dylib"]

    /// Provider notes (one per rule) and loader interpositions.
    ///
    /// An image that defines an API, exported or, when it exports none of
    /// it, for its own use (``SymbolMatches/definitions``), is its provider:
    /// its definitions are a note, and calls to them from other modules' code in the same
    /// image are ``staticCallFindings()``. When those calls cannot be seen
    /// (``unseenCalls``) and a Swift API's module is not the image's own (by
    /// file name or link name: `libAnalytics.so` is `Analytics`), or a C API
    /// is defined but not exported (an internal copy, every call to which is
    /// a finding), the API's code was linked into the image, so the note
    /// becomes a warning that says what is unknown rather than letting the
    /// image pass on the note alone.
    func providedAPIFindings() -> [Finding] {
        loaderInterpositions() + providedAPIs().map(providerFinding)
    }

    /// An API the image provides: the rule that names it, the image's
    /// symbols that define it, and whether it exports them (else they are
    /// internal definitions, ``SymbolMatches/definitions``).
    struct ProvidedAPI {
        var match: RuleMatch
        var symbols: [String]
        var exported: Bool
    }

    /// A finding per C loader function the image defines and so
    /// interposes, unless the image is a C library that provides the
    /// loader (``loaderProviders``) or cannot interpose it.
    func loaderInterpositions() -> [Finding] {
        // Only what the dynamic linker sees can interpose: a static
        // executable's own copy of libc (.symtab) cannot.
        let isLoaderProvider =
            image.facts.elf.map { $0.symbolTable != .dynsym } ?? false
            || Self.loaderProviders.contains { Glob.matches($0, image.shortName) }
        guard !isLoaderProvider else { return [] }
        return image.exports.filter { symbol in
            symbol.name.utf8.first == UInt8(ascii: "d") && BuiltInRules.cLoaderFunctions.contains(symbol.name)
        }.map { symbol in
            Finding(
                builtIn: BuiltInRules.loaderInterposition, kind: .interposedLoader, image: image.name,
                symbol: symbol.name, detail: .definesLoader(symbol: symbol.name))
        }
    }

    /// The APIs the image provides, by rule id: its exports that rules
    /// match, and for an API it exports none of, its internal definitions.
    func providedAPIs() -> [ProvidedAPI] {
        var provided: [RuleID: ProvidedAPI] = [:]
        for (symbol, symbolMatches) in matches.exports {
            for match in symbolMatches {
                provided[match.rule.id, default: ProvidedAPI(match: match, symbols: [], exported: true)].symbols.append(symbol.name)
            }
        }
        // Internal definitions count for an API the image does not export.
        for (symbol, symbolMatches) in matches.definitions {
            for match in symbolMatches where provided[match.rule.id]?.exported != true {
                provided[match.rule.id, default: ProvidedAPI(match: match, symbols: [], exported: false)].symbols.append(symbol.name)
            }
        }
        return provided.sorted { $0.key < $1.key }.map(\.value)
    }

    /// The provider's note for `entry`, or a warning when the API's code is
    /// linked into the image and its calls cannot be seen.
    func providerFinding(_ entry: ProvidedAPI) -> Finding {
        let first = entry.symbols.min()!
        var severity = Severity.note
        var unknownCalls: FindingDetail.UnknownCalls?
        if let unseenCalls {
            let copy: FindingDetail.LinkedInCopy?
            if case .swift = entry.match.matcher {
                copy = entry.symbols.lazy.compactMap(owningModule).first(where: { !names.contains($0) }).map { .module($0) }
            } else {
                // Every call to an internal copy is a finding.
                copy = entry.exported ? nil : .internalCopy
            }
            if let copy {
                severity = self.severity.severity(of: entry.match.rule, on: index).0 == .note ? .note : .warning
                unknownCalls = FindingDetail.UnknownCalls(copy: copy, since: unseenCalls)
            }
        }
        let detail = FindingDetail.provides(
            api: entry.match.rule.api, symbol: first, demangled: rules.demangler.any(first), moreSymbols: entry.symbols.count - 1,
            unknownCalls: unknownCalls)
        return Finding(
            rule: entry.match.rule.id, severity: severity, category: entry.match.rule.category, kind: .providedSymbol,
            image: image.name, symbol: first, demangled: rules.demangler.any(first),
            statement: .detail(detail, ruleMessage: nil), fixit: nil, source: entry.match.rule.source)
    }
}
