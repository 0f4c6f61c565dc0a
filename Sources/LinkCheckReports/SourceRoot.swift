import Foundation
import LinkCheckSourceLines

/// The folder source paths are shown relative to (`--source-root`; the
/// current directory by default): the text output's `FILE:LINE:COLUMN`,
/// the HTML report's call sites and SARIF's `SRCROOT`.
public struct SourceRoot: Sendable, Equatable {
    /// The folder, absolute and standardized, without a trailing `/`
    /// (`/` itself for the root).
    public let path: String

    /// `path`, made absolute against the current directory when it is
    /// relative.
    public init(_ path: String) {
        self.path = URL(fileURLWithPath: path).standardizedFileURL.path
    }

    /// `file` relative to the folder (`Sources/loader.c`), or `nil` when it
    /// does not lie inside it. A relative `file` is taken as relative to the
    /// folder already: debug information gives relative paths when the
    /// build mapped its folder to `.` (`-fdebug-prefix-map=$PWD=.`, as
    /// reproducible builds do). Either way the path is ``normalized(_:)``.
    public func relative(_ file: String) -> String? {
        let file = Self.normalized(file)
        guard file.hasPrefix("/") else { return file.isEmpty || file == ".." || file.hasPrefix("../") ? nil : file }
        let folder = path.hasSuffix("/") ? path : path + "/"
        guard file.hasPrefix(folder), file.count > folder.count else { return nil }
        return String(file.dropFirst(folder.count))
    }

    /// `file` without its `.` components, and without each `folder/..`
    /// pair (lexically, as `URL.standardized` does: symbolic links are not
    /// followed); a relative path's leading `..` stay. `./sub/../plug.c`
    /// is `plug.c`.
    public static func normalized(_ file: String) -> String {
        var parts: [Substring] = []
        for part in file.split(separator: "/") where part != "." {
            if part == "..", let last = parts.last, last != ".." {
                parts.removeLast()
            } else if !(part == ".." && parts.isEmpty && file.hasPrefix("/")) {
                parts.append(part)
            }
        }
        return (file.hasPrefix("/") ? "/" : "") + parts.joined(separator: "/")
    }

    /// `position` as people read it: `file:line:column` (`file:line`
    /// without a column), the file relative to `root` when it lies inside
    /// it, else as the debug information gives it, ``normalized(_:)``.
    public static func place(_ position: SourcePosition, relativeTo root: SourceRoot?) -> String {
        let file = root?.relative(position.file) ?? normalized(position.file)
        return "\(file):\(position.line)" + (position.column.map { ":\($0)" } ?? "")
    }
}
