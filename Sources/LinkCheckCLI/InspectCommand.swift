import LinkCheckAnalysis
import LinkCheckInspection
import LinkCheckReports

/// `linkcheck inspect [--format json] FILE…`
enum InspectCommand {
    static let spec = CommandSpec(
        name: "inspect",
        summary: "Show what linkcheck reads from ELF files: header, dynamic section, imports and exports with versions.",
        positionals: "FILE…",
        options: [.init(name: "format", value: "FORMAT", help: "text (default) or json.")])

    static func run(_ arguments: [String]) throws -> Int32 {
        let parsed = try spec.parse(arguments)
        guard !parsed.positionals.isEmpty else { throw UsageError("'linkcheck inspect' needs at least one FILE") }
        let format = parsed.last("format") ?? "text"
        guard ["text", "json"].contains(format) else { throw UsageError("unknown format '\(format)' (text or json)") }
        let discovery = Discovery(paths: parsed.positionals)
        let results = CheckRun.inspect(discovery.files, jobs: 1)
        let failures = discovery.errors.map { Result<BinaryImage, InspectionError>.failure($0) }
        if format == "json" {
            write(InspectRenderer.json(results + failures))
        } else {
            for result in results {
                switch result {
                case .success(let image): write(InspectRenderer.text(image))
                case .failure(let error): printError("linkcheck: error: \(error)")
                }
            }
            discovery.errors.forEach { printError("linkcheck: error: \($0)") }
        }
        let inspected = results.contains { (try? $0.get()) != nil }
        return inspected ? 0 : 2
    }
}
