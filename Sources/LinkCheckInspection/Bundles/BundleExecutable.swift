import LinkCheckImage
import SystemInterface

extension BundleFolder {
    /// Finds the bundle's executable where its layout and
    /// ``executableName`` put it (``executablePath(version:)``; for a
    /// versioned framework also the top-level `X.framework/X`), following
    /// symbolic links that stay inside the bundle folder
    /// (`Versions/Current → A`, `X → Versions/Current/X`).
    ///
    /// - Returns: the regular file's path, as ``path`` plus its place in the
    ///   bundle with no link on it (`Kit.framework/Versions/A/Kit`): the
    ///   path discovery names it by; or why there is none, for the first
    ///   place looked at: nothing there, not a regular file, a link that
    ///   dangles, loops or leads out of the bundle; or a name that is no
    ///   file name (empty, or a path: `../../Photos`).
    func findExecutable(version: String?) -> Result<String, BundleExecutableProblem> {
        let places = [executablePath(version: version)] + (layout == .versioned ? [executableName] : [])
        // CFBundleExecutable names a file in the bundle's executable folder, never a path.
        guard !executableName.isEmpty, !executableName.contains("/"), executableName != ".", executableName != ".." else {
            return .failure(
                BundleExecutableProblem(
                    executable: executableName, fromInfoPlist: info?.executable != nil, place: folderName + "/" + places[0],
                    reason: .notAFileName))
        }
        var first: BundleExecutableProblem.Reason?
        for place in places {
            switch file(at: place) {
            case .success(let file): return .success(file)
            case .failure(let reason): first = first ?? reason
            }
        }
        return .failure(
            BundleExecutableProblem(
                executable: executableName, fromInfoPlist: info?.executable != nil, place: folderName + "/" + places[0],
                reason: first ?? .missing))
    }

    /// The regular file at `place` (relative to ``path``), links followed,
    /// as ``path`` plus its place with no link on it.
    private func file(at place: String) -> Result<String, BundleExecutableProblem.Reason> {
        let candidate = path + "/" + place
        var info = stat()
        guard lstat(candidate, &info) == 0 else { return .failure(.missing) }
        guard let real = SymbolicLinks.realPath(candidate) else {
            let code = errno
            guard info.st_mode & S_IFMT == S_IFLNK else { return .failure(.missing) }
            return .failure(code == ELOOP ? .linkLoop : .danglingLink(target: SymbolicLinks.target(of: candidate) ?? "?"))
        }
        guard let bundle = SymbolicLinks.realPath(path), real.hasPrefix(bundle == "/" ? "/" : bundle + "/") else {
            return .failure(.linkOutsideBundle(target: real))
        }
        guard stat(real, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return .failure(.notARegularFile) }
        return .success(path + "/" + real.dropFirst(bundle == "/" ? 1 : bundle.count + 1))
    }
}
