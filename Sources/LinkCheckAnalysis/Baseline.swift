import Foundation
import LinkCheckImage
import LinkCheckInspection
import LinkCheckRules

/// Accepted findings (`--write-baseline FILE`, `--baseline FILE`): a run
/// with a baseline fails only on findings that are not in it. An entry
/// hides only the same finding: the same rule, severity, image
/// (``imageKey(of:placement:inputs:external:)``: by its place, so two
/// images of one name in two bundles never share entries, and entries
/// survive rebuilds and moves), symbol, and chain of images it is reached
/// through. A warning that became an error, or an API now reached through
/// another chain, is a new finding.
///
/// The file: `{"format": 2, "findings": [{"rule", "severity", "image",
/// "symbol"?, "chain"?}]}`, sorted, one entry per distinct finding. Format
/// 1 (rule, link or file name, symbol) is refused with a message that says
/// to write the baseline again: its entries would hide findings of other
/// images, chains and severities.
public struct Baseline: Sendable, Equatable {
    public struct Entry: Sendable, Hashable, Codable, Comparable {
        public var rule: RuleID
        public var severity: Severity
        /// The image's key (``Baseline/imageKey(of:placement:inputs:external:)``).
        public var image: String
        public var symbol: String?
        /// For a finding reached through other images (a transitive one):
        /// their keys, from the one ``image`` links to the one that uses
        /// the API; `nil` for an image's own finding.
        public var chain: [String]?

        public init(rule: RuleID, severity: Severity, image: String, symbol: String?, chain: [String]?) {
            self.rule = rule
            self.severity = severity
            self.image = image
            self.symbol = symbol
            self.chain = chain
        }

        /// The entry of `finding`, whose image names (``Finding/image``,
        /// ``Finding/chainImages``) `key` turns into image keys.
        public init(_ finding: Finding, key: (String) -> String) {
            self.init(
                rule: finding.rule, severity: finding.severity, image: key(finding.image), symbol: finding.symbol,
                chain: finding.chainImages.count > 1 ? finding.chainImages.dropFirst().map(key) : nil)
        }

        fileprivate enum CodingKeys: String, CodingKey, CaseIterable {
            case rule, severity, image, symbol, chain
        }

        /// Reads an entry; a severity other than `error`, `warning` or
        /// `note` is out of shape, said so.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            rule = try container.decode(RuleID.self, forKey: .rule)
            let name = try container.decode(String.self, forKey: .severity)
            guard let severity = Severity(rawValue: name) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .severity, in: container, debugDescription: "unknown severity '\(name)' (error, warning or note)")
            }
            self.severity = severity
            image = try container.decode(String.self, forKey: .image)
            symbol = try container.decodeIfPresent(String.self, forKey: .symbol)
            chain = try container.decodeIfPresent([String].self, forKey: .chain)
        }

        public static func < (lhs: Entry, rhs: Entry) -> Bool {
            (lhs.rule, lhs.image, lhs.symbol ?? "", (lhs.chain ?? []).joined(separator: "\u{0}"), lhs.severity.rawValue)
                < (rhs.rule, rhs.image, rhs.symbol ?? "", (rhs.chain ?? []).joined(separator: "\u{0}"), rhs.severity.rawValue)
        }
    }

    /// The format this linkcheck writes and reads.
    public static let format = 2

    public var entries: Set<Entry>
    /// The file it was read from (``init(path:)``); `nil` for one made
    /// from findings.
    public var path: String?

    /// The baseline of `findings`; `key` gives an image name's key
    /// (``imageKey(of:placement:inputs:external:)``, as
    /// ``ImageReport/baselineKey`` holds it).
    ///
    /// Completeness findings (`INSP001`, `LINK002`) are left out: what could
    /// not be read is never accepted as safe.
    public init(findings: [Finding], key: (String) -> String) {
        entries = Set(findings.filter { !BuiltInRules.isCompleteness($0.rule) }.map { Entry($0, key: key) })
    }

    private struct File: Codable {
        var format: Int
        var findings: [Entry]
    }

    /// The part of the file read first, to tell the format.
    private struct Header: Decodable {
        var format: Int
    }

    /// Reads a baseline file, as strictly as rule packs and `linkcheck.json`
    /// (``JSONSyntax``: RFC 8259 exactly, no trailing comma or comment, each
    /// key once per object).
    ///
    /// - Throws: a message naming the file and what is wrong: it cannot be
    ///   read (the system's reason), is not JSON (the line and column where
    ///   it leaves the grammar, and why), is out of shape (the JSON path and
    ///   the problem: `$.findings[0].rule: missing`), is of format 1 (write
    ///   it again), or has another `format`.
    public init(path: String) throws(BaselineError) {
        let data: Data
        do {
            data = try InputFile.read(path)
        } catch {
            throw BaselineError(message: "\(path): cannot read: \(error.reason)")
        }
        let problem = { (what: String) in BaselineError(message: "\(path): not a linkcheck baseline: \(what)") }
        let duplicates: [JSONDuplicateKeys.Duplicate]
        do {
            duplicates = try JSONSyntax.parse(data).duplicates
        } catch {
            throw BaselineError(path: path, syntaxError: error)
        }
        if let duplicate = duplicates.first { throw problem("\(duplicate.jsonPath): \(duplicate.problem)") }
        func decode<T: Decodable>(_ type: T.Type) throws(BaselineError) -> T {
            do {
                return try JSONDecoder().decode(type, from: data)
            } catch let error as DecodingError {
                throw problem(Self.describe(error))
            } catch {
                throw problem("\(error)")
            }
        }
        let format = try decode(Header.self).format
        guard format != 1 else {
            throw BaselineError(
                message:
                    "\(path): a baseline of format 1, whose entries name images by file name and leave out the chain and severity, so they would hide other findings than those accepted: write it again with --write-baseline (this linkcheck reads format \(Self.format))"
            )
        }
        guard format == Self.format else {
            throw BaselineError(message: "\(path): unsupported baseline format \(format) (this linkcheck reads format \(Self.format))")
        }
        entries = Set(try decode(File.self).findings)
        self.path = path
        if let unknown = Self.unknownKeys(in: data).first { throw problem("\(unknown): unknown key") }
    }

    /// The JSON paths of keys a baseline has no use for (`$.bogus`,
    /// `$.findings[2].note`), in document order: read as strictly as
    /// `linkcheck.json`, so a misspelt key is never silently ignored.
    private static func unknownKeys(in data: Data) -> [String] {
        guard let top = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return [] }
        var unknown = top.keys.filter { !["format", "findings"].contains($0) }.sorted().map { "$.\($0)" }
        let known = Set(Entry.CodingKeys.allCases.map(\.rawValue))
        for (index, entry) in (top["findings"] as? [[String: Any]] ?? []).enumerated() {
            unknown += entry.keys.filter { !known.contains($0) }.sorted().map { "$.findings[\(index)].\($0)" }
        }
        return unknown
    }

    /// A decoding error as `JSON path: problem`.
    private static func describe(_ error: DecodingError) -> String {
        func jsonPath(_ keys: [any CodingKey]) -> String {
            "$" + keys.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }.joined()
        }
        func kind(_ type: Any.Type) -> String {
            switch type {
            case is Int.Type: "an integer"
            case is String.Type: "a string"
            case is [Any].Type: "an array"
            default: "an object"
            }
        }
        switch error {
        case .keyNotFound(let key, let context): return "\(jsonPath(context.codingPath + [key])): missing"
        case .typeMismatch(let type, let context): return "\(jsonPath(context.codingPath)): must be \(kind(type))"
        case .valueNotFound(let type, let context): return "\(jsonPath(context.codingPath)): must be \(kind(type)), not null"
        case .dataCorrupted(let context): return "\(jsonPath(context.codingPath)): \(context.debugDescription)"
        @unknown default: return "\(error)"
        }
    }

    /// What a run says of the baseline it read: `3 findings accepted by the
    /// baseline PATH` (`accepted` of them); `nil` for one not read from a
    /// file.
    func remark(accepted: Int) -> String? {
        path.map { "\(accepted) finding\(accepted == 1 ? "" : "s") accepted by the baseline \($0)" }
    }

    /// The baseline as JSON, sorted.
    public func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(File(format: Self.format, findings: entries.sorted()))) ?? Data()
    }

    /// The key of each of `images` by name (``imageKey(of:placement:inputs:external:)``,
    /// the placement from `bundles`, relative to the paths given, `inputs`;
    /// those from `scannedCount` on were found outside the paths given),
    /// made unique: images whose keys would be one (two apps' frameworks of
    /// one install name, found outside the paths given) are keyed by their
    /// paths as reports name them instead.
    static func imageKeys(_ images: [BinaryImage], scannedCount: Int, bundles: BundleLayout, inputs: [String]) -> [String: String] {
        var keys: [String: String] = [:]
        for (index, image) in images.enumerated() where keys[image.name] == nil {
            keys[image.name] = imageKey(
                of: image, placement: bundles.placement(ofFile: image.path), inputs: inputs, external: index >= scannedCount)
        }
        let shared = Dictionary(grouping: keys.keys, by: { keys[$0]! }).filter { $0.value.count > 1 }
        for names in shared.values {
            for name in names { keys[name] = name }
        }
        return keys
    }

    /// How a baseline names an image, so that two images never share
    /// entries and entries survive rebuilds and moves, with the slice of a
    /// fat file and the member of an archive
    /// (`Photos.app/Frameworks/Kit.framework/Kit[arm64]`). An image is named
    /// from its anchor: the outermost bundle around it (`placement`), else
    /// its own file.
    ///
    /// - a library found outside the paths given (`external`: a system
    ///   library, a framework beside a product): its link name (SONAME or
    ///   install name), the same on every machine;
    /// - else the anchor's path relative to the path given (of `inputs`, the
    ///   longest) that holds it (`A/Photos.app`, `lib/libShareKit.so` under
    ///   `build`), or its name when the path given is the anchor itself or
    ///   lies inside it (`Photos.app`, the same for the app given as a
    ///   folder, in an `.ipa`, or by its `Frameworks` folder); then the
    ///   image's place in the bundle
    ///   (`Photos.app/PlugIns/PhotosShare.appex/PhotosShare`);
    /// - with more than one path given, that path's name goes first
    ///   (`a/libShareKit.so` and `b/libShareKit.so` for `check E/a E/b`;
    ///   the path as given when two given paths have one name), and a path
    ///   given inside a bundle (`A/Photos.app/PlugIns/PhotosShare.appex`)
    ///   is followed by the file's place under it;
    /// - the path as it is when no path given holds it.
    public static func imageKey(of image: BinaryImage, placement: BundlePlacement?, inputs: [String], external: Bool) -> String {
        let identity = image.identity
        let key = { (base: String) in ImageIdentity(path: base, slice: identity.slice, member: identity.member).description }
        if external { return key(image.linkName) }
        let anchor = placement?.outermost.path ?? identity.path
        let file = identity.unpackedFrom?.archive ?? identity.path
        guard
            let input = inputs.filter({ file == $0 || file.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }).max(by: { $0.count < $1.count })
        else { return key(identity.displayPath) }
        let under =
            anchor == input || !anchor.hasPrefix(input.hasSuffix("/") ? input : input + "/")
            ? nil : String(anchor.dropFirst(input.hasSuffix("/") ? input.count : input.count + 1))
        let label = inputs.count > 1 ? inputLabel(input, among: inputs) : nil
        if let placement, under == nil, anchor != input, let label {
            // The path given lies inside the bundle (an .appex of an app): the file's place under it.
            let inside =
                file.hasPrefix(input + "/")
                ? String(file.dropFirst(input.count + 1)) : placement.outermost.folderName + "/" + placement.place
            return key(label + "/" + inside)
        }
        var base = label.map { $0 + (under.map { "/" + $0 } ?? "") } ?? under ?? (placement?.outermost.folderName ?? image.fileName)
        if let placement { base += "/" + placement.place }
        return key(base)
    }

    /// How a path given is named in keys: its last component, or the path
    /// as given when another path given has the same last component.
    static func inputLabel(_ input: String, among inputs: [String]) -> String {
        let name = { (path: String) in (path as NSString).lastPathComponent }
        return inputs.filter { name($0) == name(input) }.count > 1 ? input : name(input)
    }

    /// The findings not in the baseline.
    public func newFindings(_ findings: [Finding], key: (String) -> String) -> [Finding] {
        findings.filter { !contains($0, key: key) }
    }

    /// The findings the baseline holds.
    public func acceptedFindings(_ findings: [Finding], key: (String) -> String) -> [Finding] {
        findings.filter { contains($0, key: key) }
    }

    /// Whether the baseline accepts `finding`: never a completeness one.
    func contains(_ finding: Finding, key: (String) -> String) -> Bool {
        !BuiltInRules.isCompleteness(finding.rule) && entries.contains(Entry(finding, key: key))
    }
}

/// A baseline file that cannot be used.
public struct BaselineError: Error, Sendable, CustomStringConvertible {
    /// The file and what is wrong: `b.json: not a linkcheck baseline:
    /// $.format: missing`, `b.json:1:18: invalid JSON: trailing comma: …`.
    public var message: String
    /// Where the text leaves the JSON grammar, for a syntax error.
    public var syntaxError: JSONSyntaxError?

    public init(message: String) {
        self.message = message
    }

    /// A syntax error in the file at `path`.
    init(path: String, syntaxError: JSONSyntaxError) {
        message = "\(path):\(syntaxError.line):\(syntaxError.column): invalid JSON: \(syntaxError.reason)"
        self.syntaxError = syntaxError
        file = path
    }

    private var file: String?

    public var description: String { message }

    /// The line `linkcheck` prints: a syntax error as compilers print one,
    /// `FILE:LINE:COLUMN: error: invalid JSON: …` (as for rule packs and
    /// `linkcheck.json`); anything else `linkcheck: error: FILE: …`.
    public var errorLine: String {
        guard let syntaxError, let file else { return "linkcheck: error: \(message)" }
        return "\(file):\(syntaxError.line):\(syntaxError.column): error: invalid JSON: \(syntaxError.reason)"
    }
}
