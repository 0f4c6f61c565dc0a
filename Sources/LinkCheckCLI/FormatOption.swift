import LinkCheckReports

/// `--format FORMAT` of a command that prints a report: its help and its
/// value come from the command's ``OutputFormat``.
extension OutputFormat {
    /// The option, with the formats and the default in its help.
    static var option: CommandSpec.Option {
        .init(name: "format", value: "FORMAT", help: help)
    }

    /// The `--format` given (the last), or the default.
    ///
    /// - Throws: ``UsageError`` for a value that is no case.
    static func parse(_ parsed: ParsedArguments) throws -> Self {
        guard let value = parsed.last("format") else { return fallback }
        guard let format = Self(rawValue: value) else { throw UsageError("unknown format '\(value)' (\(names))") }
        return format
    }
}
