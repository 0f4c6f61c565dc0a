import LinkCheckCodeIndex
import LinkCheckImage
import LinkCheckInspection
import LinkCheckReports

/// `linkcheck inspect [--format json] [--call-sites] FILE…`
enum InspectCommand {
    static let spec = CommandSpec(
        name: "inspect",
        summary: "Show what linkcheck reads from ELF and Mach-O files: header, dependencies, search paths, imports and exports.",
        positionals: "FILE…",
        options: [
            InspectFormat.option,
            .init(
                name: "call-sites", value: nil,
                help: "Also list the calls to imported functions (x86_64 and arm64/aarch64), as the disassembler finds them."),
        ])

    /// Exit status 0 when every file was inspected, else 2 (what could be
    /// inspected is printed all the same, as `grep` goes on past a file it
    /// cannot read).
    static func run(_ arguments: [String]) throws -> Int32 {
        let parsed = try spec.parse(arguments)
        guard !parsed.positionals.isEmpty else { throw UsageError("'linkcheck inspect' needs at least one FILE") }
        guard !parsed.positionals.contains("") else { throw UsageError("a FILE is empty") }
        let format = try InspectFormat.parse(parsed)
        // The files of an archive given are read in the private folder it
        // is unpacked into, removed once they are printed.
        return Discovery.withUnpackedInputs(paths: parsed.positionals) { show($0, parsed, format: format) }
    }

    /// Prints what the files `discovery` found hold, as `format` asks;
    /// the exit status.
    static func show(_ discovery: Discovery, _ parsed: ParsedArguments, format: InspectFormat) -> Int32 {
        // A FILE given that is not an image is an error; a file found in a
        // folder or an archive that is not one (an Info.plist) is passed
        // over, as are links not followed and folders not walked: said on
        // stderr, not failures.
        let given = Set(parsed.positionals)
        var passedOver = discovery.skipped.filter { $0.kind != .file || !given.contains($0.path) }
        let problems =
            discovery.errors
            + discovery.skipped.filter { $0.kind == .file && given.contains($0.path) }
            .map { InspectionError.notInspectable(path: $0.path, reason: $0.reason) }
        var results: [Result<[BinaryImage], InspectionError>] = []
        for result in Inspection.inspect(discovery.files, jobs: 1) {
            if case .failure(.notAnImage(let path)) = result, !given.contains(path) {
                passedOver.append(SkippedEntry(path: discovery.displayPath(of: path), reason: "not an ELF or Mach-O file"))
                continue
            }
            // Files unpacked from an archive are named by their entries.
            results.append(result.map { $0.map(discovery.named) }.mapError(discovery.named))
        }
        TextRenderer(verbose: true).passedOver(passedOver).forEach { printError($0) }
        switch format {
        case .json:
            var callSites: [String: CodeAnalysis?]?
            if parsed.has("call-sites") {
                callSites = [:]
                for case .success(let images) in results {
                    for image in images { callSites?[image.name] = .some((try? CodeIndex.callSites(of: image)) ?? nil) }
                }
            }
            write(InspectRenderer.json(results + problems.map { .failure($0) }, callSites: callSites))
        case .text:
            for result in results {
                switch result {
                case .success(let images):
                    for image in images {
                        write(InspectRenderer.text(image))
                        if parsed.has("call-sites") {
                            let analysis = try? CodeIndex.callSites(of: image)
                            write(InspectRenderer.callSites(analysis ?? nil, machine: image.architecture.name))
                        }
                    }
                case .failure(let error): printError("linkcheck: error: \(error)")
                }
            }
            problems.forEach { printError("linkcheck: error: \($0)") }
        }
        let inspected = results.contains { (try? $0.get()) != nil }
        let failed = !problems.isEmpty || results.contains { (try? $0.get()) == nil }
        if !inspected && !failed {
            printError("linkcheck: error: no ELF or Mach-O file found under \(parsed.positionals.joined(separator: " "))")
        }
        return inspected && !failed ? 0 : 2
    }
}
