import Foundation
import LinkCheckAnalysis
import LinkCheckInspection
import LinkCheckRules

/// What `check` and `graph` take from their options and `linkcheck.json`
/// before any file is read: the configuration, the policy (roles,
/// extension types, required architectures, suppressions, baseline, the
/// severity of uses by name) and how links are resolved.
struct CheckSettings {
    var configuration: Configuration
    /// The configuration file read (`--config`, else `./linkcheck.json`
    /// when present); `nil` when there is none.
    var configurationPath: String?
    var policy: Policy
    var resolver: LinkResolver

    /// Reads the settings `parsed` gives.
    ///
    /// - Returns: the settings, or `nil` after printing why the
    ///   configuration or the baseline cannot be read (exit status 2).
    /// - Throws: ``UsageError`` for bad option values.
    static func load(_ parsed: ParsedArguments) throws -> CheckSettings? {
        for architecture in parsed.all("require-arch") where !ArchitectureNames.isKnown(architecture) {
            throw UsageError(
                "unknown architecture '\(architecture)' (known: \(ArchitectureNames.listed.joined(separator: ", ")); arm64 means aarch64)")
        }
        for folder in parsed.all("search-path") {
            if let failure = InputFile.directoryFailure(folder) { throw UsageError("--search-path \(folder) \(failure.reason)") }
        }
        // A dSYM named but absent would leave call sites without source
        // and say nothing of why.
        for path in parsed.all("dsym") where !FileManager.default.fileExists(atPath: path) {
            throw UsageError("--dsym \(path) does not exist")
        }
        let configuration: Configuration
        let configurationPath =
            parsed.last("config")
            ?? (FileManager.default.fileExists(atPath: Configuration.fileName) ? Configuration.fileName : nil)
        switch configurationPath.map(Configuration.load(path:)) ?? .success(Configuration(path: Configuration.fileName)) {
        case .success(let loaded): configuration = loaded
        case .failure(let failure):
            failure.problems.forEach { printError($0.errorLine) }
            return nil
        }
        let baseline: Baseline?
        do {
            baseline = try parsed.last("baseline").map { path throws(BaselineError) in try Baseline(path: path) }
        } catch {
            printError(error.errorLine)
            return nil
        }
        var extensionTypes: [String: ExtensionType?] = configuration.extensions.mapValues { $0 }
        extensionTypes.merge(try extensions(parsed.all("extension"))) { $1 }
        var policy = Policy(
            extensions: extensionTypes,
            apps: configuration.apps + parsed.all("app"),
            requiredArchitectures: configuration.requiredArchitectures + parsed.all("require-arch"),
            frameworks: configuration.frameworks,
            suppressions: configuration.suppressions,
            suppressionsFile: configuration.path,
            baseline: baseline)
        policy.byNameUses = parsed.has("by-name-as-error") ? .error : configuration.byNameUses ?? .warning
        let resolver = LinkResolver(
            searchPaths: configuration.searchPaths + parsed.all("search-path"),
            useLDLibraryPath: parsed.has("use-ld-library-path"), includeSystem: !parsed.has("no-system"))
        return CheckSettings(configuration: configuration, configurationPath: configurationPath, policy: policy, resolver: resolver)
    }

    /// The files a run reads besides the images, which no output may
    /// replace: the inputs given, the configuration, the baseline and the
    /// rule packs of `rules`.
    func reads(_ parsed: ParsedArguments, rules: RuleSet) -> [OutputConflicts.Read] {
        var reads = parsed.positionals.map { OutputConflicts.Read(role: "the input", path: $0) }
        if let configurationPath { reads.append(.init(role: "the configuration", path: configurationPath)) }
        if let path = policy.baseline?.path { reads.append(.init(role: "the baseline", path: path)) }
        reads += rules.packs.map { .init(role: "the rule pack", path: $0.path) }
        return reads
    }

    /// `--extension` values, `NAME` or `NAME=TYPE` → name → type.
    static func extensions(_ values: [String]) throws -> [String: ExtensionType?] {
        var result: [String: ExtensionType?] = [:]
        for value in values {
            let parts = value.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard let name = parts.first, !name.isEmpty else { throw UsageError("--extension needs a NAME, as in NAME or NAME=TYPE") }
            let typeName = parts.count == 2 ? parts[1] : nil
            if typeName == "" { throw UsageError("--extension \(name)= needs a TYPE after '='") }
            let type = typeName.flatMap(ExtensionType.init(rawValue:))
            if let typeName, type == nil { throw UsageError(ExtensionType.unknown(typeName)) }
            result[name] = type
        }
        return result
    }
}
