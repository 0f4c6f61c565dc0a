import Foundation
import LinkCheckAnalysis
import LinkCheckImage
import LinkCheckInspection
import LinkCheckRules
import LinkCheckSourceLines

/// The `--format json` document of `linkcheck check`, schema version 2
/// (described in `Documentation/check-report.schema.json`). Keys are sorted,
/// so output is byte-for-byte deterministic.
public struct CheckJSON: ReportRenderer {
    public static let schemaVersion = 2

    public init() {}

    /// Encodes `report` with Foundation's `JSONEncoder` (sorted keys, pretty
    /// printed, `/` not escaped).
    public func render(_ report: Report) -> String {
        encode(Document(report))
    }

    struct Document: Encodable {
        var schemaVersion = CheckJSON.schemaVersion
        var tool = Tool()
        var inputs: [String]
        var rulePacks: [Pack]
        var summary: Summary
        var images: [Image]
        var files: [FileEntry]
        var findings: [FindingEntry]
        var errors: [FileError]
        var skipped: [Skipped]
        var notices: [String]
        var remarks: [String]
        var bundles: [BundleEntry]
        /// `bundle` for a run of the bundle checks alone (`--only
        /// bundle`): its verdicts are not an answer on APIs; absent
        /// otherwise.
        var scope: String?
        var graph: GraphJSON.Document

        init(_ report: Report) {
            inputs = report.inputs
            rulePacks = report.rulePacks.map { Pack(name: $0.name, version: $0.version, path: $0.path) }
            summary = Summary(
                images: report.images.count, errors: report.count(.error), warnings: report.count(.warning),
                notes: report.count(.note), skipped: report.skipped(.file).count, failed: report.errors.count,
                foldersPassedOver: report.skipped(.folder).count, linksNotFollowed: report.skipped(.link).count,
                incomplete: report.count(.incomplete), needsReview: report.count(.needsReview), baselined: report.baselined.count,
                complete: report.complete, exitStatus: Int(report.exitStatus))
            images = report.images.map { Image(first: BinaryImageJSON($0.binary), second: ImageEntry($0)) }
            let grouping = FileGrouping(report)
            files = grouping.files.filter { !$0.architectures.isEmpty }.map(FileEntry.init)
            let lines = FindingLine(report)
            let demangler = lines.inlined.demangler
            findings = report.findings.enumerated().map { index, finding in
                FindingEntry(finding, group: grouping.group(ofFindingAt: index), text: lines.text(finding), demangler: demangler)
            }
            errors = report.errors.map { FileError(path: $0.path, message: TextRenderer.reason($0)) }
            skipped = report.skipped.map { Skipped(path: $0.path, reason: $0.reason, kind: $0.kind.rawValue) }
            notices = report.notices
            remarks = report.remarks
            bundles = report.bundles.map(BundleEntry.init)
            scope = report.scope == .all ? nil : report.scope.rawValue
            graph = GraphJSON.Document(ReportGraph(report))
        }
    }

    /// A fat file, one image to a reader (``FileGrouping/File``): its
    /// slices (images) and the file's verdict.
    struct FileEntry: Encodable {
        var name, verdict, role: String
        var slices: [String]
        var images: [String]

        init(_ file: FileGrouping.File) {
            name = file.name
            verdict = file.image.verdict.rawValue
            role = file.image.role.rawValue
            slices = file.architectures
            images = file.slices.map(\.name)
        }
    }

    /// What one outermost bundle holds (``BundleSummary``).
    struct BundleEntry: Encodable {
        var path, kind, summary: String
        var apps, frameworks, staticFrameworks: Int
        var extensions: [ExtensionEntry]
        var libraries: [XCFrameworkLibrary]

        init(_ summary: BundleSummary) {
            path = summary.bundle.displayPath
            kind = summary.bundle.kind.rawValue
            self.summary = summary.line
            apps = summary.apps
            frameworks = summary.frameworks
            staticFrameworks = summary.staticFrameworks
            extensions = summary.extensions.map { ExtensionEntry(name: $0.name, type: $0.type, extensionPoint: $0.extensionPoint) }
            libraries = summary.libraries
        }
    }

    struct ExtensionEntry: Encodable {
        var name: String
        var type: ExtensionType?
        var extensionPoint: String?
    }

    /// Where an image sits in its bundles (``BundlePlacement``).
    struct PlacementEntry: Encodable {
        var outermost, outermostKind, place, bundle, kind, layout: String
        var isExecutable: Bool
        var role: String?
        var extensionType: ExtensionType?
        var info: InfoPlist?
        var library: XCFrameworkLibrary?

        init(_ placement: BundlePlacement) {
            outermost = placement.outermost.displayPath
            outermostKind = placement.outermost.kind.rawValue
            place = placement.place
            bundle = placement.innermost.displayPath
            kind = placement.innermost.kind.rawValue
            layout = placement.innermost.layout.rawValue
            isExecutable = placement.isExecutable
            role =
                switch placement.role {
                case .app: "app"
                case .appExtension: "extension"
                case .framework: "framework"
                case nil: nil
                }
            extensionType = placement.extensionType
            info = placement.innermost.info
            library = placement.library
        }
    }

    struct Tool: Encodable {
        var name = "linkcheck"
        var version = linkcheckVersion
    }

    struct Pack: Encodable {
        var name, version, path: String
    }

    struct Summary: Encodable {
        var images, errors, warnings, notes, skipped, failed, foldersPassedOver, linksNotFollowed, incomplete, needsReview, baselined: Int
        /// ``Report/complete``: every input read whole.
        var complete: Bool
        var exitStatus: Int
    }

    /// An image: the keys ``BinaryImageJSON`` gives, then what the check
    /// says of it (``ImageEntry``).
    typealias Image = MergedJSON<BinaryImageJSON, ImageEntry>

    /// What the check says of an image: its name, slice and member, its
    /// bundle, role, verdict, links, loads and call sites; for a Mach-O
    /// image the linker's flag against the evidence and its `encrypted`,
    /// `codeSigned` and `fixups`.
    struct ImageEntry: Encodable {
        /// The image's name in findings and the graph, when it is not the
        /// path alone (a slice or a member).
        var name: String?
        var slice: String?
        var member: String?
        var bundle: PlacementEntry?
        var role: String
        var extensionType: ExtensionType?
        var verdict: String
        var links: [String]
        var provides: [RuleID]
        var external: Bool
        var loads: [Load]
        var callSites: String
        /// For a slice of a fat file: the file (``ImageIdentity/file``).
        var file: String?
        // Mach-O
        var encrypted: Bool?
        var codeSigned: Bool?
        var fixups: String?
        var extensionSafeFlag: String?

        init(_ image: ImageReport) {
            name = image.name == image.path ? nil : image.name
            slice = image.identity.slice
            member = image.identity.member
            bundle = image.bundle.map(PlacementEntry.init)
            role = image.role.rawValue
            extensionType = image.extensionType
            verdict = image.verdict.rawValue
            links = image.links
            provides = image.provides
            external = image.external
            loads = image.loads.map(Load.init)
            callSites = image.callSites.rawValue
            file = image.identity.slice == nil ? nil : image.identity.file.description
            if case .macho(let facts) = image.binary.facts {
                encrypted = facts.encrypted
                codeSigned = facts.codeSigned
                fixups = facts.fixups.rawValue
                extensionSafeFlag = image.extensionSafeFlag?.rawValue
            }
        }
    }

    struct Load: Encodable {
        var name, verdict, source: String
        var path, function, address: String?

        init(_ load: LoadReport) {
            name = load.name
            verdict = load.verdict.rawValue
            source = load.source.rawValue
            path = load.image
            function = load.function
            address = load.address.map(hex)
        }
    }

    struct CallSiteEntry: Encodable {
        var function, demangled: String?
        var address: String
        var fileOffset: UInt64
        var source: SourceEntry?

        init(_ site: FindingCallSite, demangler: Demangler) {
            function = site.function
            demangled = site.demangled
            address = hex(site.address)
            fileOffset = site.fileOffset
            source = site.source.map { SourceEntry($0, demangler: demangler) }
        }
    }

    /// Where a call was written (``AddressSource``): its file, line and
    /// column; when its code was inlined, the inlined function and the
    /// functions it was inlined into, innermost first, each function as
    /// the debug information names it and, as for callers, demangled when
    /// that differs.
    struct SourceEntry: Encodable {
        var file: String
        var line: Int
        var column: Int?
        var function, demangled: String?
        var inlinedInto: [InlinedCallEntry]?

        init(_ source: AddressSource, demangler: Demangler) {
            (file, line, column) = (source.location.file, source.location.line, source.location.column)
            if !source.inlinedInto.isEmpty {
                function = source.function
                demangled = source.function.flatMap { demangler.any($0) }
                inlinedInto = source.inlinedInto.map { InlinedCallEntry($0, demangler: demangler) }
            }
        }
    }

    /// A function code was inlined into, and where it calls the inlined
    /// function (``AddressSource/InlinedCall``).
    struct InlinedCallEntry: Encodable {
        var function, demangled, file: String?
        var line, column: Int?

        init(_ call: AddressSource.InlinedCall, demangler: Demangler) {
            function = call.function
            demangled = call.function.flatMap { demangler.any($0) }
            (file, line, column) = (call.location?.file, call.location?.line, call.location?.column)
        }
    }

    /// Where reports place a finding in the source (``Finding/sourceCallSite``:
    /// the text output's `FILE:LINE:COLUMN`, SARIF's location), the file as
    /// the debug information names it.
    struct SourceLocationEntry: Encodable {
        var file: String
        var line: Int
        var column: Int?
    }

    struct FindingEntry: Encodable {
        var rule: RuleID
        var severity, category, kind, image, message: String
        /// The finding as the text output's line gives it after the
        /// severity (``FindingLine/text(_:)``).
        var text: String
        var symbol, demangled, fixit, source: String?
        /// For a finding on a slice of a fat file: the file, and the slices
        /// the same finding (rule, kind, symbol, chain) holds in, which
        /// reports show as one (``FileGrouping/FindingGroup``); no slices
        /// for a finding about the whole file.
        var file: String?
        var slices: [String]?
        var chain: [String]?
        var callSites: [CallSiteEntry]?
        var sourceLocation: SourceLocationEntry?
        var path: [String]?
        var byName: ByNameEntry?

        /// `finding`, in `group` (the slices of a fat file that hold it),
        /// with its line's `text`; `demangler` names the functions of
        /// inlined calls.
        init(_ finding: Finding, group: FileGrouping.FindingGroup, text: String, demangler: Demangler) {
            self.text = text
            if group.file != finding.image {
                file = group.file
                slices = group.slices.isEmpty ? nil : group.slices
            }
            rule = finding.rule
            severity = finding.severity.rawValue
            category = finding.category.rawValue
            kind = finding.kind.rawValue
            image = finding.image
            message = finding.message
            symbol = finding.symbol
            demangled = finding.demangled
            fixit = finding.fixit
            source = finding.source
            chain = finding.chain.isEmpty ? nil : finding.chain
            callSites = finding.callSites.isEmpty ? nil : finding.callSites.map { CallSiteEntry($0, demangler: demangler) }
            sourceLocation = finding.sourceCallSite?.source.map { source in
                SourceLocationEntry(file: source.location.file, line: source.location.line, column: source.location.column)
            }
            path = finding.path.isEmpty ? nil : finding.path
            byName = finding.byName.map(ByNameEntry.init)
        }
    }

    /// A use by name (``ByNameUse``) and the checks that guard it.
    struct ByNameEntry: Encodable {
        var guards: [GuardEntry]

        init(_ use: ByNameUse) {
            guards = use.guards.map { GuardEntry(kind: $0.kind.rawValue, function: $0.function) }
        }
    }

    struct GuardEntry: Encodable {
        var kind: String
        var function: String?
    }

    struct FileError: Encodable {
        var path, message: String
    }

    struct Skipped: Encodable {
        var path, reason, kind: String
    }
}

/// Encodes `value` as pretty-printed JSON with sorted keys and a final
/// newline.
func encode<T: Encodable>(_ value: T) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    // Every value is a plain struct of strings, numbers and arrays:
    // encoding cannot fail.
    let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
    return String(decoding: data, as: UTF8.self) + "\n"
}

/// `0x1f04`: a virtual address as JSON text (JSON numbers lose precision
/// past 2^53).
func hex(_ address: UInt64) -> String {
    "0x" + String(address, radix: 16)
}
