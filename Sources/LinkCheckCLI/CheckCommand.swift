import Foundation
import LinkCheckAnalysis
import LinkCheckCodeIndex
import LinkCheckInspection
import LinkCheckReports
import LinkCheckRules
import SystemInterface

/// `linkcheck check [OPTIONS] PATH…`
enum CheckCommand {
    static let spec = CommandSpec(
        name: "check",
        summary:
            "Check ELF and Mach-O images, bundles and .ipa archives for APIs unavailable in app extensions, architecture problems and conditional loading.",
        positionals: "PATH…",
        options: [
            .rules, .noDefaultRules,
            .init(
                name: "extension", value: "NAME[=TYPE]",
                help:
                    "Mark an image as an app extension, by file name, SONAME or module name; TYPE is share, imessage, widget, … (repeatable)."
            ),
            .init(name: "app", value: "NAME", help: "Mark an image as the containing app (repeatable)."),
            .init(
                name: "require-arch", value: "ARCH",
                help: "Require every module for this architecture: aarch64 (arm64), x86_64, … (repeatable)."),
            CheckFormat.option,
            .init(name: "html", value: "FILE", help: "Also write the reviewer's HTML report to FILE."),
            .init(name: "search-path", value: "DIR", help: "ELF: also look for DT_NEEDED libraries in DIR, after DT_RUNPATH (repeatable)."),
            .init(name: "use-ld-library-path", value: nil, help: "ELF: search LD_LIBRARY_PATH too, as ld.so would."),
            .init(
                name: "no-system", value: nil,
                help: "ELF: do not follow DT_NEEDED into the system's library folders (Mach-O system libraries are never inspected)."),
            .init(
                name: "config", value: "FILE",
                help: "Read roles, rules, search paths and suppressions from FILE (default: ./linkcheck.json if present)."),
            .init(name: "baseline", value: "FILE", help: "Report only findings that are not in the baseline FILE."),
            .init(name: "write-baseline", value: "FILE", help: "Write this run's findings to FILE as a baseline."),
            .init(
                name: "no-call-sites", value: nil,
                help:
                    "Do not disassemble to find call sites: faster, but findings name no function, and what code loads (dlopen arguments), OS version checks before loading and calls to linked-in copies of an API are not found."
            ),
            .init(
                name: "call-sites", value: "MODE",
                help:
                    "targeted (default): decode only the functions a byte scan finds transfers to what the rules match in, and their callers; full: decode all code (the same answers, slower)."
            ),
            .init(name: "jobs", value: "N", help: "Inspect up to N files at once (default, and at most: the number of cores)."),
            .init(
                name: "follow-symlinks", value: nil,
                help:
                    "Follow symbolic links met in folders wherever they lead (by default only those whose target lies inside a PATH given)."
            ),
            .init(
                name: "by-name-as-error", value: nil,
                help:
                    "Make every use by name of an API unavailable in extensions (NSClassFromString, performSelector:, a selector from a string) an error, as a direct use is; by default a warning (linkcheck.json: \"byNameUses\": \"error\")."
            ),
            .init(
                name: "only", value: "CHECKS",
                help:
                    "bundle: only the bundle checks, what App Store Connect would refuse on upload (ITMS codes) and how the app is put together; no rule packs, no call sites: fast, for a step before upload."
            ),
            .init(
                name: "source-root", value: "DIR",
                help:
                    "Text, SARIF and HTML output: show the source files of call sites (from the images' debug information) relative to DIR (default: the current directory)."
            ),
            .init(
                name: "dsym", value: "PATH",
                help:
                    "Look here first for the dSYMs of Mach-O images, for the source lines of call sites: a .dSYM bundle, a folder of them, or the DWARF file itself (repeatable). Without it, linkcheck looks beside each bundle (X.framework.dSYM), in an .xcframework library's or an .xcarchive's dSYMs/, then at the objects of the image's debug map."
            ),
            .init(
                name: "verbose", value: nil,
                help: "Name every file skipped and every symbolic link not followed (by default the summary counts them)."),
        ])

    static func run(_ arguments: [String]) throws -> Int32 {
        let parsed = try spec.parse(arguments)
        let format = try CheckFormat.parse(parsed)
        let invocation = Invocation(arguments: ["check"] + arguments, workingDirectory: FileManager.default.currentDirectoryPath)
        guard let report = try makeReport(parsed, command: "check", invocation: invocation) else { return 2 }
        let sourceRoot = SourceRoot(parsed.last("source-root") ?? FileManager.default.currentDirectoryPath)
        if let htmlPath = parsed.last("html") {
            do {
                try OutputFile.write(Data(HTMLRenderer(sourceRoot: sourceRoot).render(report).utf8), to: htmlPath)
            } catch {
                printError("linkcheck: error: cannot write the HTML report to \(htmlPath): \(error)")
                return 2
            }
        }
        // no-color.org: a NO_COLOR that is set and not empty turns colour off.
        let color = isatty(STDOUT_FILENO) == 1 && (getenv("NO_COLOR").map { $0.pointee == 0 } ?? true)
        write(format.renderer(color: color, verbose: parsed.has("verbose"), sourceRoot: sourceRoot).render(report))
        if report.images.isEmpty {
            printError("linkcheck: error: \(nothingChecked(report, parsed.positionals))")
            return 2
        }
        return report.exitStatus
    }

    /// Why a run checked nothing: every input failed, or none holds an ELF
    /// image.
    static func nothingChecked(_ report: Report, _ paths: [String]) -> String {
        report.errors.isEmpty
            ? "nothing to check: no ELF or Mach-O image found under \(paths.joined(separator: " "))"
            : "nothing could be checked: \(report.errors.count) input\(report.errors.count == 1 ? "" : "s") failed (above) and no other ELF or Mach-O image was found"
    }

    /// The check pipeline for the options `check` and `graph` share:
    /// settings (``CheckSettings``), rule packs loaded while the inputs are
    /// walked, outputs that would replace what the run reads refused, the
    /// run, the baseline written.
    ///
    /// - Parameters:
    ///   - sourceLines: look up the source lines of the call sites the
    ///     findings show (`check`, whose outputs show them; not `graph`).
    ///   - invocation: the command line, for the report.
    /// - Returns: the report, or `nil` after printing why nothing could be
    ///   checked (exit status 2).
    /// - Throws: ``UsageError`` for bad option values.
    static func makeReport(
        _ parsed: ParsedArguments, command: String, sourceLines: Bool = true, invocation: Invocation? = nil
    ) throws -> Report? {
        guard !parsed.positionals.isEmpty else { throw UsageError("'linkcheck \(command)' needs at least one PATH") }
        guard !parsed.positionals.contains("") else { throw UsageError("a PATH is empty") }
        let jobs = try jobCount(parsed.last("jobs"))
        let outputs = try OutputConflicts.outputs(parsed, ["html", "write-baseline"])
        guard let settings = try CheckSettings.load(parsed) else { return nil }
        // The inputs are walked while the rule packs load: neither needs
        // the other. The files of an .ipa live in a private folder while
        // the run reads them: removed however this returns or throws.
        let scope = try checkScope(parsed)
        // The bundle checks alone match no API: no rule pack is loaded.
        let bundleOnly = scope == .bundle
        let (extraPacks, includeDefaults) = bundleOnly ? ([], false) : (parsed.all("rules"), !parsed.has("no-default-rules"))
        let configuration = bundleOnly ? nil : settings.configuration
        return try Discovery.withUnpackedInputs(
            paths: parsed.positionals, followingSymbolicLinks: parsed.has("follow-symlinks"), jobs: jobs
        ) {
            RuleLoading.load(extraPacks: extraPacks, includeDefaults: includeDefaults, configuration: configuration)
        } _: { discovered, loaded -> Report? in
            let rules: RuleSet
            switch loaded {
            case .success(let set): rules = set
            case .failure(let failure):
                failure.lines.forEach { printError($0) }
                return nil
            }
            try OutputConflicts.refuse(outputs, reads: settings.reads(parsed, rules: rules), images: discovered)
            let report = CheckRun.check(
                discovered, rules: rules, policy: settings.policy, resolver: settings.resolver,
                callSites: bundleOnly ? nil : try callSiteMode(parsed), sourceLines: sourceLines, invocation: invocation,
                dsyms: parsed.all("dsym"), jobs: jobs
            ).limited(to: scope)
            // Libraries found while resolving are known only now.
            try OutputConflicts.refuse(outputs, reads: report.filesRead.map { .init(role: "the library", path: $0) })
            if let path = parsed.last("write-baseline"), !writeBaseline(of: report, to: path) { return nil }
            return report
        }
    }

    /// Writes the baseline of `report`'s findings (those a baseline
    /// accepted too) to `path`, each image keyed as the report keys it
    /// (``ImageReport/baselineKey``); `false` after printing why it could
    /// not be written.
    static func writeBaseline(of report: Report, to path: String) -> Bool {
        let keys = Dictionary(report.images.map { ($0.name, $0.baselineKey) }, uniquingKeysWith: { first, _ in first })
        do {
            try OutputFile.write(Baseline(findings: report.findings + report.baselined, key: { keys[$0] ?? $0 }).encoded(), to: path)
            return true
        } catch {
            printError("linkcheck: error: cannot write the baseline to \(path): \(error)")
            return false
        }
    }

    /// `--call-sites MODE` (default `targeted`), or `nil` for
    /// `--no-call-sites`.
    static func callSiteMode(_ parsed: ParsedArguments) throws -> CallSiteMode? {
        guard let value = parsed.last("call-sites") else { return parsed.has("no-call-sites") ? nil : .targeted }
        guard !parsed.has("no-call-sites") else { throw UsageError("--no-call-sites and --call-sites \(value) contradict each other") }
        guard let mode = CallSiteMode(rawValue: value) else {
            throw UsageError("unknown call-site mode '\(value)' (\(CallSiteMode.allCases.map(\.rawValue).joined(separator: " or ")))")
        }
        return mode
    }

    /// `--only CHECKS` (default: every check). `bundle` contradicts the
    /// options that choose rules or call sites.
    static func checkScope(_ parsed: ParsedArguments) throws -> CheckScope {
        guard let value = parsed.last("only") else { return .all }
        guard let scope = CheckScope(rawValue: value), scope != .all else {
            throw UsageError("unknown checks '\(value)' for --only (bundle)")
        }
        for option in ["rules", "call-sites"] where parsed.last(option) != nil {
            throw UsageError("--only \(value) and --\(option) contradict each other: the bundle checks match no rule and analyse no call")
        }
        return scope
    }

    static func jobCount(_ value: String?) throws -> Int {
        guard let value else { return max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))) }
        guard let count = Int(value), count >= 1 else { throw UsageError("--jobs needs a positive number, not '\(value)'") }
        return count
    }
}
