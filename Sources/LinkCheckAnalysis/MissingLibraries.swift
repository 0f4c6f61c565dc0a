import LinkCheckImage

/// A finding per dependency of a scanned image that the loader would not
/// find: `LINK002` when a file of that name was found but could not be read
/// (an error where the image has to be safe), else `LINK001`.
struct MissingLibraries {
    let graph: LinkGraph
    let severity: SeverityPolicy

    func findings() -> [Finding] {
        graph.missing.filter { $0.image < graph.scannedCount }.map { missing in
            let image = graph.images[missing.image]
            let bundles = severity.policy.bundles
            if !missing.unreadable.isEmpty {
                let found = missing.unreadable.map { "\(bundles.displayPath(of: $0.path)) (\(Self.reason($0)))" }.joined(separator: "; ")
                return Finding(
                    builtIn: BuiltInRules.unreadableLibrary, kind: .unreadableLibrary, image: image.name,
                    symbol: missing.needed, detail: "needs \(missing.needed), found as \(found)",
                    severity: severity.completenessSeverity(missing.image))
            }
            let searched = missing.searched.isEmpty ? "" : " (searched: \(missing.searched.map(bundles.displayPath(of:)).joined(separator: ", ")))"
            return Finding(
                builtIn: BuiltInRules.missingLibrary, kind: .missingLibrary, image: image.name,
                symbol: missing.needed, detail: "needs \(missing.needed), which the dynamic loader would not find\(searched)")
        }
    }

    /// An inspection error's text without the leading path.
    static func reason(_ error: InspectionError) -> String {
        let text = error.description
        let prefix = error.path + ": "
        return text.hasPrefix(prefix) ? String(text.dropFirst(prefix.count)) : text
    }
}
