import Foundation
import LinkCheckAnalysis
import LinkCheckImage
import LinkCheckInspection

/// The `--format json` document of `linkcheck check`, schema version 2
/// (described in `Documentation/check-report.schema.json`). Keys are sorted,
/// so output is byte-for-byte deterministic.
public enum CheckJSON {
    public static let schemaVersion = 2

    /// Encodes `report` with Foundation's `JSONEncoder` (sorted keys, pretty
    /// printed, `/` not escaped).
    public static func render(_ report: Report) -> String {
        encode(Document(report))
    }

    /// Just the `graph` member: nodes and DT_NEEDED/dlopen edges.
    public static func renderGraph(_ report: Report) -> String {
        encode(Graph(report))
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
        var graph: Graph

        init(_ report: Report) {
            inputs = report.inputs
            rulePacks = report.rulePacks.map { Pack(name: $0.name, version: $0.version, path: $0.path) }
            summary = Summary(
                images: report.images.count, errors: report.count(.error), warnings: report.count(.warning),
                notes: report.count(.note), skipped: report.skipped(.file).count, failed: report.errors.count,
                foldersPassedOver: report.skipped(.folder).count, linksNotFollowed: report.skipped(.link).count,
                incomplete: report.count(.incomplete), needsReview: report.count(.needsReview), baselined: report.baselined.count,
                complete: report.complete, exitStatus: Int(report.exitStatus))
            images = report.images.map(Image.init)
            let grouping = FileGrouping(report)
            files = grouping.files.filter { !$0.architectures.isEmpty }.map(FileEntry.init)
            let lines = FindingLine(report)
            findings = report.findings.enumerated().map { index, finding in
                var entry = FindingEntry(finding, text: lines.text(finding))
                let group = grouping.group(ofFindingAt: index)
                if group.file != finding.image {
                    entry.file = group.file
                    entry.slices = group.slices.isEmpty ? nil : group.slices
                }
                return entry
            }
            errors = report.errors.map { FileError(path: $0.path, message: TextRenderer.reason($0)) }
            skipped = report.skipped.map { Skipped(path: $0.path, reason: $0.reason, kind: $0.kind.rawValue) }
            notices = report.notices
            remarks = report.remarks
            bundles = report.bundles.map(BundleEntry.init)
            graph = Graph(report)
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
        var libraries: [LibraryEntry]

        init(_ summary: BundleSummary) {
            path = summary.bundle.displayPath
            kind = summary.bundle.kind.rawValue
            self.summary = summary.line
            apps = summary.apps
            frameworks = summary.frameworks
            staticFrameworks = summary.staticFrameworks
            extensions = summary.extensions.map { ExtensionEntry(name: $0.name, type: $0.type, extensionPoint: $0.extensionPoint) }
            libraries = summary.libraries.map(LibraryEntry.init)
        }
    }

    struct ExtensionEntry: Encodable {
        var name: String
        var type, extensionPoint: String?
    }

    /// An xcframework library (``XCFrameworkLibrary``).
    struct LibraryEntry: Encodable {
        var identifier, platform: String
        var variant, libraryPath: String?
        var architectures: [String]

        init(_ library: XCFrameworkLibrary) {
            identifier = library.identifier
            platform = library.platform
            variant = library.variant
            libraryPath = library.libraryPath
            architectures = library.architectures
        }
    }

    /// Where an image sits in its bundles (``BundlePlacement``).
    struct PlacementEntry: Encodable {
        var outermost, outermostKind, place, bundle, kind, layout: String
        var isExecutable: Bool
        var role, extensionType: String?
        var info: InfoEntry?
        var library: LibraryEntry?

        init(_ placement: BundlePlacement) {
            outermost = placement.outermost.displayPath
            outermostKind = placement.outermost.kind.rawValue
            place = placement.place
            bundle = placement.innermost.displayPath
            kind = placement.innermost.kind.rawValue
            layout = placement.innermost.layout.rawValue
            isExecutable = placement.isExecutable
            role = switch placement.role {
            case .app: "app"
            case .appExtension: "extension"
            case .framework: "framework"
            case nil: nil
            }
            extensionType = placement.extensionType
            info = placement.innermost.info.map(InfoEntry.init)
            library = placement.library.map(LibraryEntry.init)
        }
    }

    /// What a bundle's `Info.plist` says (``InfoPlist``).
    struct InfoEntry: Encodable {
        var path: String
        var executable, identifier, packageType, version, extensionPoint, minimumOS: String?

        init(_ info: InfoPlist) {
            path = info.path
            executable = info.executable
            identifier = info.identifier
            packageType = info.packageType
            version = info.version
            extensionPoint = info.extensionPoint
            minimumOS = info.minimumOS
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

    /// An image: the same keys for both formats, then each format's own
    /// (ELF: `soname`, `symbolTable`; Mach-O: `installName`, `platform`,
    /// `minOS`, `sdk`, `rpaths`, `appExtensionSafe`, …).
    struct Image: Encodable {
        var path: String
        /// The image's name in findings and the graph, when it is not the
        /// path alone (a slice or a member).
        var name: String?
        var slice: String?
        var member: String?
        /// For a file unpacked from an archive: the archive and the entry.
        var archive: String?
        var entry: String?
        var bundle: PlacementEntry?
        var format: String
        var machine: String
        var `class`: Int
        var data: String
        var type: String
        var role: String
        var extensionType: String?
        var verdict: String
        var needed: [String]
        var dependencies: [DependencyEntry]?
        var links: [String]
        var provides: [String]
        var warnings: [String]
        var external: Bool
        var loads: [Load]
        var callSites: String
        /// For a slice of a fat file: the file (``ImageIdentity/file``).
        var file: String?
        // ELF
        var soname: String?
        var symbolTable: String?
        // Mach-O
        var installName: String?
        var platform: String?
        var minOS: String?
        var sdk: String?
        var rpaths: [String]?
        var appExtensionSafe: Bool?
        var encrypted: Bool?
        var codeSigned: Bool?
        var fixups: String?
        var extensionSafeFlag: String?

        init(_ image: ImageReport) {
            path = image.path
            name = image.name == image.path ? nil : image.name
            slice = image.identity.slice
            member = image.identity.member
            archive = image.identity.unpackedFrom?.archive
            entry = image.identity.unpackedFrom?.entry
            bundle = image.bundle.map(PlacementEntry.init)
            format = image.format.rawValue
            machine = image.architecture.name
            `class` = image.architecture.is64Bit ? 64 : 32
            data = image.architecture.byteOrder.rawValue
            type = image.facts.fileTypeName
            role = image.role.rawValue
            extensionType = image.extensionType
            verdict = image.verdict.rawValue
            needed = image.dependencies.map(\.name)
            links = image.links
            provides = image.provides
            warnings = image.warnings
            external = image.external
            loads = image.loads.map(Load.init)
            callSites = image.callSites.rawValue
            file = image.identity.slice == nil ? nil : image.identity.file.description
            switch image.facts {
            case .elf(let facts):
                soname = image.declaredName
                symbolTable = facts.symbolTable.rawValue
            case .macho(let facts):
                installName = image.declaredName
                dependencies = image.dependencies.map { DependencyEntry(name: $0.name, kind: $0.kind.rawValue) }
                platform = image.platform?.platform.rawValue
                minOS = image.platform?.minimumOS
                sdk = image.platform?.sdk
                rpaths = image.searchPaths.map(\.path)
                appExtensionSafe = facts.appExtensionSafe
                encrypted = facts.encrypted
                codeSigned = facts.codeSigned
                fixups = facts.fixups.rawValue
                extensionSafeFlag = image.extensionSafeFlag?.rawValue
            }
        }
    }

    struct DependencyEntry: Encodable {
        var name, kind: String
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

        init(_ site: FindingCallSite) {
            function = site.function
            demangled = site.demangled
            address = hex(site.address)
            fileOffset = site.fileOffset
        }
    }

    /// The link graph: a node per image, an edge per resolved DT_NEEDED
    /// (`needed`) and per library loaded at run time (`dlopen`).
    struct Graph: Encodable {
        struct Node: Encodable {
            var id, verdict, role: String
            /// The outermost bundle the image is in.
            var bundle: String?
        }

        struct Edge: Encodable {
            var from, to, kind: String
        }

        var nodes: [Node]
        var edges: [Edge]

        init(_ report: Report) {
            nodes = report.images.map {
                Node(id: $0.name, verdict: $0.verdict.rawValue, role: $0.role.rawValue, bundle: $0.bundle?.outermost.displayPath)
            }
            let reported = Set(report.images.map(\.name))
            edges = report.images.flatMap { image in
                image.links.map { Edge(from: image.name, to: $0, kind: "needed") }
                    + image.loads.compactMap { load in
                        load.image.flatMap { reported.contains($0) ? Edge(from: image.name, to: $0, kind: "dlopen") : nil }
                    }
            }
        }
    }

    struct FindingEntry: Encodable {
        var rule, severity, category, kind, image, message: String
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
        var path: [String]?
        var byName: ByNameEntry?

        init(_ finding: Finding, text: String) {
            self.text = text
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
            callSites = finding.callSites.isEmpty ? nil : finding.callSites.map(CallSiteEntry.init)
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
