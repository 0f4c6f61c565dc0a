import Foundation

/// What a finished command printed and returned.
public struct CommandOutput: Sendable {
    /// The exit status, or the signal's number when ``killedBySignal``.
    public var status: Int32
    public var standardOutput: String
    public var standardError: String
    /// The process died of a signal (a trap is SIGILL, a closed pipe SIGPIPE).
    public var killedBySignal = false
}

/// A command that exited non-zero where success was required.
public struct CommandFailure: Error, CustomStringConvertible {
    public var command: String
    public var output: CommandOutput

    public var description: String {
        "\(command) exited \(output.status)\n\(output.standardError)\(output.standardOutput.suffix(2000))"
    }
}

/// Runs programs for the tests.
public enum Command {
    /// Runs `executable` with `arguments` and returns its status and output,
    /// whatever the status. Output is read to the end before waiting.
    public static func capture(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
        currentDirectory: URL? = nil
    ) throws -> CommandOutput {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable.hasPrefix("/") ? executable : "/usr/bin/env")
        process.arguments = executable.hasPrefix("/") ? arguments : [executable] + arguments
        if let environment {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Read stderr on another thread so neither pipe can fill and block.
        let errorData = ErrorBuffer()
        let reader = Thread { errorData.data = stderr.fileHandleForReading.readDataToEndOfFile() }
        reader.start()
        let outData = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while !errorData.done { usleep(1000) }
        return CommandOutput(
            status: process.terminationStatus,
            standardOutput: String(decoding: outData, as: UTF8.self),
            standardError: String(decoding: errorData.data, as: UTF8.self),
            killedBySignal: process.terminationReason == .uncaughtSignal)
    }

    /// Like ``capture(_:_:environment:currentDirectory:)`` but throws
    /// ``CommandFailure`` on a non-zero status.
    @discardableResult
    public static func run(_ executable: String, _ arguments: [String]) throws -> CommandOutput {
        let output = try capture(executable, arguments)
        guard output.status == 0 else {
            throw CommandFailure(command: ([executable] + arguments).joined(separator: " "), output: output)
        }
        return output
    }

    /// Runs the built `linkcheck` with `arguments`.
    public static func linkcheck(_ arguments: [String], environment: [String: String]? = nil) throws -> CommandOutput {
        try capture(Fixtures.linkcheckExecutable, arguments, environment: environment)
    }
}

private final class ErrorBuffer: @unchecked Sendable {
    private let lock = NSLock()
    private var stored = Data()
    private var finished = false

    var data: Data {
        get { lock.withLock { stored } }
        set {
            lock.withLock {
                stored = newValue; finished = true
            }
        }
    }

    var done: Bool { lock.withLock { finished } }
}
