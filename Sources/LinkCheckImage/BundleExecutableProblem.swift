/// Why a bundle's executable cannot be found
/// (``InspectionError/bundleExecutable(path:problem:)``): where the bundle's
/// layout and `CFBundleExecutable` put it, there is no file of its own.
public struct BundleExecutableProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is at the place the executable was looked for.
    public enum Reason: Error, Sendable, Hashable {
        /// Nothing (`ENOENT`): the executable is missing, or is named
        /// otherwise than `CFBundleExecutable` says.
        case missing
        /// Something that is not a regular file (a folder, a FIFO).
        case notARegularFile
        /// A symbolic link to `target` (as the link holds it), which does
        /// not exist.
        case danglingLink(target: String)
        /// A symbolic link loop (`ELOOP`).
        case linkLoop
        /// A symbolic link to `target` (resolved), outside the bundle: a
        /// bundle's executable is its own file.
        case linkOutsideBundle(target: String)
        /// The name is no file name: empty, `.`, `..`, or a path
        /// (`../../Photos`, `/tmp/x`), which would leave the executable
        /// folder.
        case notAFileName
    }

    /// The executable's name: `CFBundleExecutable`, or the bundle's name
    /// when no `Info.plist` of it gives one.
    public var executable: String
    /// `executable` is the `Info.plist`'s `CFBundleExecutable`.
    public var fromInfoPlist: Bool
    /// Where it was looked for, from the bundle folder's name on
    /// (`PhotosShare.appex/PhotosShare`,
    /// `Kit.framework/Versions/Current/Kit`).
    public var place: String
    public var reason: Reason

    public init(executable: String, fromInfoPlist: Bool, place: String, reason: Reason) {
        self.executable = executable
        self.fromInfoPlist = fromInfoPlist
        self.place = place
        self.reason = reason
    }

    /// `no executable: its Info.plist's CFBundleExecutable is 'PhotosShare',
    /// and PhotosShare.appex/PhotosShare does not exist`.
    public var description: String {
        if reason == .notAFileName {
            return "no executable: its Info.plist's CFBundleExecutable is '\(executable)', which is not a file name in the bundle"
        }
        let name =
            fromInfoPlist
            ? "its Info.plist's CFBundleExecutable is '\(executable)'"
            : "no Info.plist of it names its executable (CFBundleExecutable), so it is looked for as '\(executable)', the bundle's name"
        let what =
            switch reason {
            case .missing: "does not exist"
            case .notARegularFile: "is not a regular file"
            case .danglingLink(let target): "is a symbolic link to \(target), which does not exist"
            case .linkLoop: "is a symbolic link loop"
            case .linkOutsideBundle(let target): "is a symbolic link to \(target), outside the bundle"
            case .notAFileName: "is not a file name"
            }
        return "no executable: \(name), and \(place) \(what)"
    }
}
