import LinkCheckImage
import LinkCheckInspection

/// The slices of fat Mach-O files inside an app that no process of the app
/// can load: dyld takes the slice of the process's architecture and
/// platform, and some slices match no process the app can have.
///
/// - a simulator slice in a device app: one whose `LC_BUILD_VERSION`
///   platform is a simulator, or an `i386`/`x86_64` slice of a file for
///   iOS, tvOS, watchOS or visionOS (older builds mark their simulator
///   slices with the device's `LC_VERSION_MIN_*`; no device of those
///   platforms is Intel);
/// - a 32-bit slice (`armv7`, `armv7s`, `i386`) in an iOS app whose
///   minimum OS (`MinimumOSVersion` in the app's `Info.plist`, else the
///   `minos` of its executable's `LC_BUILD_VERSION`) is 11 or later: no
///   32-bit device runs iOS 11.
///
/// A device app is one whose executable (the `.app`'s, found among the
/// images) has a slice that is not for the simulator. Such slices are not
/// checked as code an extension runs: their findings are notes, they take
/// no part in the file's verdict, and one note per file names them
/// (`ARCH004`). Thin files and files outside apps are left alone: a thin
/// file of the wrong kind is a link mismatch (`ARCH003`).
struct UnloadableSlices: Sendable {
    /// Why no process of the app loads a slice.
    enum Reason: Sendable, Equatable {
        /// A simulator slice in a device app.
        case simulator
        /// A 32-bit slice in an app whose minimum OS runs only on 64-bit
        /// devices.
        case thirtyTwoBit
    }

    /// The app a slice is in: its platform, and its minimum OS when known.
    struct App: Sendable, Equatable {
        var platform: Platform
        var minimumOS: String?
    }

    /// Why image `i` is not loaded, by index; absent for every image a
    /// process of its app may load.
    let reasons: [Int: Reason]
    /// The app of each image in ``reasons``.
    let apps: [Int: App]

    init(images: [BinaryImage], bundles: BundleLayout) {
        var reasons: [Int: Reason] = [:]
        var apps: [Int: App] = [:]
        let placements = images.map { bundles.placement(ofFile: $0.path) }
        // The app's executables, by the app's folder.
        var executables: [String: [Int]] = [:]
        for (index, placement) in placements.enumerated() {
            guard let placement, placement.isExecutable, placement.innermost.kind == .app else { continue }
            executables[placement.innermost.path, default: []].append(index)
        }
        for (index, image) in images.enumerated() where image.identity.slice != nil && image.format == .macho {
            guard let folder = placements[index]?.containingApp, let executable = executables[folder.path],
                let device = executable.first(where: { !Self.isSimulatorSlice(images[$0]) }),
                let platform = images[device].platform?.platform
            else { continue }
            let app = App(platform: platform, minimumOS: folder.info?.minimumOS ?? images[device].platform?.minimumOS)
            if Self.isSimulatorSlice(image) {
                reasons[index] = .simulator
            } else if platform == .iOS, !image.architecture.is64Bit, let minimum = app.minimumOS,
                let major = Int(minimum.prefix { $0 != "." }), major >= 11
            {
                reasons[index] = .thirtyTwoBit
            } else {
                continue
            }
            apps[index] = app
        }
        self.reasons = reasons
        self.apps = apps
    }

    /// Whether no process of its app loads image `index`.
    func contains(_ index: Int) -> Bool { reasons[index] != nil }

    /// `finding` as it stands on image `index`: on a slice no process of
    /// the app loads, a note (a completeness finding, `INSP001` or
    /// `LINK002`, a warning: what could not be read is still said); a
    /// finding about the whole file (``Finding/aboutFile``: no 64-bit
    /// slice) keeps its severity.
    func capped(_ finding: Finding, on index: Int?) -> Finding {
        guard let index, contains(index), !finding.aboutFile else { return finding }
        var capped = finding
        capped.severity = min(finding.severity, BuiltInRules.isCompleteness(finding.rule) ? .warning : .note)
        return capped
    }

    /// Whether `image` is built for a simulator: its platform is one, or it
    /// is an Intel slice for a platform whose devices are all ARM.
    static func isSimulatorSlice(_ image: BinaryImage) -> Bool {
        guard let platform = image.platform?.platform else { return false }
        if platform.isSimulator { return true }
        return [.iOS, .tvOS, .watchOS, .visionOS].contains(platform) && ["i386", "x86_64", "x86_64h"].contains(image.architecture.name)
    }

    /// The note on one file whose slices `indices` (the file's unloadable
    /// ones) no process of the app loads: those for the simulator, those
    /// 32-bit, and the app; `nil` when `indices` holds none of them.
    func note(_ indices: [Int], images: [BinaryImage]) -> FindingDetail? {
        let names = { (reason: Reason) in
            indices.filter { self.reasons[$0] == reason }.map { images[$0].architecture.name }.sorted()
        }
        guard let app = indices.first.flatMap({ apps[$0] }) else { return nil }
        return .slicesNotLoaded(
            simulator: names(.simulator), thirtyTwoBit: names(.thirtyTwoBit), platform: app.platform, minimumOS: app.minimumOS)
    }
}
