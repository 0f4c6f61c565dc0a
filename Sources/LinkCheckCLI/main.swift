import Foundation
import LinkCheckAnalysis
import LinkCheckInspection

/// linkcheck's entry point: picks the subcommand and maps outcomes to exit
/// statuses (0 no error finding, 1 error findings, 2 usage, configuration
/// or input error).
let overview = """
    OVERVIEW: linkcheck finds frameworks unsafe for app extensions in ELF shared objects and
    Mach-O images: files, folders, .app, .appex, .framework, .xcframework, .ipa.

    USAGE: linkcheck <subcommand> [OPTIONS]

    SUBCOMMANDS:
      check      Check images against the rule packs, roles and architectures.
      inspect    Show what linkcheck reads from ELF and Mach-O files.
      graph      Print the link graph (Graphviz DOT or JSON).
      rules      List, explain, validate or extract rules.

    OPTIONS:
      --version  Print the version.
      --help     Show this help ('linkcheck <subcommand> --help' for each).

    """

/// Writes `text` to standard output (``StandardStream``: a failed write
/// makes the exit status 2, never a signal).
func write(_ text: String) {
    StandardStream.output.write(text)
}

/// Writes `line` and a newline to standard error.
func printError(_ line: String) {
    StandardStream.error.write(line + "\n")
}

func runCommandLine(_ arguments: [String]) -> Int32 {
    guard let command = arguments.first else {
        printError("linkcheck: error: missing subcommand")
        printError(overview)
        return 2
    }
    let rest = Array(arguments.dropFirst())
    do {
        switch command {
        case "check": return try CheckCommand.run(rest)
        case "inspect": return try InspectCommand.run(rest)
        case "rules": return try RulesCommand.run(rest)
        case "graph": return try GraphCommand.run(rest)
        case "--version", "version":
            write("linkcheck \(linkcheckVersion)\n")
            return 0
        case "-h", "--help", "help":
            write(overview)
            return 0
        default:
            throw UsageError("unknown subcommand '\(command)' (see 'linkcheck --help')")
        }
    } catch let help as HelpRequested {
        write(help.text)
        return 0
    } catch let usage as UsageError {
        printError("linkcheck: error: \(usage.message)")
        return 2
    } catch {
        printError("linkcheck: error: \(error)")
        return 2
    }
}

StandardStream.prepareForWriting()
UnpackedArchive.removeAllOnTermination()
exit(StandardStream.exitStatus(runCommandLine(Array(CommandLine.arguments.dropFirst()))))
