import Foundation
import SystemInterface

/// Standard output or standard error, written with `write(2)`.
///
/// `FileHandle.write(_:)` traps (SIGILL, exit 132) when a write fails: a
/// full disk (`> /dev/full`), a closed descriptor (`>&-`), a reader that has
/// gone (`| head -1`, `EPIPE` once ``prepareForWriting()`` has set SIGPIPE
/// aside). Here the first failure is recorded and later writes to that
/// stream are dropped (so a report is never written with a hole in it);
/// ``exitStatus(_:)`` turns a recorded failure into exit status 2 with a
/// one-line message on standard error when that still works.
final class StandardStream: @unchecked Sendable {
    static let output = StandardStream(descriptor: STDOUT_FILENO, name: "standard output")
    static let error = StandardStream(descriptor: STDERR_FILENO, name: "standard error")

    let descriptor: Int32
    /// `standard output`, for messages.
    let name: String
    private let lock = NSLock()
    private var failedErrno: Int32?

    private init(descriptor: Int32, name: String) {
        self.descriptor = descriptor
        self.name = name
    }

    /// The `errno` of the first write that failed, if one did.
    var failure: Int32? { lock.withLock { failedErrno } }

    /// Writes `text` as UTF-8, unless an earlier write to this stream failed.
    func write(_ text: String) {
        lock.withLock {
            guard failedErrno == nil else { return }
            failedErrno = DescriptorWriting.writeAll(text.utf8, to: descriptor)
        }
    }

    /// Makes failed writes reportable; call first, before anything is
    /// opened or written. SIGPIPE is ignored, so a write to a pipe whose
    /// reader has gone fails with `EPIPE` instead of killing the process.
    /// A standard descriptor that is closed (`>&-`) is taken by `/dev/null`
    /// opened the other way round, so that writes to it still fail
    /// (`EBADF`) and nothing opened later (an inspected file, the eventfd of
    /// Dispatch's thread pool) can become descriptor 1 or 2 and be written
    /// to as standard output.
    static func prepareForWriting() {
        signal(SIGPIPE, SIG_IGN)
        for (descriptor, flags) in [(STDIN_FILENO, O_WRONLY), (STDOUT_FILENO, O_RDONLY), (STDERR_FILENO, O_RDONLY)]
        where fcntl(descriptor, F_GETFD) == -1 {
            // open(2) returns the lowest free descriptor: this one.
            let opened = open("/dev/null", flags)
            if opened >= 0 && opened != descriptor { close(opened) }
        }
    }

    /// The status to exit with: `status`, or 2 when a write to standard
    /// output or standard error failed (the run's report, or a message
    /// about it, was lost), after saying so on standard error if it can.
    static func exitStatus(_ status: Int32) -> Int32 {
        if let code = output.failure {
            error.write("linkcheck: error: cannot write to \(output.name): \(reason(code))\n")
        }
        return output.failure != nil || error.failure != nil ? 2 : status
    }

    /// `errno` in words; a closed stream says so.
    static func reason(_ code: Int32) -> String {
        code == EBADF ? "it is closed" : String(cString: strerror(code))
    }
}
