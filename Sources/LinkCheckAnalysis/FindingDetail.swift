import LinkCheckImage
import LinkCheckRules

/// What a finding's image does, typed: what was matched (a symbol, an
/// Objective-C class or method, a string, a library) and through what (an
/// import, a call into a linked-in copy, a class or selector reference, a
/// look-up by name, the read-only data, a DT_NEEDED or LC_LOAD_DYLIB
/// entry). The reports turn it into words (`FindingWording` in
/// LinkCheckReports); analysis never reads those words.
///
/// Typed so far: the kinds ``Finding/Kind/importedSymbol``,
/// ``Finding/Kind/staticCall``, ``Finding/Kind/objcReference``,
/// ``Finding/Kind/objcByName``, ``Finding/Kind/stringLiteral``,
/// ``Finding/Kind/neededLibrary`` and ``Finding/Kind/bundle``. Findings of the other kinds carry their
/// message as words (``Finding/Statement/words(_:)``).
public enum FindingDetail: Sendable, Equatable {
    /// The image imports `symbol` (raw), `demangled` when demangling
    /// changes it.
    case imports(symbol: String, demangled: String?)
    /// The image calls `function` (raw), a function it defines whose code
    /// was linked in statically; `demangled` when demangling changes it.
    case callsLinkedInCopy(function: String, demangled: String?)
    /// The image references `name`'s class and selector (Mach-O
    /// `__objc_classrefs`, `__objc_selrefs`), or, when it does not
    /// reference the class itself, the `subclasses` of it that it defines
    /// (sorted; empty otherwise).
    case references(ObjCName, subclasses: [String])
    /// The image looks the class `className` up by name, passing its name
    /// to `lookUps` (`NSClassFromString`), and reaches `selector` through
    /// the calls `selectorMakers` (`NSSelectorFromString`, `valueForKey:`),
    /// or through a selector reference when `nil`.
    case looksUpByName(className: String, selector: String, lookUps: [String], selectorMakers: [String]?)
    /// The image holds the name `className` as a string, and `selector` as
    /// a string too (`selectorHeldAsString`) or as a selector reference, and
    /// imports the look-up functions `lookUps`: it may look the class up by
    /// name. `unknownBecause` says, in words, why which name the look-ups
    /// are passed is not known; `namesUnused` is set when its code was
    /// analysed and none of it uses those names.
    case mayLookUpByName(
        className: String, selector: String, selectorHeldAsString: Bool, lookUps: [String], unknownBecause: String,
        namesUnused: Bool)
    /// The image's read-only data holds `string`.
    case holdsString(String)
    /// The image links `library` (its install name or DT_NEEDED name)
    /// through its `format`'s dependency record (DT_NEEDED, LC_LOAD_DYLIB).
    case links(library: String, format: BinaryFormat)
    /// How the image's app bundle is put together (``Finding/Kind/bundle``).
    case bundle(BundleProblem)
}
