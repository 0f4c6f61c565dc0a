import Foundation
import LinkCheckImage
import LinkCheckInspection
import LinkCheckRules

/// linkcheck's version, printed by `--version` and recorded in reports.
public let linkcheckVersion = "0.1.0"

/// Everything one `linkcheck check` run found: the report model every
/// renderer reads (none of them recomputes analysis).
public struct Report: Sendable {
    /// The paths the user gave.
    public var inputs: [String]
    /// The rule packs used, in load order.
    public var rulePacks: [RulePackSummary]
    /// Every rule the run could report, the packs' and the built-in ones,
    /// by id (renderers describe the rules they cite: SARIF's
    /// `tool.driver.rules`, the HTML report's fix-its and sources).
    public var rules: [RuleID: Rule]
    /// When the run happened.
    public var date: Date
    /// One entry per reported image, sorted by name (path, slice, member).
    public var images: [ImageReport]
    /// Sorted by ``Finding/reportOrder(_:_:)``, without those a baseline
    /// accepted.
    public var findings: [Finding]
    /// The findings a baseline (`--baseline`) accepted: not reported, not
    /// counted in verdicts or the exit status, but counted in the summary.
    public var baselined: [Finding] = []
    /// Files that could not be inspected, each with its reason.
    public var errors: [InspectionError]
    /// What was passed over: files not ELF or not regular, folders nested
    /// too deep, symbolic links leading outside the given paths.
    public var skipped: [SkippedEntry]
    /// Warnings about the run itself (a role name that matched no image, an
    /// unused suppression).
    public var notices: [String]
    /// Information about the run: what the toolchain's own code in the
    /// images calls, left out of the findings (``ToolchainCode``), and the
    /// findings a baseline accepted.
    public var remarks: [String] = []
    /// Every file the run read as an image, sorted, each once: the scanned
    /// files (those that failed too) and every library found while
    /// following dependencies and loads, reported or not, readable or not.
    /// What an output must never replace.
    public var filesRead: [String] = []
    /// The command the run was made with, so that a report can say how to
    /// reproduce it; `nil` when the run was not made from a command line.
    /// Filled by the CLI; not part of the JSON and SARIF documents.
    public var invocation: Invocation?
    /// The archives (`.ipa` files) the run unpacked, as given or found:
    /// the files of their images are named `archive:entry`.
    public var archives: [String] = []
    /// What each outermost bundle among the inputs holds (an app, its
    /// extensions and frameworks; an xcframework's libraries), in path
    /// order; empty when no image is in a bundle.
    public var bundles: [BundleSummary] = []
    /// Which checks the run made (``limited(to:)``).
    public var scope: CheckScope = .all

    public init(
        inputs: [String], rulePacks: [RulePackSummary], rules: [RuleID: Rule] = [:], date: Date = Date(),
        images: [ImageReport], findings: [Finding], errors: [InspectionError], skipped: [SkippedEntry],
        notices: [String]
    ) {
        self.inputs = inputs
        self.rulePacks = rulePacks
        self.rules = rules
        self.date = date
        self.images = images
        self.findings = findings
        self.errors = errors
        self.skipped = skipped
        self.notices = notices
    }

    /// How many findings have `severity`.
    public func count(_ severity: Severity) -> Int {
        findings.count { $0.severity == severity }
    }

    /// How many reported images have `verdict`.
    public func count(_ verdict: Verdict) -> Int {
        // By index: iterating the images would copy each one.
        images.indices.count { images[$0].verdict == verdict }
    }

    /// The exit status of `linkcheck check`: 2 when an input could not be
    /// read, a file could not be inspected or a folder was passed over for
    /// its depth (inputs not read: as `grep` does, the rest is still
    /// checked and reported), else 1 when any finding is an error or an
    /// image was read only in part (``partlyRead``, whatever the severity
    /// its role gives the finding), else 0.
    public var exitStatus: Int32 {
        if !errors.isEmpty || skipped.contains(where: { $0.kind == .folder }) { return 2 }
        return findings.contains { $0.severity == .error } || !partlyRead.isEmpty ? 1 : 0
    }

    /// Whether every input was read whole: no file failed, no folder was
    /// passed over for its depth, and no image was read only in part. What
    /// JSON's `summary.complete` and SARIF's `executionSuccessful` say.
    public var complete: Bool {
        errors.isEmpty && skipped(.folder).isEmpty && partlyRead.isEmpty
    }

    /// The findings that say an image, or a library it links, could be
    /// read only in part (`INSP001`, `LINK002`), of any severity: an
    /// app-only framework's is a warning, yet the run did not read it all.
    public var partlyRead: [Finding] {
        findings.filter { BuiltInRules.isCompleteness($0.rule) }
    }

    /// The file on disk `path` (a path as the report names files) is in:
    /// the archive for `archive:entry`, else `path` itself.
    public func file(of path: String) -> String {
        archives.first { path.hasPrefix($0 + ":") } ?? path
    }

    /// What was passed over of one kind: files skipped, folders not walked,
    /// symbolic links not followed.
    public func skipped(_ kind: SkippedEntry.Kind) -> [SkippedEntry] {
        skipped.filter { $0.kind == kind }
    }

}

/// How a run was started: the words given to `linkcheck`, in the folder it
/// ran in.
public struct Invocation: Sendable, Equatable {
    /// The arguments after the program's name, the subcommand first:
    /// `["check", "--html", "report.html", "PhotoEditor"]`.
    public var arguments: [String]
    /// The working directory, against which relative paths in `arguments`
    /// are read (an absolute path).
    public var workingDirectory: String

    public init(arguments: [String], workingDirectory: String) {
        self.arguments = arguments
        self.workingDirectory = workingDirectory
    }
}

/// A rule pack as a report names it.
public struct RulePackSummary: Sendable, Equatable {
    public var name: String
    public var version: String
    public var path: String

    public init(name: String, version: String, path: String) {
        self.name = name
        self.version = version
        self.path = path
    }
}

/// One image as the report shows it: what it is, who it is in the app,
/// and its verdict.
public struct ImageReport: Sendable, Equatable {
    /// The image as its reader made it: its identity, format,
    /// architecture, platform, file type, declared name, dependencies,
    /// search paths, the format's own facts and the problems inspection
    /// worked around. For a fat file as one image
    /// (``FileGrouping/File/image``): its lead slice's, with the file's
    /// identity.
    public var binary: BinaryImage
    public var role: Role
    /// The extension type, for extensions that were given one.
    public var extensionType: ExtensionType?
    public var verdict: Verdict
    /// The reported images this one links (names), in dependency order.
    public var links: [String]
    /// The extensions and containing apps that link or load this image,
    /// directly or not (names, sorted); an extension or app lists itself.
    /// Empty for a framework that no extension or app links or loads (every
    /// framework, when no image is either). Reports use it to show whom a
    /// finding affects and to set apart what only the app runs.
    public var reachedBy: [String] = []
    /// For an image that stands for a fat file
    /// (``FileGrouping/collapsed(_:)``): its slices' architectures, sorted;
    /// empty otherwise.
    public var slices: [String] = []
    /// The APIs this image defines (it is their provider), by rule id.
    public var provides: [RuleID]
    /// Found outside the scanned paths by following a dependency (a system
    /// library, a framework beside a product), and reported because a
    /// finding passes through it.
    public var external: Bool
    /// What the image loads at run time (`dlopen` with a literal name, and
    /// `.note.dlopen`).
    public var loads: [LoadReport] = []
    /// Whether its call sites were analysed.
    public var callSites: CallSiteStatus = .notNeeded
    /// For a Mach-O framework that has to be extension-safe: the linker's
    /// flag against the code's evidence (``ExtensionSafeFlag``).
    public var extensionSafeFlag: ExtensionSafeFlag?
    /// Where the image's file sits in the bundles around it, when it is in
    /// one: the outermost bundle (``BundlePlacement/outermost``, the app or
    /// the xcframework, whose ``BundleFolder/displayPath`` groups images
    /// for a reader), the bundle whose file it is (``BundlePlacement/innermost``:
    /// the extension, the framework), its path inside the outermost one
    /// (``BundlePlacement/place``), the role the bundle gives it, and the
    /// xcframework library it is in; `nil` outside bundles.
    public var bundle: BundlePlacement?
    /// How a baseline names the image
    /// (``Baseline/imageKey(of:placement:inputs:external:)``:
    /// `Photos.app/PlugIns/PhotosShare.appex/PhotosShare`); its name until
    /// the analysis sets it.
    public var baselineKey: String

    public init(
        image: BinaryImage, role: AssignedRole, verdict: Verdict, links: [String], provides: [RuleID], external: Bool
    ) {
        binary = image
        self.role = role.role
        extensionType = role.extensionType
        self.verdict = verdict
        self.links = links
        self.provides = provides
        self.external = external
        baselineKey = image.name
    }

    /// The image's name in reports: its path, with the slice and member
    /// when there are several in the file (``ImageIdentity/description``).
    public var name: String { binary.name }

    /// Which file, slice and member the image is.
    public var identity: ImageIdentity { binary.identity }

    /// The name chains show (``BinaryImage/shortName``).
    public var shortName: String { binary.shortName }

    /// The file the image is in, as reports name it
    /// (``ImageIdentity/displayPath``: `Photos.ipa:Payload/Photos.app/Photos`
    /// for a file of an archive).
    public var path: String { identity.displayPath }

    /// The file on disk that holds the image, as given or found: the
    /// archive (`Photos.ipa`) for a file unpacked from one, else the file
    /// itself. What SARIF's artifact locations point at.
    public var file: String { identity.unpackedFrom?.archive ?? identity.path }

    /// The image for people: its file name, with the slice and member
    /// (`SVProgressHUD[arm64]`).
    public var displayName: String {
        // What follows the last `/`, found among the UTF-8 bytes: splitting
        // the path into characters cost ~20,000 instructions an image.
        let file = path.utf8.lastIndex(of: UInt8(ascii: "/")).map { String(path[path.utf8.index(after: $0)...]) } ?? path
        return ImageIdentity(path: file, slice: identity.slice, member: identity.member).description
    }

    /// The link name with the slice of a fat file and the member of an
    /// archive (`@rpath/Kit.framework/Kit[arm64]`), so two slices never
    /// share it: what SARIF's fingerprints name the image by.
    public var qualifiedLinkName: String {
        ImageIdentity(path: binary.linkName, slice: identity.slice, member: identity.member).description
    }
}

/// Whether an image's call sites were analysed.
public enum CallSiteStatus: String, Sendable, Codable {
    case analysed
    /// No finding needs them.
    case notNeeded = "not-needed"
    /// Call sites are not analysed for the image's architecture or format.
    case unsupported = "unsupported-machine"
    /// The file could not be read again; an `INSP001` says why.
    case failed
}

/// A library an image loads at run time.
public struct LoadReport: Sendable, Equatable {
    /// The name passed to the loader (or declared in `.note.dlopen`).
    public var name: String
    /// The loaded image's name, or `nil` when not found.
    public var image: String?
    public var verdict: LoadVerdict
    /// The calling function (demangled), for a loader call.
    public var function: String?
    /// The loader call's virtual address.
    public var address: UInt64?
    public var source: LoadSource

    public init(name: String, image: String?, verdict: LoadVerdict, function: String?, address: UInt64?, source: LoadSource) {
        self.name = name
        self.image = image
        self.verdict = verdict
        self.function = function
        self.address = address
        self.source = source
    }
}

/// What is known of a library an image loads.
public enum LoadVerdict: String, Sendable, Codable {
    /// Found, and it uses an API unavailable in extensions.
    case unsafe
    /// Found, and extension-safe.
    case extensionSafe = "extension-safe"
    /// The name is known but not found where the loader would look.
    case missing
    /// The code computes the name at run time.
    case unknown
}
