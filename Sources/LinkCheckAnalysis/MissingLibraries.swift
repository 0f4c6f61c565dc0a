import LinkCheckImage

/// A finding per dependency of a scanned image that the loader would not
/// find: `LINK002` when a file of that name was found but could not be read
/// (an error where the image has to be safe), else `LINK001` (also for one
/// found only among the scanned images by its install name, in none of the
/// folders dyld searches, when the image is in an app).
struct MissingLibraries {
    let graph: LinkGraph
    let severity: SeverityPolicy

    func findings() -> [Finding] {
        let bundles = severity.bundles
        // A library found only by its install name is missing for dyld
        // inside an app; outside one, that is how loose frameworks are found.
        return graph.missing.filter { missing in
            missing.image < graph.scannedCount
                && (missing.foundByInstallName == nil || bundles.placement(ofFile: graph.images[missing.image].path)?.containingApp != nil)
        }.map { missing in
            let image = graph.images[missing.image]
            if !missing.unreadable.isEmpty {
                let found = missing.unreadable.map { "\(bundles.displayPath(of: $0.path)) (\(Self.reason($0)))" }.joined(separator: "; ")
                return Finding(
                    builtIn: BuiltInRules.unreadableLibrary, kind: .unreadableLibrary, image: image.name,
                    symbol: missing.needed, detail: "needs \(missing.needed), found as \(found)",
                    severity: severity.completenessSeverity(missing.image))
            }
            let searched =
                missing.searched.isEmpty ? "" : " (searched: \(missing.searched.map(bundles.displayPath(of:)).joined(separator: ", ")))"
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
