import Foundation
import LinkCheckAnalysis
import LinkCheckSourceLines

/// The source lines a report's call sites were written on
/// (``FindingCallSite/source``), for the HTML report to show beside them:
/// each source file read once, when it is a regular file of at most
/// ``largestFile`` bytes, and only the lines the call sites name kept.
/// A file that cannot be read, is too large, or ends before the line gives
/// no line, and no error: the report still names the place.
struct SourceExcerpts {
    /// The largest source file read, in bytes (8 MiB).
    static let largestFile = 8 << 20

    /// The lines kept, by file and line number (from 1), trimmed.
    private let lines: [String: [Int: String]]

    /// Reads the lines the call sites of `report`'s findings name.
    init(_ report: Report) {
        var wanted: [String: Set<Int>] = [:]
        for site in report.findings.flatMap(\.callSites) {
            guard let location = site.source?.location else { continue }
            wanted[location.file, default: []].insert(location.line)
        }
        var lines: [String: [Int: String]] = [:]
        for (file, numbers) in wanted {
            guard let text = Self.contents(of: file) else { continue }
            let last = numbers.max() ?? 0
            var kept: [Int: String] = [:]
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).prefix(last).enumerated()
            where numbers.contains(index + 1) {
                kept[index + 1] = line.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            lines[file] = kept
        }
        self.lines = lines
    }

    /// The line at `position` (its file and line), trimmed; `nil` when the
    /// file was not read, ends before it, or the line is blank.
    func line(at position: SourcePosition) -> String? {
        guard let line = lines[position.file]?[position.line], !line.isEmpty else { return nil }
        return line
    }

    /// The text of the regular file at `file`, symbolic links followed
    /// (invalid UTF-8 replaced), or `nil` when it is not one, cannot be
    /// read, or is larger than ``largestFile``.
    static func contents(of file: String) -> String? {
        let path = URL(fileURLWithPath: file).resolvingSymlinksInPath().path
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            attributes[.type] as? FileAttributeType == .typeRegular,
            let size = attributes[.size] as? Int, size <= largestFile,
            let data = FileManager.default.contents(atPath: path), data.count <= largestFile
        else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}
