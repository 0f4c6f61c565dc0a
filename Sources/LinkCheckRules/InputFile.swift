import Foundation
import SystemInterface

/// Reading the JSON files linkcheck is given (rule packs, symbol graphs,
/// `linkcheck.json`, baselines): only a regular file is opened, so a FIFO
/// cannot block the run, and a failure says what is wrong in words. Also
/// the check that a folder given to search (`--search-path`,
/// `searchPaths`) is one.
public enum InputFile {
    /// Why a file could not be read: `is a directory`, `is not a regular
    /// file (a FIFO, socket or device)`, or the system's message.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var reason: String
        public var description: String { reason }
    }

    /// The contents of the regular file at `path` (`open(2)` with
    /// `O_NONBLOCK`, so that a FIFO put there meanwhile cannot block,
    /// `fstat(2)`, `read(2)`).
    ///
    /// - Throws: ``Failure``.
    public static func read(_ path: String) throws(Failure) -> Data {
        var info = stat()
        if stat(path, &info) == 0 { try requireRegular(info) }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
        guard descriptor >= 0 else { throw Failure(errno: errno) }
        defer { close(descriptor) }
        guard fstat(descriptor, &info) == 0 else { throw Failure(errno: errno) }
        try requireRegular(info)
        return try readToEnd(descriptor)
    }

    /// Why `path` cannot be searched as a folder: `does not exist`, `is not
    /// a directory`, or `cannot be read:` and the system's message; `nil`
    /// when it is a folder (symbolic links followed).
    public static func directoryFailure(_ path: String) -> Failure? {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let code = errno
            return Failure(
                reason: code == ENOENT || code == ENOTDIR ? "does not exist" : "cannot be read: \(String(cString: strerror(code)))")
        }
        return info.st_mode & S_IFMT == S_IFDIR ? nil : Failure(reason: "is not a directory")
    }

    private static func requireRegular(_ info: stat) throws(Failure) {
        switch info.st_mode & S_IFMT {
        case S_IFREG: return
        case S_IFDIR: throw Failure(reason: "is a directory")
        default: throw Failure(reason: "is not a regular file (a FIFO, socket or device)")
        }
    }
}

extension InputFile.Failure {
    /// The system's message for `code`: `No such file or directory`,
    /// `Permission denied`.
    init(errno code: Int32) {
        reason = String(cString: strerror(code))
    }
}

/// Everything `descriptor` reads until end of file (`read(2)`, again after
/// `EINTR`).
private func readToEnd(_ descriptor: Int32) throws(InputFile.Failure) -> Data {
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let count = read(descriptor, &buffer, buffer.count)
        if count > 0 {
            data.append(contentsOf: buffer[..<count])
        } else if count == 0 {
            return data
        } else if errno != EINTR {
            throw InputFile.Failure(errno: errno)
        }
    }
}
