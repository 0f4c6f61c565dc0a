import LinkCheckImage
import LinkCheckRules

/// The rules an image's imported and exported symbols match, matched once
/// per image: what decides whether its code is analysed and what its own
/// findings are made from.
public struct SymbolMatches: Sendable {
    /// Each import some rule matches, with those rules, in import order.
    public let imports: [(symbol: Symbol, matches: [RuleMatch])]
    /// Each export an unsafe rule matches (the image provides the API, or
    /// holds a linked-in copy of it), in export order.
    public let exports: [(symbol: Symbol, matches: [RuleMatch])]
    /// Each function the image defines for its own use
    /// (``BinaryImage/definitions``) that an unsafe rule matches: a
    /// linked-in copy of the API that the image does not export, in table
    /// order.
    public let definitions: [(symbol: Symbol, matches: [RuleMatch])]
    /// The rules the image's Objective-C class and selector references
    /// match (``RuleSet/rules(matchingClasses:selectors:unsafeOnly:)``), a
    /// class the image defines counting as a reference to its superclasses
    /// (``BinaryImage/objcSuperclasses``).
    public let objc: [RuleMatch]
    /// Whether the image imports a function that looks an Objective-C
    /// class up by name (``ObjCByName/classLookUps``) while some rule has
    /// an `objc` matcher: its calls' arguments tell a use by name.
    public let looksUpClassesByName: Bool
    /// Whether the image, Mach-O and not for macOS, holds as a string the
    /// name of a selector some rule's `objc` matcher names: what its code
    /// does with the string (``OwnFindings/stringFindings(sentByName:)``)
    /// tells whether it is a use by name.
    public let holdsSelectorNames: Bool

    /// Matches `image`'s symbols against `rules`.
    public init(_ image: BinaryImage, rules: RuleSet) {
        imports = image.imports.compactMap { symbol in
            let matches = rules.rules(matchingSymbol: symbol.name)
            return matches.isEmpty ? nil : (symbol, matches)
        }
        let unsafe = { (symbol: Symbol) -> (symbol: Symbol, matches: [RuleMatch])? in
            let matches = rules.rules(matchingSymbol: symbol.name, unsafeOnly: true)
            return matches.isEmpty ? nil : (symbol, matches)
        }
        exports = image.exports.compactMap(unsafe)
        definitions = image.definitions.compactMap(unsafe)
        let classes = Set(image.objcClassReferences).union(image.objcSuperclasses.values.joined())
        objc = rules.rules(matchingClasses: classes, selectors: Set(image.selectorReferences))
        looksUpClassesByName = rules.hasObjCMatchers && ObjCByName.looksUpClasses(image)
        holdsSelectorNames =
            Self.selectorStringsMayBeUsesByName(in: image)
            && image.stringLiterals.contains(where: rules.objcMethodNames.selectors.contains)
    }

    /// Whether a selector's name held as a string in `image` may be a use by
    /// name: in a Mach-O image not for macOS (whose AppKit has selectors of
    /// the same names, `-[NSApplication sharedApplication]`). Whether it is
    /// one is up to what its code does with the string.
    static func selectorStringsMayBeUsesByName(in image: BinaryImage) -> Bool {
        image.format == .macho && image.platform?.platform != .macOS
    }

    /// Whether call sites matter for the image: it imports a symbol some rule
    /// matches, defines one an unsafe rule matches, exported or not (a
    /// statically linked copy of an API), references an Objective-C class
    /// or method one matches, looks classes up by name, or holds a
    /// selector's name as a string (``holdsSelectorNames``).
    public var needCallSites: Bool {
        !imports.isEmpty || !exports.isEmpty || !definitions.isEmpty || !objc.isEmpty || looksUpClassesByName || holdsSelectorNames
    }
}
