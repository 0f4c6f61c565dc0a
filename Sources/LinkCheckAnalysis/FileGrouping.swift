import LinkCheckImage
import LinkCheckRules

/// The report as a reader takes it: a fat Mach-O file is one image, however
/// many slices it has (``ImageIdentity/file``). Its slices stay separate
/// images in the analysis and in the JSON document; the text, the HTML
/// report and the graph read them through this grouping: one verdict and
/// one node per file, one line per finding with the slices that hold it.
public struct FileGrouping: Sendable {
    /// One reported file: a thin file's image, or the slices of a fat one.
    public struct File: Sendable, Equatable {
        /// The file as one image: its lead slice's report (the first, in
        /// slice order, that a process of the app may load) named after the
        /// file, with the file's verdict, everyone who reaches one of its
        /// slices and the files its slices link and load. A thin file's
        /// image with the files it links and loads and is reached by.
        public var image: ImageReport
        /// The slices' reports, in slice order (the image alone for a thin
        /// file).
        public var slices: [ImageReport]
        /// The slices' architectures, sorted (`arm64`, `armv7`, `i386`,
        /// `x86_64`); empty for a thin file.
        public var architectures: [String]

        /// The file's name (``ImageReport/name`` without a slice).
        public var name: String { image.name }
    }

    /// One finding as a reader takes it: the same rule, kind, symbol and
    /// chain found in one or more slices of a file.
    public struct FindingGroup: Sendable, Equatable {
        /// The finding in each slice that has it, in slice order; each
        /// keeps its own call sites and message.
        public var findings: [Finding]
        /// The file's name (``File/name``).
        public var file: String
        /// The architectures of the slices that hold it, sorted; empty for a
        /// thin file, and for a finding about the whole file
        /// (``Finding/aboutFile``), whose message names the slices.
        public var slices: [String]
        /// The finding to show: the most severe, the first in slice order
        /// among those.
        public var lead: Finding {
            let top = findings.map(\.severity).max()
            return findings.first { $0.severity == top } ?? findings[0]
        }
        /// The lead's severity: the highest of the slices'.
        public var severity: Severity { lead.severity }
        /// `PATH (arm64, armv7)`, or the path alone: where a line puts it.
        public var place: String { FileGrouping.place(file, slices: slices) }
    }

    /// The reported files, in the report's image order.
    public var files: [File]
    /// The report's findings grouped across slices, in report order by file.
    public var findings: [FindingGroup]
    /// The file of each image, by image name (``ImageReport/name``).
    public var fileOfImage: [String: String]
    /// `groupOfFinding[i]`: the index in ``findings`` of the group of the
    /// report's finding `i`.
    private var groupOfFinding: [Int] = []

    /// What makes findings one: the file, rule, kind, symbol and chain
    /// (its images taken as files), whatever the slice; and which of the
    /// image's findings with these it is (the second `INSP001` of one slice
    /// goes with the second of another, never with the first of its own).
    private struct Key: Hashable {
        var file: String
        var rule: RuleID
        var kind, symbol: String
        var chain, chainFiles: [String]
        var ordinal = 0
    }

    public init(_ report: Report) {
        let images = report.images
        // Each file's images, as indices in the report, the files in the
        // order of their first image.
        var order: [ImageIdentity] = []
        var positionOfFile = [ImageIdentity: Int](minimumCapacity: images.count)
        var imagesOfFile: [[Int]] = []
        var fileOfImage = [String: String](minimumCapacity: images.count)
        // The architecture of each image that is a slice, by name.
        var slicesOfImage: [String: String] = [:]
        for index in images.indices {
            let (name, identity) = (images[index].name, images[index].identity)
            let file = identity.file
            if let position = positionOfFile[file] {
                imagesOfFile[position].append(index)
            } else {
                positionOfFile[file] = order.count
                order.append(file)
                imagesOfFile.append([index])
            }
            fileOfImage[name] = file.description
            if let slice = identity.slice, slicesOfImage[name] == nil { slicesOfImage[name] = slice }
        }
        self.fileOfImage = fileOfImage
        let fileName = { (name: String) in fileOfImage[name] ?? name }
        files = zip(order, imagesOfFile).map { identity, indices in
            // The slices as indices in the report, in slice order: read by
            // index, an image is not copied.
            let members = indices.sorted { images[$0].identity < images[$1].identity }
            let slices = members.map { images[$0] }
            var image = images[members.first { images[$0].verdict != .notLoaded } ?? members[0]]
            // What it links, loads and is reached by, as files.
            image.reachedBy = Set(members.flatMap { images[$0].reachedBy }.map(fileName)).sorted()
            image.links = Self.unique(members.flatMap { images[$0].links }.map(fileName))
            image.loads = Self.unique(
                members.flatMap { images[$0].loads }.map { load in
                    var load = load
                    load.image = load.image.map(fileName)
                    return load
                })
            guard slices.count > 1 || slices[0].identity.slice != nil else {
                return File(image: image, slices: slices, architectures: [])
            }
            image.binary.identity = identity
            image.verdict = Verdicts.verdict(ofSlices: slices.map(\.verdict)) ?? image.verdict
            image.provides = Array(Set(slices.flatMap(\.provides))).sorted()
            image.external = slices.allSatisfy(\.external)
            image.slices = slices.compactMap(\.identity.slice).sorted()
            return File(image: image, slices: slices, architectures: slices.compactMap(\.identity.slice).sorted())
        }
        var groups: [Key: FindingGroup] = [:]
        var keys: [Key] = []
        var keyOfFinding: [Key] = []
        var seen: [Key: Int] = [:]
        for finding in report.findings {
            let file = fileName(finding.image)
            var key = Self.key(of: finding, files: fileOfImage)
            // The same key on the image itself: how many came before.
            var occurrence = key
            occurrence.file = finding.image
            key.ordinal = seen[occurrence, default: 0]
            seen[occurrence] = key.ordinal + 1
            keyOfFinding.append(key)
            if groups[key] == nil {
                keys.append(key)
                groups[key] = FindingGroup(findings: [], file: file, slices: [])
            }
            groups[key]!.findings.append(finding)
        }
        let sorted = keys.map { key in
            var group = groups[key]!
            group.findings.sort { (slicesOfImage[$0.image] ?? "") < (slicesOfImage[$1.image] ?? "") }
            if !group.findings.contains(where: \.aboutFile) {
                group.slices = Array(Set(group.findings.compactMap { slicesOfImage[$0.image] })).sorted()
            }
            return group
        }.enumerated().sorted { lhs, rhs in
            let (left, right) = (lhs.element.lead, rhs.element.lead)
            return (lhs.element.file, left.rule, left.symbol ?? "", left.chain.joined(separator: "\u{1}"), lhs.offset)
                < (rhs.element.file, right.rule, right.symbol ?? "", right.chain.joined(separator: "\u{1}"), rhs.offset)
        }
        findings = sorted.map(\.element)
        let positions = Dictionary(uniqueKeysWithValues: sorted.enumerated().map { (keys[$1.offset], $0) })
        groupOfFinding = keyOfFinding.map { positions[$0]! }
    }

    private static func key(of finding: Finding, files: [String: String]) -> Key {
        let file = { (name: String) in files[name] ?? name }
        return Key(
            file: file(finding.image), rule: finding.rule, kind: finding.kind.rawValue, symbol: finding.symbol ?? "",
            chain: finding.chain, chainFiles: finding.chainImages.map(file))
    }

    /// The group of the report's finding at `index` (in ``Report/findings``).
    public func group(ofFindingAt index: Int) -> FindingGroup {
        findings[groupOfFinding[index]]
    }

    /// The file of the image named `name`, or `name` when it is no
    /// reported image.
    public func file(of name: String) -> String { fileOfImage[name] ?? name }

    /// `report` as a reader takes it, for the renderers that draw files
    /// rather than slices (the text output, the HTML report, the DOT
    /// graph): one image per file (``File/image``), one finding per group
    /// (its lead, on the file, its chain through files, with the slices
    /// that hold it in ``Finding/slices``), leaving out the notes held only
    /// by slices no process of the app loads (the file's `ARCH004` note
    /// names those slices; the JSON document keeps their findings).
    /// Everything else as in `report`.
    public func collapsed(_ report: Report) -> Report {
        var collapsed = report
        collapsed.images = files.map(\.image)
        // Read by index: filtering the images would copy each one.
        let images = report.images
        let notLoaded = Set(images.indices.filter { images[$0].verdict == .notLoaded }.map { images[$0].name })
        collapsed.findings = findings.filter { group in
            group.severity != .note || group.findings.contains(where: \.aboutFile)
                || !group.findings.allSatisfy { notLoaded.contains($0.image) }
        }.map { group in
            var finding = group.lead
            finding.image = group.file
            finding.chainImages = finding.chainImages.map(file(of:))
            finding.slices = group.slices
            return finding
        }
        return collapsed
    }

    /// `findings` with a file's `INSP001` findings (``Finding/Kind/partialInspection``:
    /// one per structure that could not be read) folded into its first, as
    /// severe as the most severe, whose message ends with how many more
    /// there are (`(and 24 more problems with its structure: --format json
    /// lists them)`): the text output's one line per file read only in
    /// part (its summary still counts each).
    public static func foldingPartialInspection(_ findings: [Finding]) -> [Finding] {
        var folded: [Finding] = []
        var first: [String: Int] = [:]
        var more: [Int: Int] = [:]
        for finding in findings {
            guard finding.kind == .partialInspection else {
                folded.append(finding)
                continue
            }
            if let index = first[finding.image] {
                more[index, default: 0] += 1
                folded[index].severity = max(folded[index].severity, finding.severity)
            } else {
                first[finding.image] = folded.count
                folded.append(finding)
            }
        }
        for (index, count) in more {
            folded[index].remark(.moreStructureProblems(count))
        }
        return folded
    }

    /// `PATH (arm64, armv7, i386, x86_64)`: a file and the slices something
    /// holds in; the path alone when `slices` is empty.
    public static func place(_ file: String, slices: [String]) -> String {
        slices.isEmpty ? file : "\(file) (\(slices.joined(separator: ", ")))"
    }

    /// `items` without repeats, in first-seen order.
    private static func unique<T: Equatable>(_ items: [T]) -> [T] {
        items.reduce(into: []) { if !$0.contains($1) { $0.append($1) } }
    }
}
