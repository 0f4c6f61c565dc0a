import Foundation
import LinkCheckImage
import LinkCheckInspection
import LinkCheckRules

/// Accepted findings (`--write-baseline FILE`, `--baseline FILE`): a run
/// with a baseline fails only on findings that are not in it. Entries are
/// keyed by rule, image SONAME (or file name) and symbol, so they survive
/// rebuilds and moves.
///
/// The file: `{"format": 1, "findings": [{"rule", "image", "symbol"?}]}`,
/// sorted, one entry per distinct key.
public struct Baseline: Sendable, Equatable {
    public struct Entry: Sendable, Hashable, Codable, Comparable {
        public var rule: String
        public var image: String
        public var symbol: String?

        public static func < (lhs: Entry, rhs: Entry) -> Bool {
            (lhs.rule, lhs.image, lhs.symbol ?? "") < (rhs.rule, rhs.image, rhs.symbol ?? "")
        }
    }

    public var entries: Set<Entry>

    /// The baseline of `findings`; `key` gives an image name's baseline
    /// key (``key(of:)``).
    /// or file name.
    ///
    /// Completeness findings (`INSP001`, `LINK002`) are left out: what could
    /// not be read is never accepted as safe.
    public init(findings: [Finding], key: (String) -> String) {
        entries = Set(findings.filter { !BuiltInRules.isCompleteness($0.rule) }.map {
            Entry(rule: $0.rule, image: key($0.image), symbol: $0.symbol)
        })
    }

    private struct File: Codable {
        var format: Int
        var findings: [Entry]
    }

    /// Reads a baseline file, as strictly as rule packs and `linkcheck.json`
    /// (``JSONSyntax``: RFC 8259 exactly, no trailing comma or comment, each
    /// key once per object).
    ///
    /// - Throws: a message naming the file and what is wrong: it cannot be
    ///   read (the system's reason), is not JSON (the line and column where
    ///   it leaves the grammar, and why), is out of shape (the JSON path and
    ///   the problem: `$.findings[0].rule: missing`), or has another
    ///   `format`.
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
        let file: File
        do {
            file = try JSONDecoder().decode(File.self, from: data)
        } catch let error as DecodingError {
            throw problem(Self.describe(error))
        } catch {
            throw problem("\(error)")
        }
        guard file.format == 1 else { throw BaselineError(message: "\(path): unsupported baseline format \(file.format) (this linkcheck reads format 1)") }
        entries = Set(file.findings)
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

    /// The baseline as JSON, sorted.
    public func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(File(format: 1, findings: entries.sorted()))) ?? Data()
    }

    /// How a baseline names an image, so that entries survive rebuilds and
    /// moves: its link name (SONAME or install name, else its file name),
    /// with the slice of a fat file and the member of an archive
    /// (`@rpath/Kit.framework/Kit[arm64]`), so two slices never share
    /// entries.
    public static func key(linkName: String, identity: ImageIdentity) -> String {
        linkName + (identity.slice.map { "[\($0)]" } ?? "") + (identity.member.map { "(\($0))" } ?? "")
    }

    /// ``key(linkName:identity:)`` of an image.
    public static func key(of image: BinaryImage) -> String {
        key(linkName: image.linkName, identity: image.identity)
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
        !BuiltInRules.isCompleteness(finding.rule)
            && entries.contains(Entry(rule: finding.rule, image: key(finding.image), symbol: finding.symbol))
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
