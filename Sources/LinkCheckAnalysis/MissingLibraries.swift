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
                let found = missing.unreadable.map { FindingDetail.UnreadableFile(path: bundles.displayPath(of: $0.path), error: $0) }
                return Finding(
                    builtIn: BuiltInRules.unreadableLibrary, kind: .unreadableLibrary, image: image.name,
                    symbol: missing.needed, detail: .libraryUnreadable(library: missing.needed, found: found),
                    severity: severity.completenessSeverity(missing.image))
            }
            return Finding(
                builtIn: BuiltInRules.missingLibrary, kind: .missingLibrary, image: image.name, symbol: missing.needed,
                detail: .libraryNotFound(library: missing.needed, searched: missing.searched.map(bundles.displayPath(of:))))
        }
    }
}
