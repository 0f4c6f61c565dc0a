import LinkCheckImage

/// What a finding's image does, typed: what was matched (a symbol, a string,
/// a library) and through what (an import, a call into a linked-in copy, the
/// read-only data, a DT_NEEDED or LC_LOAD_DYLIB entry). The reports turn it
/// into words (`FindingWording` in LinkCheckReports); analysis never reads
/// those words.
///
/// Typed so far: the kinds ``Finding/Kind/importedSymbol``,
/// ``Finding/Kind/staticCall``, ``Finding/Kind/stringLiteral`` and
/// ``Finding/Kind/neededLibrary``. Findings of the other kinds carry their
/// message as words (``Finding/Statement/words(_:)``).
public enum FindingDetail: Sendable, Equatable {
    /// The image imports `symbol` (raw), `demangled` when demangling
    /// changes it.
    case imports(symbol: String, demangled: String?)
    /// The image calls `function` (raw), a function it defines whose code
    /// was linked in statically; `demangled` when demangling changes it.
    case callsLinkedInCopy(function: String, demangled: String?)
    /// The image's read-only data holds `string`.
    case holdsString(String)
    /// The image links `library` (its install name or DT_NEEDED name)
    /// through its `format`'s dependency record (DT_NEEDED, LC_LOAD_DYLIB).
    case links(library: String, format: BinaryFormat)
}
