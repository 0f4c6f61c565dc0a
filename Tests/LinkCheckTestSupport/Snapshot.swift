import Foundation

/// Expected output kept in files beside the tests (`Snapshots/<name>`).
/// Run the tests with `LINKCHECK_UPDATE_SNAPSHOTS=1` to rewrite them after
/// an intended change, then review the diff.
public enum Snapshot {
    /// The snapshot's text, or `nil` when it is missing; rewrites it first
    /// when `LINKCHECK_UPDATE_SNAPSHOTS=1`.
    public static func expected(_ name: String, actual: String, testFile: String = #filePath) throws -> String? {
        let file = URL(fileURLWithPath: testFile).deletingLastPathComponent()
            .appendingPathComponent("Snapshots").appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["LINKCHECK_UPDATE_SNAPSHOTS"] == "1" {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try actual.write(to: file, atomically: true, encoding: .utf8)
        }
        return try? String(contentsOf: file, encoding: .utf8)
    }
}
