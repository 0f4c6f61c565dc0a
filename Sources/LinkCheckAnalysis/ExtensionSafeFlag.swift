import LinkCheckImage

/// The linker's signal beside the code's evidence, for every Mach-O
/// framework that has to be extension-safe: `MH_APP_EXTENSION_SAFE`
/// (which `-application_extension` sets, and which ld64 and lld warn about
/// when it is missing) against what the framework actually uses.
///
/// Four cases (``ExtensionSafeFlag``): flagged and clean; flagged but using
/// an unavailable API (`FLAG002`: the flag is not evidence); not flagged
/// but clean (`FLAG001`: safe in fact, build it with the flag); not
/// flagged and using one (`FLAG001`, beside the API's own errors).
struct ExtensionSafeFlagCheck {
    let graph: LinkGraph
    let severity: SeverityPolicy

    /// The flag's case for image `index`, when it is a Mach-O dylib that has
    /// to be extension-safe; `usesUnavailableAPI` says whether its findings
    /// (own or through what it links) include an unavailable API. An image
    /// `readInPart` (`INSP001`, `LINK002`: it or what it links) that uses
    /// none gets no case: what was not read may use one, so it is not
    /// called clean.
    func flagCase(_ index: Int, usesUnavailableAPI: Bool, readInPart: Bool) -> ExtensionSafeFlag? {
        let image = graph.images[index]
        guard let facts = image.facts.macho, image.fileType == .sharedLibrary, severity.mustBeExtensionSafe(index) else { return nil }
        guard usesUnavailableAPI || !readInPart else { return nil }
        switch (facts.appExtensionSafe, usesUnavailableAPI) {
        case (true, false): return .flaggedAndClean
        case (true, true): return .flaggedButUnsafe
        case (false, false): return .unflaggedButClean
        case (false, true): return .unflaggedAndUnsafe
        }
    }

    /// The findings of the scanned images' cases: `FLAG001` for a framework
    /// without the flag (naming the chain from an extension that links it,
    /// when one does), `FLAG002` for a flagged one that uses an unavailable
    /// API.
    func findings(cases: [Int: ExtensionSafeFlag]) -> [Finding] {
        cases.sorted { $0.key < $1.key }.compactMap { index, flag in
            guard index < graph.scannedCount else { return nil }
            let image = graph.images[index]
            let linkedBy = chainFromAnExtension(to: index)
            let detail: FindingDetail
            switch flag {
            case .flaggedAndClean: return nil
            case .flaggedButUnsafe: detail = .flaggedYetUnsafe(image: image.shortName, linkedBy: linkedBy)
            case .unflaggedButClean: detail = .notFlagged(image: image.shortName, linkedBy: linkedBy, usesUnavailableAPI: false)
            case .unflaggedAndUnsafe: detail = .notFlagged(image: image.shortName, linkedBy: linkedBy, usesUnavailableAPI: true)
            }
            let rule = flag == .flaggedButUnsafe ? BuiltInRules.flagNotEvidence : BuiltInRules.unflaggedFramework
            return Finding(builtIn: rule, kind: .extensionSafeFlag, image: image.name, detail: detail)
        }
    }

    /// The shortest chain of short names from an extension that links or
    /// loads image `index` down to it, or `nil` when no extension does.
    func chainFromAnExtension(to index: Int) -> [String]? {
        let chains = graph.dependents(of: index).filter { severity.roles[$0.key].role == .extension }.map(\.value)
        return chains.min { ($0.count, $0.description) < ($1.count, $1.description) }.map { chain in
            chain.map { graph.images[$0].shortName }
        }
    }
}

/// Which of the four cases a Mach-O framework is in: the linker's flag
/// (`MH_APP_EXTENSION_SAFE`) against the code's evidence.
public enum ExtensionSafeFlag: String, Sendable, Codable {
    /// Flagged, and uses no unavailable API.
    case flaggedAndClean = "flagged-clean"
    /// Flagged, but uses an unavailable API: the flag is not evidence.
    case flaggedButUnsafe = "flagged-unsafe"
    /// Not flagged, but uses no unavailable API: safe in fact.
    case unflaggedButClean = "unflagged-clean"
    /// Not flagged, and uses an unavailable API.
    case unflaggedAndUnsafe = "unflagged-unsafe"
}
