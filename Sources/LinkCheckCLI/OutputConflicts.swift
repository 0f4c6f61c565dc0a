import LinkCheckInspection
import SystemInterface

/// Outputs never replace inputs: before any work, a run refuses an output
/// (`--html`, `--write-baseline`, `rules extract --output`) that names a
/// file it reads (an input given, an image found under an input folder,
/// the configuration, a rule pack, the baseline, a symbol graph), or the
/// file another output names; and before writing anything, `check` refuses
/// one that names a library it read while resolving dependencies
/// (``Report/filesRead``), which only then is known.
///
/// Files are compared by device and inode (a hard link, a symbolic link or
/// `./x` for `x` is the same file) and, for files that do not exist yet, by
/// the path they resolve to. A new file under an input folder is allowed
/// (`--html dir/report.html dir`): it is written after the files are
/// inspected, and it is not an image, so a later run skips it. Outputs that
/// are not regular files (a FIFO, `/dev/stdout`) replace nothing and are not
/// compared.
enum OutputConflicts {
    /// An output option and the path given to it: `--html`, `report.html`.
    struct Output {
        var option: String
        var path: String
    }

    /// A file the run reads and what it is to the run, for the message:
    /// `the input`, `the configuration`, `the rule pack`, `the baseline`,
    /// `the symbol graph`.
    struct Read {
        var role: String
        var path: String
    }

    /// The outputs `parsed` names among `options` (without `--`).
    ///
    /// - Throws: ``UsageError`` for an empty path.
    static func outputs(_ parsed: ParsedArguments, _ options: [String]) throws -> [Output] {
        try options.compactMap { name in
            guard let path = parsed.last(name) else { return nil }
            guard !path.isEmpty else { throw UsageError("--\(name) needs a FILE, not an empty path") }
            return Output(option: "--\(name)", path: path)
        }
    }

    /// Refuses `outputs` that name one of the files in `reads`, an ELF
    /// image `images` found, or the same file as another output.
    ///
    /// - Throws: ``UsageError`` naming the output and what it would
    ///   replace (exit status 2).
    static func refuse(_ outputs: [Output], reads: [Read], images: Discovery? = nil) throws {
        let located = outputs.compactMap { output in Location(output.path).map { (output, $0) } }
        for (index, (output, location)) in located.enumerated() {
            for (other, otherLocation) in located[..<index] where location.isSame(as: otherLocation) {
                throw UsageError("\(other.option) \(other.path) and \(output.option) \(output.path) name the same file")
            }
            for read in reads where Location(read.path).map(location.isSame) == true {
                throw UsageError("\(output.option) \(output.path) would replace \(read.role) \(read.path), which this run reads")
            }
            if let identity = location.identity, let image = images?.path(of: identity), ImageInspector.isImage(path: image) {
                throw UsageError("\(output.option) \(output.path) would replace the image \(image), which this run checks")
            }
        }
    }

    /// Where a path leads: the identity of the regular file there, and the
    /// absolute path it resolves to.
    private struct Location {
        var identity: FileIdentity?
        var resolved: String?

        /// `nil` for a path that names something other than a regular
        /// file (a folder, a FIFO, a device): it replaces nothing.
        init?(_ path: String) {
            var info = stat()
            if stat(path, &info) == 0 && info.st_mode & S_IFMT != S_IFREG { return nil }
            identity = FileIdentity(regularFileAt: path)
            resolved = try? OutputFile.resolved(path)
        }

        func isSame(as other: Location) -> Bool {
            if let identity, identity == other.identity { return true }
            if let resolved, resolved == other.resolved { return true }
            return false
        }
    }
}
