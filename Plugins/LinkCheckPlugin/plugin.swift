import Foundation
import PackagePlugin

/// `swift package linkcheck`: builds the package's dynamic-library and
/// executable products, turns the `@available(…ApplicationExtension,
/// unavailable)` annotations of the package's modules (and its
/// dependencies') into rules, runs `linkcheck check` on the built images and
/// the binary targets' artifacts (``binaryArtifacts(of:)``) with the
/// package's `linkcheck.json`, and reports the findings as SwiftPM
/// diagnostics. Fails when there is an error finding, or an input could
/// not be read whole.
///
/// Options (``usage``, printed by `--help`): `--product NAME`
/// (repeatable), `--configuration debug|release`, `--html PATH` (default:
/// the plugin's work folder), `--format text|json|sarif` (also print the
/// report so), and `--` followed by options for `linkcheck check`.
///
/// With `--format json` or `sarif`, standard output holds the document
/// alone (`swift package linkcheck --format sarif > out.sarif` is valid):
/// SwiftPM forwards both of a plugin's output streams to its standard
/// output, so what is for people (the HTML report's path, a failed build's
/// log) is a SwiftPM diagnostic or progress line, which go to standard
/// error.
@main
struct LinkCheckPlugin: CommandPlugin {
    /// What `swift package linkcheck --help` prints.
    static let usage = """
        OVERVIEW: Build the package's products and check them, and its binary targets, for APIs
        unavailable in app extensions, architecture problems and conditional loading.

        USAGE: swift package linkcheck [OPTIONS] [-- CHECK-OPTIONS]

        OPTIONS:
          --product NAME               Check this product (repeatable; default: every dynamic
                                       library and executable product).
          --configuration CONFIG       debug (default) or release.
          --html PATH                  Write the HTML report to PATH (default: the plugin's work
                                       folder; inside the package it needs
                                       --allow-writing-to-package-directory).
          --format FORMAT              Also print the report: text, json or sarif (standard output
                                       then holds the document alone).
          --help                       Show this help.
          -- CHECK-OPTIONS             Pass the rest to 'linkcheck check' (see 'linkcheck check --help'):
                                       --require-arch arm64, --baseline FILE, …

        The package's linkcheck.json, its modules' @available(…ApplicationExtension, unavailable)
        annotations, and the artifacts of its .binaryTarget()s (.xcframework, .artifactbundle, zips,
        as SwiftPM resolved them) are used. The plugin fails on an error finding or an input it
        could not read whole.

        """

    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let separator = arguments.firstIndex(of: "--")
        let ownArguments = separator.map { Array(arguments[..<$0]) } ?? arguments
        let toolArguments = separator.map { Array(arguments[($0 + 1)...]) } ?? []
        if ownArguments.contains("--help") || ownArguments.contains("-h") {
            print(Self.usage, terminator: "")
            return
        }
        var extractor = ArgumentExtractor(ownArguments)
        let productNames = extractor.extractOption(named: "product")
        let configurationName = extractor.extractOption(named: "configuration").last ?? "debug"
        let htmlOption = extractor.extractOption(named: "html").last
        let format = extractor.extractOption(named: "format").last
        guard extractor.remainingArguments.isEmpty else {
            throw PluginFailure(
                "unknown arguments \(extractor.remainingArguments.joined(separator: " ")); pass options for linkcheck check after --")
        }
        guard let configuration = ["debug": PackageManager.BuildConfiguration.debug, "release": .release][configurationName] else {
            throw PluginFailure("--configuration must be debug or release, not '\(configurationName)'")
        }
        if let format, !["text", "json", "sarif"].contains(format) {
            throw PluginFailure("--format must be text, json or sarif, not '\(format)'")
        }

        let products = try selectedProducts(context.package, names: productNames)
        var images: [String] = []
        for product in products {
            Diagnostics.progress("Building \(product.name) (\(configurationName))")
            let result = try packageManager.build(
                .product(product.name), parameters: .init(configuration: configuration, logging: .concise))
            guard result.succeeded else {
                Diagnostics.error(result.logText)
                throw PluginFailure("building \(product.name) failed; linkcheck did not run")
            }
            // The file the build reports, whatever its format (BuiltProducts).
            images += result.builtArtifacts
                .filter { $0.kind == .dynamicLibrary || $0.kind == .executable }
                .map { BuiltProducts.checkedPath(ofArtifact: $0.url.path) }
        }

        // The embedded frameworks the products link from dependency packages:
        // their dynamic library products, built beside the products under the
        // name the platform gives a dynamic library (the build reports only
        // the products it was asked for).
        if let productsFolder = images.first.map(BuiltProducts.productsFolder(of:)) {
            let libraries = dependencyPackages(of: context.package).flatMap(\.products).compactMap { product in
                (product as? LibraryProduct)?.kind == .dynamic ? product.name : nil
            }
            images += BuiltProducts.builtLibraries(libraries, in: productsFolder)
        }

        // What SwiftPM resolved for the binary targets: a vendor SDK is
        // checked before anything links it.
        images += binaryArtifacts(of: [context.package] + dependencyPackages(of: context.package))

        let linkcheck = try context.tool(named: "LinkCheckCLI").url
        let work = context.pluginWorkDirectoryURL
        // What every `linkcheck check` run here is given besides its format.
        var checkArguments: [String] = []
        let config = context.package.directoryURL.appendingPathComponent("linkcheck.json")
        if FileManager.default.fileExists(atPath: config.path) {
            checkArguments += ["--config", config.path]
        }
        if let rules = try extractAnnotationRules(context: context, linkcheck: linkcheck, into: work) {
            checkArguments += ["--rules", rules]
        }
        let html =
            htmlOption.map {
                URL(fileURLWithPath: $0, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath)).standardizedFileURL
                    .path
            }
            ?? work.appendingPathComponent("linkcheck-report.html").path
        checkArguments += toolArguments + Array(Set(images)).sorted()

        let run = try Self.run(linkcheck, ["check", "--format", "json", "--html", html] + checkArguments)
        // Exit status 2 with a report: some file could not be inspected (the
        // report names it); without one, nothing could be checked.
        guard run.status <= 2, let report = try? JSONSerialization.jsonObject(with: run.output) as? [String: Any] else {
            let message = String(decoding: run.error, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            if message.contains("cannot write the HTML report"), html.hasPrefix(context.package.directoryURL.path) {
                throw PluginFailure(
                    "\(message)\nwriting into the package directory needs `swift package --allow-writing-to-package-directory linkcheck …`")
            }
            throw PluginFailure("linkcheck check failed: \(message)")
        }
        let errors = Self.diagnose(report, packageDirectory: context.package.directoryURL.path)
        switch format {
        case "json"?:
            FileHandle.standardOutput.write(run.output)
        case let format?:
            let rendered = try Self.run(linkcheck, ["check", "--format", format] + checkArguments)
            guard rendered.status <= 2, !rendered.output.isEmpty else {
                throw PluginFailure("linkcheck check --format \(format) failed: \(String(decoding: rendered.error, as: UTF8.self))")
            }
            FileHandle.standardOutput.write(rendered.output)
        case nil:
            break
        }
        // Standard output is the document's alone in a machine format.
        if format == "json" || format == "sarif" {
            Diagnostics.progress("HTML report: \(html)")
        } else {
            print("linkcheck: HTML report: \(html)")
        }
        let summary = report["summary"] as? [String: Any] ?? [:]
        let failed = summary["failed"] as? Int ?? 0
        let incomplete = failed == 0 && summary["complete"] as? Bool == false
        if errors > 0 || failed > 0 || incomplete {
            let parts =
                (errors > 0 ? ["\(errors) error\(errors == 1 ? "" : "s")"] : [])
                + (failed > 0 ? ["\(failed) file\(failed == 1 ? "" : "s") it could not inspect"] : [])
                + (incomplete ? ["images it could read only in part"] : [])
            throw PluginFailure("linkcheck found \(parts.joined(separator: " and "))")
        }
    }

    /// The artifacts SwiftPM resolved for the binary targets
    /// (`.binaryTarget(name:path:)` and `(name:url:checksum:)`) of
    /// `packages`: an `.xcframework` folder or an `.artifactbundle`, where
    /// SwiftPM put it (a local one in the package, one unpacked from a zip
    /// or downloaded under `.build/artifacts/`); those not there (not
    /// resolved yet) are left out.
    func binaryArtifacts(of packages: [Package]) -> [String] {
        let paths = packages.flatMap(\.targets).compactMap { ($0 as? BinaryArtifactTarget)?.artifactURL.path }
        return Array(Set(paths)).sorted().filter { FileManager.default.fileExists(atPath: $0) }
    }

    /// The products to check: those named, else every dynamic library and
    /// executable product of the package.
    func selectedProducts(_ package: Package, names: [String]) throws -> [any Product] {
        let candidates = package.products.filter { product in
            if let library = product as? LibraryProduct { return library.kind == .dynamic }
            return product is ExecutableProduct
        }
        guard !names.isEmpty else { return candidates }
        return try names.map { name in
            guard let product = package.products.first(where: { $0.name == name }) else {
                throw PluginFailure("no product named '\(name)' (products: \(package.products.map(\.name).joined(separator: ", ")))")
            }
            return product
        }
    }

    /// The package's dependencies, transitively, without linkcheck's own
    /// package (which provides this plugin).
    func dependencyPackages(of root: Package) -> [Package] {
        var result: [Package] = []
        var seen: Set<String> = [root.id]
        var queue = root.dependencies.map(\.package)
        while let package = queue.popLast() {
            guard seen.insert(package.id).inserted, !package.targets.contains(where: { $0.name == "LinkCheckPlugin" }) else { continue }
            result.append(package)
            queue += package.dependencies.map(\.package)
        }
        return result
    }

    /// Symbol graphs of every Swift module of the package and its
    /// dependencies, turned into a rule pack by `linkcheck rules extract`;
    /// the pack's path, or `nil` when no module has an annotation.
    func extractAnnotationRules(context: PluginContext, linkcheck: URL, into work: URL) throws -> String? {
        var directories: [String] = []
        for package in [context.package] + dependencyPackages(of: context.package) {
            for target in package.targets where target is SwiftSourceModuleTarget {
                let graph = try packageManager.getSymbolGraph(for: target, options: .init(minimumAccessLevel: .public))
                directories.append(graph.directoryURL.path)
            }
        }
        guard !directories.isEmpty else { return nil }
        let output = work.appendingPathComponent("project-rules.json").path
        let run = try Self.run(linkcheck, ["rules", "extract", "--output", output] + directories.flatMap { ["--symbol-graph-dir", $0] })
        guard run.status == 0 else {
            throw PluginFailure("linkcheck rules extract failed: \(String(decoding: run.error, as: UTF8.self))")
        }
        return output
    }

    /// Emits one SwiftPM diagnostic per finding and notice; returns the
    /// number of error findings. A finding's diagnostic is the line
    /// `linkcheck check` prints for it (the JSON document's `text`: what,
    /// the call path, why), after the image's file name. A finding with a
    /// place in the source (the JSON document's `sourceLocation`, from a
    /// debug build) is a diagnostic at that file and line, for Xcode's issue
    /// navigator, and its message starts with the place, for `swift
    /// package`, which prints the message alone: `FILE:LINE:COLUMN: TEXT (in
    /// IMAGE)`, FILE relative to `packageDirectory` when it lies inside it.
    /// The same finding in several slices of a fat file (the JSON document's
    /// `file` and `slices`) is one diagnostic, at the file with its slices,
    /// as severe as the most severe slice's.
    static func diagnose(_ report: [String: Any], packageDirectory: String) -> Int {
        var order: [String] = []
        var shown: [String: [String: Any]] = [:]
        let rank = ["note": 0, "warning": 1, "error": 2]
        for finding in report["findings"] as? [[String: Any]] ?? [] {
            let slices = finding["slices"] as? [String] ?? []
            let key =
                [
                    finding["file"] as? String ?? finding["image"] as? String ?? "", finding["rule"] as? String ?? "",
                    finding["kind"] as? String ?? "", finding["symbol"] as? String ?? "",
                ]
                + (finding["chain"] as? [String] ?? []) + ["\u{1}"] + slices
            // Findings of one slice stay apart (no `slices`: a thin file).
            let id = slices.isEmpty ? "\(order.count)" : key.joined(separator: "\u{0}")
            if let kept = shown[id], rank[kept["severity"] as? String ?? ""] ?? 0 >= rank[finding["severity"] as? String ?? ""] ?? 0 {
                continue
            }
            if shown[id] == nil { order.append(id) }
            shown[id] = finding
        }
        var errors = 0
        for finding in order.compactMap({ shown[$0] }) {
            let file = finding["file"] as? String ?? finding["image"] as? String
            let slices = (finding["slices"] as? [String]).map { " (\($0.joined(separator: ", ")))" } ?? ""
            let name = file.map { URL(fileURLWithPath: $0).lastPathComponent } ?? "?"
            var (text, place, line) = ("\(name)\(slices): \(finding["text"] as? String ?? "?")", file, nil as Int?)
            if let source = finding["sourceLocation"] as? [String: Any], let sourceFile = source["file"] as? String,
                let sourceLine = source["line"] as? Int
            {
                let folder = packageDirectory.hasSuffix("/") ? packageDirectory : packageDirectory + "/"
                let shown = sourceFile.hasPrefix(folder) ? String(sourceFile.dropFirst(folder.count)) : sourceFile
                let column = (source["column"] as? Int).map { ":\($0)" } ?? ""
                text = "\(shown):\(sourceLine)\(column): \(finding["text"] as? String ?? "?") (in \(name)\(slices))"
                (place, line) = (sourceFile, sourceLine)
            }
            switch finding["severity"] as? String {
            case "error":
                errors += 1
                Diagnostics.error(text, file: place, line: line)
            case "warning": Diagnostics.warning(text, file: place, line: line)
            default: Diagnostics.remark(text, file: place, line: line)
            }
        }
        for notice in report["notices"] as? [String] ?? [] {
            Diagnostics.warning(notice, file: nil, line: nil)
        }
        for file in report["errors"] as? [[String: Any]] ?? [] {
            Diagnostics.error("cannot inspect: \(file["message"] as? String ?? "")", file: file["path"] as? String, line: nil)
        }
        return errors
    }

    /// Runs `executable` and collects its output.
    static func run(_ executable: URL, _ arguments: [String]) throws -> (status: Int32, output: Data, error: Data) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        // Drain standard error on another thread so neither pipe fills up.
        let errorData = ErrorOutput()
        let drained = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            errorData.data = error.fileHandleForReading.readDataToEndOfFile()
            drained.signal()
        }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        drained.wait()
        return (process.terminationStatus, outputData, errorData.data)
    }
}

/// A plugin failure with a message for the user.
struct PluginFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Standard error of a child process, filled by one thread and read after
/// it signalled.
final class ErrorOutput: @unchecked Sendable {
    var data = Data()
}
