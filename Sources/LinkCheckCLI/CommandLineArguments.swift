import LinkCheckAnalysis

/// linkcheck's own argument parsing (no outside packages can be fetched):
/// each subcommand declares its options; `--name VALUE`, `--name=VALUE`,
/// repeatable options, flags, positionals, `--` to end options, and
/// `-h`/`--help` everywhere. Anything else is a ``UsageError`` (exit 2).
struct CommandSpec {
    struct Option {
        var name: String
        /// The value's placeholder (`FILE`), or `nil` for a flag.
        var value: String?
        var help: String
    }

    /// `check`, `rules list`, …
    var name: String
    var summary: String
    /// The positional arguments' placeholder, e.g. `PATH…`.
    var positionals: String
    var options: [Option]

    /// The `--help` text.
    var help: String {
        var lines = [
            "OVERVIEW: \(summary)", "",
            "USAGE: linkcheck \(name)\(options.isEmpty ? "" : " [OPTIONS]")\(positionals.isEmpty ? "" : " \(positionals)")",
        ]
        if !options.isEmpty {
            lines += ["", "OPTIONS:"]
            for option in options + [Option(name: "help", value: nil, help: "Show this help.")] {
                let spelled = "--\(option.name)" + (option.value.map { " \($0)" } ?? "")
                lines.append("  \(spelled.padding(toLength: 28, withPad: " ", startingAt: 0)) \(option.help)")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Parses `arguments` (the words after the subcommand's name).
    ///
    /// - Throws: ``UsageError`` for an unknown option, a missing value, or a
    ///   value given to a flag; ``HelpRequested`` for `-h`/`--help`.
    func parse(_ arguments: [String]) throws -> ParsedArguments {
        var parsed = ParsedArguments()
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let word = arguments[index]
            index += 1
            if optionsEnded || !word.hasPrefix("-") || word == "-" {
                parsed.positionals.append(word)
                continue
            }
            if word == "--" {
                optionsEnded = true
                continue
            }
            if word == "-h" || word == "--help" { throw HelpRequested(text: help) }
            let body = word.hasPrefix("--") ? word.dropFirst(2) : word.dropFirst()
            let name = String(body.prefix { $0 != "=" })
            let inline = body.contains("=") ? String(body.drop { $0 != "=" }.dropFirst()) : nil
            guard let option = options.first(where: { $0.name == name }), word.hasPrefix("--") else {
                throw UsageError(
                    "unknown option '\(word)' for 'linkcheck \(self.name)'\(suggestion(for: name)) (see 'linkcheck \(self.name) --help')")
            }
            guard option.value != nil else {
                if inline != nil { throw UsageError("option '--\(name)' takes no value") }
                parsed.flags.insert(name)
                continue
            }
            if let inline {
                parsed.values[name, default: []].append(inline)
            } else if index < arguments.count {
                parsed.values[name, default: []].append(arguments[index])
                index += 1
            } else {
                throw UsageError("option '--\(name)' needs a value \(option.value!)")
            }
        }
        return parsed
    }

    /// `; did you mean '--format'?` for a mistyped option name (`fromat`,
    /// or `format` given with one dash): the known options closest to it
    /// (``NameSuggestions``); empty when none is close.
    func suggestion(for name: String) -> String {
        let known = options.map(\.name) + ["help"]
        let closest = known.contains(name) ? [name] : NameSuggestions.closest(to: name, among: known)
        return NameSuggestions.question(closest.map { "--\($0)" }).map { "; \($0)" } ?? ""
    }
}

extension CommandSpec.Option {
    /// `--rules FILE`, shared by the commands that load rule packs.
    static let rules = Self(name: "rules", value: "FILE", help: "Add a rule pack (repeatable).")
    /// `--no-default-rules`.
    static let noDefaultRules = Self(name: "no-default-rules", value: nil, help: "Leave out the rule packs shipped in Rules/.")
}

/// The result of ``CommandSpec/parse(_:)``.
struct ParsedArguments {
    var values: [String: [String]] = [:]
    var flags: Set<String> = []
    var positionals: [String] = []

    /// Every value given for a repeatable option, in order.
    func all(_ name: String) -> [String] { values[name] ?? [] }

    /// The last value given for an option.
    func last(_ name: String) -> String? { values[name]?.last }

    func has(_ flag: String) -> Bool { flags.contains(flag) }
}

/// A command line linkcheck cannot act on: printed with the usage hint,
/// exit status 2.
struct UsageError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}

/// `--help` was given: print `text` and exit 0.
struct HelpRequested: Error {
    var text: String
}
