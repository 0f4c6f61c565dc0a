import Foundation
import LinkCheckTestSupport
import Testing

/// A write that fails (a full disk, a closed descriptor, a reader that has
/// gone) is exit status 2 with a one-line message where one can be written,
/// never a signal: `FileHandle.write` used to trap (SIGILL, exit 132).
@Suite struct FailedWriteTests {
    static let library = "/opt/swift/usr/lib/swift/linux/libBlocksRuntime.so"

    /// Runs linkcheck through `sh -c 'exec linkcheck ARGS REDIRECTION'`, so
    /// that the status (or signal) is linkcheck's own.
    static func linkcheck(_ arguments: [String], redirecting redirection: String) throws -> CommandOutput {
        try Command.capture("/bin/sh", ["-c", "exec \"$0\" \"$@\" \(redirection)", Fixtures.linkcheckExecutable] + arguments)
    }

    @Test func writingToDevFullExitsTwoWithoutASignal() throws {
        let version = try Self.linkcheck(["--version"], redirecting: ">/dev/full")
        #expect(!version.killedBySignal)
        #expect(version.status == 2)
        #expect(version.standardError == "linkcheck: error: cannot write to standard output: No space left on device\n")
        // A clean check (findings say 0) whose report is lost is still 2.
        let check = try Self.linkcheck(["check", Self.library], redirecting: ">/dev/full")
        #expect(!check.killedBySignal)
        #expect(check.status == 2)
        #expect(check.standardError == "linkcheck: error: cannot write to standard output: No space left on device\n")
    }

    @Test func aClosedStandardOutputExitsTwoWithoutASignal() throws {
        for arguments in [["--version"], ["check", Self.library], ["check", "--format", "json", Self.library]] {
            let output = try Self.linkcheck(arguments, redirecting: ">&-")
            #expect(!output.killedBySignal, "\(arguments)")
            #expect(output.status == 2, "\(arguments)")
            #expect(output.standardError == "linkcheck: error: cannot write to standard output: it is closed\n")
        }
    }

    @Test func aFullStandardErrorExitsTwoWithoutASignal() throws {
        // graph names a missing input on stderr and would exit 0.
        let output = try Self.linkcheck(["graph", Self.library, "/nonexistent/libgone.so"], redirecting: "2>/dev/full")
        #expect(!output.killedBySignal)
        #expect(output.status == 2)
        #expect(output.standardOutput.hasPrefix("digraph linkcheck {\n"))
        let closed = try Self.linkcheck(["check", "--bogus"], redirecting: "2>&-")
        #expect(!closed.killedBySignal)
        #expect(closed.status == 2)
    }

    @Test func aReaderThatHasGoneIsExitTwoNotSIGPIPE() throws {
        var descriptors: [Int32] = [0, 0]
        try #require(pipe(&descriptors) == 0)
        close(descriptors[0])  // no reader: every write is EPIPE (or SIGPIPE)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Fixtures.linkcheckExecutable)
        process.arguments = ["check", "--format", "json", Self.library]
        process.standardOutput = FileHandle(fileDescriptor: descriptors[1], closeOnDealloc: true)
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 2)
        #expect(String(decoding: message, as: UTF8.self) == "linkcheck: error: cannot write to standard output: Broken pipe\n")
    }
}
