import Foundation
import LinkCheckAnalysis
import LinkCheckRules
import LinkCheckSourceLines

/// Renders a ``Report`` as SARIF 2.1.0 (OASIS Static Analysis Results
/// Interchange Format, `sarif-schema-2.1.0.json`) for code-scanning
/// services: one run, `tool.driver.rules` with every rule the results cite,
/// one result per finding as a reader takes it (``FileGrouping``: a finding
/// held by several slices of a fat file is one result on the file, with
/// the slices in its properties).
public struct SARIFRenderer: ReportRenderer {
    /// Artifact URIs are made relative to this directory (the working
    /// directory by default), as code-scanning services expect.
    public var baseDirectory: String
    /// Source files under it are given relative to `SRCROOT` (the run's
    /// `originalUriBaseIds`), others by absolute `file:` URI; `nil`: every
    /// one by absolute URI.
    public var sourceRoot: SourceRoot?
    /// What a result's message says of an inlined call.
    let inlined = InlinedCallWords()

    public init(baseDirectory: String = FileManager.default.currentDirectoryPath, sourceRoot: SourceRoot? = nil) {
        self.baseDirectory = baseDirectory
        self.sourceRoot = sourceRoot
    }

    public func render(_ report: Report) -> String {
        let shown = FileGrouping(report).collapsed(report)
        let citedIDs = Array(Set(shown.findings.map(\.rule))).sorted()
        let rules = citedIDs.map { id in
            report.rules[id]
                ?? Rule(
                    id: id, api: id.rawValue, category: .reviewRisk, severity: .warning, matchers: [], message: id.rawValue, fixit: "",
                    source: "")
        }
        let ruleIndex = Dictionary(uniqueKeysWithValues: citedIDs.enumerated().map { ($1, $0) })
        let images = ImagesByName(report.images)
        let files = ImagesByName(shown.images)
        let results = shown.findings.map { finding in
            let image = files[finding.image]
            return result(
                finding, ruleIndex: ruleIndex[finding.rule] ?? 0,
                linkName: image?.qualifiedLinkName ?? finding.image, imageKey: image?.baselineKey ?? finding.image,
                file: image?.file ?? report.file(of: finding.image), inArchive: image?.identity.unpackedFrom != nil)
        }
        let usesSourceRoot = results.contains { $0.locations.contains { $0.physicalLocation.artifactLocation.uriBaseId != nil } }
        let log = Log(runs: [
            Run(
                tool: Tool(driver: Driver(rules: rules.map(ReportingDescriptor.init))),
                originalUriBaseIds: usesSourceRoot
                    ? sourceRoot.map { [Self.sourceRootID: ArtifactLocation(uri: Self.fileURI($0.path + "/"))] } : nil,
                invocations: [
                    Invocation(
                        // SARIF §3.20.14: false when the tool failed; an input it
                        // could not read (exit status 2), or read only in part, is
                        // such a failure.
                        executionSuccessful: report.complete, exitCode: Int(report.exitStatus),
                        toolExecutionNotifications: report.errors.map { error in
                            Notification(
                                level: "error", message: Message(text: error.description),
                                locations: [
                                    Location(
                                        physicalLocation: PhysicalLocation(
                                            artifactLocation: artifact(report.file(of: error.path)), region: nil))
                                ])
                        }
                            + report.partlyRead.filter { $0.kind != .transitive }.map { finding in
                                Notification(
                                    level: "error", message: Message(text: "\(finding.image) was read only in part: \(finding.message)"),
                                    locations: [
                                        Location(
                                            physicalLocation: PhysicalLocation(
                                                artifactLocation: artifact(images[finding.image]?.file ?? report.file(of: finding.image)),
                                                region: nil))
                                    ])
                            }
                            + report.notices.map { notice in
                                // What the text output prints as `linkcheck: warning: …` and `linkcheck: note: …`.
                                Notification(level: "warning", message: Message(text: notice), locations: nil)
                            }
                            + report.remarks.map { remark in
                                Notification(level: "note", message: Message(text: remark), locations: nil)
                            })
                ],
                results: results)
        ])
        return encode(log)
    }

    /// The SARIF result of `finding`: `linkName` is the image's
    /// ``ImageReport/qualifiedLinkName`` (link name, slice, member), which
    /// names it, `imageKey` its ``ImageReport/baselineKey`` (its place in
    /// its bundle or under its input, with slice and member), which the
    /// fingerprint is made of, and `file` the path of the file it is in
    /// (the `.ipa` for an image unpacked from one, `inArchive`: the logical
    /// location's fully qualified name then gives the entry,
    /// `Photos.ipa:Payload/…`, and no byte offset is given, since offsets
    /// in the entry are not offsets in the archive).
    func result(_ finding: Finding, ruleIndex: Int, linkName: String, imageKey: String, file: String, inArchive: Bool = false) -> Result {
        var logical: [LogicalLocation] = [LogicalLocation(name: linkName, fullyQualifiedName: finding.image, kind: "module")]
        let caller = finding.callSites.first
        if let caller, let function = caller.function {
            logical.append(LogicalLocation(name: caller.demangled ?? function, fullyQualifiedName: function, kind: "function"))
        }
        if let symbol = finding.symbol {
            logical.append(
                LogicalLocation(
                    name: finding.demangled ?? symbol, fullyQualifiedName: symbol,
                    kind: finding.kind == .stringLiteral ? "string" : "member"))
        }
        // A call site in the image itself (not one behind a transitive chain)
        // gives the byte offset of the call.
        let region = finding.kind == .transitive || inArchive ? nil : caller.map { Region(byteOffset: Int($0.fileOffset), byteLength: 1) }
        let binary = PhysicalLocation(artifactLocation: artifact(file), region: region)
        var location = Location(physicalLocation: binary, logicalLocations: logical)
        var related: [Location]?
        // With a source line, the result is at the source (code scanning
        // annotates only source files), the binary a related location, and
        // the message says what an inlined call was inlined into.
        var message = finding.message
        if let source = finding.sourceCallSite?.source {
            related = [Location(physicalLocation: binary, logicalLocations: nil)] + otherSourceCalls(of: finding, besides: source.location)
            location.physicalLocation = sourceLocation(source.location)
            if let inlining = inlined.words(source) { message += " (\(inlining))" }
        }
        return Result(
            ruleId: finding.rule, ruleIndex: ruleIndex, level: finding.severity.rawValue,
            message: Message(text: message),
            locations: [location],
            relatedLocations: related,
            partialFingerprints: [
                "linkcheckFinding/v2": Self.fingerprint(
                    [
                        finding.rule.rawValue, imageKey, finding.symbol ?? "", finding.chain.dropLast().joined(separator: ">"),
                        caller?.function ?? "",
                    ])
            ],
            properties: ResultProperties(
                kind: finding.kind.rawValue, category: finding.category.rawValue,
                chain: finding.chain.isEmpty ? nil : finding.chain, slices: finding.slices.isEmpty ? nil : finding.slices))
    }

    /// The image's path relative to ``baseDirectory`` (with `..` when it
    /// lies outside), percent-encoded as a URI reference.
    func artifact(_ path: String) -> ArtifactLocation {
        let target = URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: baseDirectory)).standardizedFileURL.pathComponents
        let base = URL(fileURLWithPath: baseDirectory).standardizedFileURL.pathComponents
        let common = zip(target, base).prefix { $0 == $1 }.count
        let relative = Array(repeating: "..", count: base.count - common) + target.dropFirst(common)
        let text = relative.joined(separator: "/")
        return ArtifactLocation(uri: text.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? text)
    }

    /// A source file's place: its ``sourceArtifact(_:)`` and a `region` of
    /// its line and column.
    func sourceLocation(_ position: SourcePosition) -> PhysicalLocation {
        PhysicalLocation(
            artifactLocation: sourceArtifact(position.file), region: Region(startLine: position.line, startColumn: position.column))
    }

    /// The finding's other call sites with a source, each place once, in
    /// call-site order, besides `primary` (where the result is): related
    /// locations with the calling function, so that code scanning shows
    /// every call, not only the first.
    func otherSourceCalls(of finding: Finding, besides primary: SourcePosition) -> [Location] {
        var placed: Set<SourcePosition> = [primary]
        return finding.callSites.compactMap { site in
            guard let position = site.source?.location, placed.insert(position).inserted else { return nil }
            return Location(
                physicalLocation: sourceLocation(position),
                logicalLocations: site.function.map {
                    [LogicalLocation(name: site.demangled ?? $0, fullyQualifiedName: $0, kind: "function")]
                },
                message: Message(text: "also called from \(site.label)"))
        }
    }

    /// The `uriBaseId` of source files under ``sourceRoot``.
    static let sourceRootID = "SRCROOT"

    /// A source file's location: relative to `SRCROOT` when it lies under
    /// ``sourceRoot``, else its absolute `file:` URI.
    func sourceArtifact(_ file: String) -> ArtifactLocation {
        guard let relative = sourceRoot?.relative(file) else { return ArtifactLocation(uri: Self.fileURI(file)) }
        return ArtifactLocation(
            uri: relative.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? relative, uriBaseId: Self.sourceRootID)
    }

    /// `file://` and the percent-encoded absolute `path` (a relative one
    /// only percent-encoded).
    static func fileURI(_ path: String) -> String {
        let encoded = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path
        return path.hasPrefix("/") ? "file://" + encoded : encoded
    }

    /// FNV-1a (64-bit) of the parts (rule, image key, symbol, chain,
    /// calling function) joined by NUL, as 16 hex digits: stable
    /// across runs and machines, unlike Swift's seeded `Hasher`.
    static func fingerprint(_ parts: [String]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in parts.joined(separator: "\u{0}").utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    // MARK: - The SARIF object model (the parts linkcheck writes)

    struct Log: Encodable {
        var schema = "https://json.schemastore.org/sarif-2.1.0.json"
        var version = "2.1.0"
        var runs: [Run]

        enum CodingKeys: String, CodingKey {
            case schema = "$schema"
            case version, runs
        }
    }

    struct Run: Encodable {
        var tool: Tool
        /// `SRCROOT`, when a result's source file is given relative to it.
        var originalUriBaseIds: [String: ArtifactLocation]?
        var invocations: [Invocation]
        var results: [Result]
    }

    struct Tool: Encodable {
        var driver: Driver
    }

    struct Driver: Encodable {
        var name = "linkcheck"
        var version = linkcheckVersion
        var semanticVersion = linkcheckVersion
        var rules: [ReportingDescriptor]
    }

    struct ReportingDescriptor: Encodable {
        var id: RuleID
        var name: String
        var shortDescription: Message
        var fullDescription: Message
        var help: Message
        var helpUri: String?
        var defaultConfiguration: Configuration
        var properties: RuleProperties

        init(_ rule: Rule) {
            id = rule.id
            name = rule.api
            shortDescription = Message(text: rule.api)
            fullDescription = Message(text: rule.message)
            help = Message(text: rule.fixit.isEmpty ? rule.message : rule.fixit)
            helpUri = rule.source.hasPrefix("https://") || rule.source.hasPrefix("http://") ? rule.source : nil
            defaultConfiguration = Configuration(level: rule.severity.rawValue)
            properties = RuleProperties(
                category: rule.category.rawValue, source: rule.source, pack: rule.pack,
                tags: [rule.category.rawValue], allowedIn: rule.allowedIn.isEmpty ? nil : rule.allowedIn)
        }
    }

    struct Configuration: Encodable {
        var level: String
    }

    struct RuleProperties: Encodable {
        var category, source, pack: String
        var tags: [String]
        var allowedIn: [ExtensionType]?
    }

    struct Invocation: Encodable {
        var executionSuccessful: Bool
        var exitCode: Int
        var toolExecutionNotifications: [Notification]
    }

    /// A `notification` of `toolExecutionNotifications`: an input that
    /// could not be read (an error, at its file), or a warning or note about
    /// the run (a role name that matches nothing, an `Info.plist` that
    /// cannot be read, folders passed over), which has no location.
    struct Notification: Encodable {
        var level: String
        var message: Message
        var locations: [Location]?
    }

    struct Result: Encodable {
        var ruleId: RuleID
        var ruleIndex: Int
        var level: String
        var message: Message
        var locations: [Location]
        /// The binary, when ``locations`` gives the source, then the other
        /// call sites' sources (``otherSourceCalls(of:besides:)``).
        var relatedLocations: [Location]?
        var partialFingerprints: [String: String]
        var properties: ResultProperties
    }

    struct ResultProperties: Encodable {
        var kind, category: String
        var chain: [String]?
        /// The slices of a fat file that hold the finding (``FileGrouping/FindingGroup/slices``).
        var slices: [String]?
    }

    struct Message: Encodable {
        var text: String
    }

    struct Location: Encodable {
        var physicalLocation: PhysicalLocation
        var logicalLocations: [LogicalLocation]?
        /// What a related location is (`also called from helper`).
        var message: Message?
    }

    struct PhysicalLocation: Encodable {
        var artifactLocation: ArtifactLocation
        var region: Region?
    }

    /// Either bytes of a binary or a line and column of a source file.
    struct Region: Encodable {
        /// Bytes from the beginning of the file.
        var byteOffset, byteLength: Int?
        /// From 1; no column when the debug information gives none.
        var startLine, startColumn: Int?

        init(byteOffset: Int, byteLength: Int) {
            (self.byteOffset, self.byteLength) = (byteOffset, byteLength)
        }

        init(startLine: Int, startColumn: Int?) {
            (self.startLine, self.startColumn) = (startLine, startColumn)
        }
    }

    struct ArtifactLocation: Encodable {
        var uri: String
        var uriBaseId: String?
    }

    struct LogicalLocation: Encodable {
        var name: String
        var fullyQualifiedName: String
        var kind: String
    }
}
