import Foundation
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

    /// The baseline of `findings`; `linkName` gives an image path's SONAME
    /// or file name.
    public init(findings: [Finding], linkName: (String) -> String) {
        entries = Set(findings.map { Entry(rule: $0.rule, image: linkName($0.image), symbol: $0.symbol) })
    }

    private struct File: Codable {
        var format: Int
        var findings: [Entry]
    }

    /// Reads a baseline file.
    ///
    /// - Throws: a message naming the file when it cannot be read or is not
    ///   a format-1 baseline.
    public init(path: String) throws(BaselineError) {
        do {
            let file = try JSONDecoder().decode(File.self, from: InputFile.read(path))
            guard file.format == 1 else { throw BaselineError(message: "\(path): unsupported baseline format \(file.format)") }
            entries = Set(file.findings)
        } catch let error as BaselineError {
            throw error
        } catch let error as InputFile.Failure {
            throw BaselineError(message: "\(path): cannot read: \(error.reason)")
        } catch {
            throw BaselineError(message: "\(path): not a linkcheck baseline: \(error.localizedDescription)")
        }
    }

    /// The baseline as JSON, sorted.
    public func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(File(format: 1, findings: entries.sorted()))) ?? Data()
    }

    /// The findings not in the baseline.
    public func newFindings(_ findings: [Finding], linkName: (String) -> String) -> [Finding] {
        findings.filter { !contains($0, linkName: linkName) }
    }

    /// The findings the baseline holds.
    public func acceptedFindings(_ findings: [Finding], linkName: (String) -> String) -> [Finding] {
        findings.filter { contains($0, linkName: linkName) }
    }

    func contains(_ finding: Finding, linkName: (String) -> String) -> Bool {
        entries.contains(Entry(rule: finding.rule, image: linkName(finding.image), symbol: finding.symbol))
    }
}

/// A baseline file that cannot be used.
public struct BaselineError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
