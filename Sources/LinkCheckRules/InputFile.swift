import Foundation

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

    /// The contents of the regular file at `path`.
    ///
    /// - Throws: ``Failure``.
    public static func read(_ path: String) throws(Failure) -> Data {
        var info = stat()
        if stat(path, &info) == 0 {
            switch info.st_mode & S_IFMT {
            case S_IFREG: break
            case S_IFDIR: throw Failure(reason: "is a directory")
            default: throw Failure(reason: "is not a regular file (a FIFO, socket or device)")
            }
        }
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw Failure(reason: (error as NSError).localizedFailureReason ?? error.localizedDescription)
        }
    }

    /// Why `path` cannot be searched as a folder: `does not exist`, `is not
    /// a directory`, or `cannot be read:` and the system's message; `nil`
    /// when it is a folder (symbolic links followed).
    public static func directoryFailure(_ path: String) -> Failure? {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let code = errno
            return Failure(reason: code == ENOENT || code == ENOTDIR ? "does not exist" : "cannot be read: \(String(cString: strerror(code)))")
        }
        return info.st_mode & S_IFMT == S_IFDIR ? nil : Failure(reason: "is not a directory")
    }
}
