import LinkCheckAnalysis
import LinkCheckReports

/// `linkcheck graph [OPTIONS] PATH… --format dot|json`: the link graph of a
/// check (DT_NEEDED and dlopen edges, nodes by verdict).
enum GraphCommand {
    static let spec = CommandSpec(
        name: "graph",
        summary: "Print the link graph: images coloured by verdict, link edges (DT_NEEDED, LC_LOAD_DYLIB), dlopen edges dashed.",
        positionals: "PATH…",
        options: CheckCommand.spec.options.filter {
            !["format", "html", "baseline", "write-baseline", "only", "source-root", "dsym"].contains($0.name)
        }
            + [GraphFormat.option])

    /// Exit status 0 when every input was read, else 2 (the graph of the
    /// rest is printed all the same).
    static func run(_ arguments: [String]) throws -> Int32 {
        let parsed = try spec.parse(arguments)
        let format = try GraphFormat.parse(parsed)
        // The graph shows no call site: no source lines are looked up.
        guard let report = try CheckCommand.makeReport(parsed, command: "graph", sourceLines: false) else { return 2 }
        // The graph has no place for them: files that failed, and what was
        // passed over, go to stderr.
        report.errors.forEach { printError(TextRenderer.errorLine($0)) }
        TextRenderer(verbose: parsed.has("verbose")).passedOver(report.skipped).forEach { printError($0) }
        guard !report.images.isEmpty else {
            printError("linkcheck: error: \(CheckCommand.nothingChecked(report, parsed.positionals))")
            return 2
        }
        write(format.renderer.render(report))
        // Findings do not fail a graph; inputs not read do, as for check.
        return report.exitStatus == 2 ? 2 : 0
    }
}
