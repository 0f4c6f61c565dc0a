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
    /// does not lie inside it (or is relative itself).
    public func relative(_ file: String) -> String? {
        let folder = path.hasSuffix("/") ? path : path + "/"
        guard file.hasPrefix(folder), file.count > folder.count else { return nil }
        return String(file.dropFirst(folder.count))
    }

    /// `position` as people read it: `file:line:column` (`file:line`
    /// without a column), the file relative to `root` when it lies inside
    /// it, else as the debug information gives it.
    public static func place(_ position: SourcePosition, relativeTo root: SourceRoot?) -> String {
        let file = root?.relative(position.file) ?? position.file
        return "\(file):\(position.line)" + (position.column.map { ":\($0)" } ?? "")
    }
}
