import LinkCheckImage

/// What a check asks of an image's code, and so what its ``CodeIndex``
/// holds: the calls to some imports, the message sends of some selectors,
/// the calls to some of the image's own functions, the call paths from an
/// entry point down to each of those calls, for the callers of some
/// imports which imports of another kind they reach a few levels down, and
/// the places that load some selector references and string literals.
/// Both ``CallSiteMode``s give the same index for the same interest.
public struct CallSiteInterest: Sendable {
    /// Imports (C-level names: `dlopen`) whose call sites are kept
    /// (``CodeIndex/callsToImport``).
    public var imports: @Sendable (String) -> Bool
    /// Selectors whose message sends (``CodeIndex/callsToSelector``) and
    /// selector reference loads (``CodeIndex/selectorLoads``) are kept.
    public var selectors: @Sendable (String) -> Bool
    /// String literals (C strings, constant `CFString`s) whose loads are
    /// kept (``CodeIndex/literalLoads``): the names code may use by name.
    public var literals: Set<String>
    /// Functions of the image whose call sites are kept
    /// (``CodeIndex/callsToFunction``), by their raw (mangled) names' UTF-8
    /// bytes: asked of every function, whose names are not made into
    /// strings for it (``FunctionSymbol/name``).
    public var functions: @Sendable (UnsafeBufferPointer<UInt8>) -> Bool
    /// The imports ``CodeIndex/importsReached(from:depth:)`` reports (the
    /// OS version queries a loader call should come after).
    public var reached: @Sendable (String) -> Bool
    /// The imports (among ``imports``) whose calling functions
    /// ``CodeIndex/importsReached(from:depth:)`` is asked about, to at most
    /// ``reachDepth`` levels of callees.
    public var reachedFrom: @Sendable (String) -> Bool
    public var reachDepth: Int

    public init(
        imports: @escaping @Sendable (String) -> Bool, selectors: @escaping @Sendable (String) -> Bool = { _ in false },
        functions: @escaping @Sendable (UnsafeBufferPointer<UInt8>) -> Bool = { _ in false },
        reached: @escaping @Sendable (String) -> Bool = { _ in false },
        reachedFrom: @escaping @Sendable (String) -> Bool = { _ in false }, reachDepth: Int = 0, literals: Set<String> = []
    ) {
        self.imports = imports
        self.selectors = selectors
        self.literals = literals
        self.functions = functions
        self.reached = reached
        self.reachedFrom = reachedFrom
        self.reachDepth = max(reachDepth, 0)
    }

    /// Every import, selector and function, with every import reached from
    /// the callers of every import two levels down: the whole call graph's
    /// worth (for tests and `inspect`; with ``CallSiteMode/targeted`` it
    /// decodes about everything).
    public static let everything = CallSiteInterest(
        imports: { _ in true }, selectors: { _ in true }, functions: { _ in true }, reached: { _ in true },
        reachedFrom: { _ in true }, reachDepth: 2)
}

/// How call sites are found.
public enum CallSiteMode: String, Sendable, CaseIterable {
    /// A byte scan of all code finds the instructions that may transfer to
    /// a target of interest (an import's PLT entry, stub or GOT slot, a
    /// selector reference, a function's start), and only the functions
    /// holding one are decoded, breadth-first back from the calls kept for
    /// their call paths: the same answers as ``full`` for a fraction of the
    /// decoding.
    case targeted
    /// Every function of every code section is decoded.
    case full
}
