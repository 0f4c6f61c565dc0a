import Foundation
import SystemInterface

/// Where the rule packs shipped in `Rules/` are found at run time.
public enum DefaultRulePacks {
    /// The shipped pack file names, in load order.
    public static let fileNames = [
        "app-extension-unavailable.json", "conditional-loading.json", "selector-strings.json",
    ]

    /// The directory holding the shipped packs: `$LINKCHECK_RULES_DIR` when
    /// set (and then only it); else `share/linkcheck/Rules` beside the
    /// running executable's `bin/` (an installed tool, found through
    /// ``runningExecutablePath()`` however it was started); else this source tree's
    /// `Rules/` (a build from source, the plugin, the tests). `nil` when none
    /// holds the packs.
    public static func directory() -> String? {
        var candidates: [String] = []
        if let fromEnvironment = ProcessInfo.processInfo.environment["LINKCHECK_RULES_DIR"] {
            return hasPacks(fromEnvironment) ? fromEnvironment : nil
        }
        let executable = runningExecutablePath() ?? CommandLine.arguments.first ?? ""
        let executableDirectory = URL(fileURLWithPath: executable).resolvingSymlinksInPath().deletingLastPathComponent()
        candidates.append(executableDirectory.appendingPathComponent("../share/linkcheck/Rules").standardized.path)
        let sourceTree = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        candidates.append(sourceTree.appendingPathComponent("Rules").path)
        return candidates.first(where: hasPacks)
    }

    private static func hasPacks(_ directory: String) -> Bool {
        FileManager.default.fileExists(atPath: (directory as NSString).appendingPathComponent(fileNames[0]))
    }

    /// The paths of the shipped packs, or `[]` when ``directory()`` finds
    /// none.
    public static func paths() -> [String] {
        guard let directory = directory() else { return [] }
        return fileNames.map { (directory as NSString).appendingPathComponent($0) }
    }
}
