import Foundation
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
    public var rules: [String: Rule]
    /// When the run happened.
    public var date: Date
    /// One entry per inspected image, sorted by path.
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
    /// Information about the run (findings a baseline accepted).
    public var remarks: [String] = []

    public init(
        inputs: [String], rulePacks: [RulePackSummary], rules: [String: Rule] = [:], date: Date = Date(),
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
        images.count { $0.verdict == verdict }
    }

    /// The exit status of `linkcheck check`: 2 when an input could not be
    /// read or a file could not be inspected (as `grep` does: the rest is
    /// still checked and reported), else 1 when any finding is an error,
    /// else 0.
    public var exitStatus: Int32 {
        if !errors.isEmpty { return 2 }
        return findings.contains { $0.severity == .error } ? 1 : 0
    }

    /// What was passed over of one kind: files skipped, folders not walked,
    /// symbolic links not followed.
    public func skipped(_ kind: SkippedEntry.Kind) -> [SkippedEntry] {
        skipped.filter { $0.kind == kind }
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

/// One image as the report shows it.
public struct ImageReport: Sendable, Equatable {
    public var path: String
    public var soname: String?
    public var machine: String
    public var elfClass: ELFClass
    public var dataEncoding: ELFDataEncoding
    /// `ET_DYN`, `ET_EXEC`, …
    public var fileType: String
    public var role: Role
    /// The extension type, for extensions that were given one.
    public var extensionType: String?
    public var verdict: Verdict
    /// DT_NEEDED, in order.
    public var needed: [String]
    /// The reported images this one links (paths), in DT_NEEDED order.
    public var links: [String]
    /// The APIs this image defines (it is their provider), by rule id.
    public var provides: [String]
    public var symbolTable: SymbolTableKind
    /// Problems inspection worked around.
    public var warnings: [String]
    /// Found outside the scanned paths by following DT_NEEDED (a system
    /// library), and reported because a finding passes through it.
    public var external: Bool
    /// What the image loads at run time (`dlopen` with a literal name, and
    /// `.note.dlopen`).
    public var loads: [LoadReport] = []
    /// Whether its call sites were analysed: `analysed`, `not-needed` (no
    /// finding needs them), `unsupported-machine`, or `failed` (the file
    /// could not be read again; an `INSP001` warning says why).
    public var callSites: String = "not-needed"

    public init(
        path: String, soname: String?, machine: String, elfClass: ELFClass, dataEncoding: ELFDataEncoding,
        fileType: String, role: Role, extensionType: String?, verdict: Verdict, needed: [String], links: [String],
        provides: [String], symbolTable: SymbolTableKind, warnings: [String], external: Bool = false
    ) {
        self.path = path
        self.soname = soname
        self.machine = machine
        self.elfClass = elfClass
        self.dataEncoding = dataEncoding
        self.fileType = fileType
        self.role = role
        self.extensionType = extensionType
        self.verdict = verdict
        self.needed = needed
        self.links = links
        self.provides = provides
        self.symbolTable = symbolTable
        self.warnings = warnings
        self.external = external
    }
}

/// A library an image loads at run time.
public struct LoadReport: Sendable, Equatable {
    /// The name passed to the loader (or declared in `.note.dlopen`).
    public var name: String
    /// Where it resolves, or `nil` when not found.
    public var path: String?
    /// The loaded image's verdict, `missing` when not found, `unknown`
    /// when the code computes the name at run time.
    public var verdict: String
    /// The calling function (demangled), for a loader call.
    public var function: String?
    /// The loader call's virtual address.
    public var address: UInt64?
    /// `call` (a loader call with a literal argument) or `note` (`.note.dlopen`).
    public var source: String

    public init(name: String, path: String?, verdict: String, function: String?, address: UInt64?, source: String) {
        self.name = name
        self.path = path
        self.verdict = verdict
        self.function = function
        self.address = address
        self.source = source
    }
}
