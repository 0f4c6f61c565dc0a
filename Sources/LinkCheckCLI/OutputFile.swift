import Foundation
import SystemInterface

/// The outputs a user names: `--html`, `--write-baseline`, `rules extract
/// --output`.
enum OutputFile {
    /// Why an output could not be written, in words: `it is a folder`, `the
    /// folder out does not exist`, `Permission denied`, `No space left on
    /// device`.
    struct Failure: Error, CustomStringConvertible {
        var reason: String
        var description: String { reason }

        init(_ reason: String) { self.reason = reason }

        /// The system's message for `code`.
        init(errno code: Int32) { reason = String(cString: strerror(code)) }
    }

    /// Writes `data` to `path`. A regular file, or a new one, is replaced
    /// atomically (a reader never sees half an output: a temporary file in
    /// the same folder, renamed over it), through symbolic links, which stay,
    /// and keeps its permissions; an existing file is replaced only when it
    /// could be opened for writing. Anything else a path can name (a FIFO,
    /// `/dev/stdout`, a terminal) is opened and written to in place, never
    /// replaced.
    ///
    /// - Throws: ``Failure``.
    static func write(_ data: Data, to path: String) throws(Failure) {
        var info = stat()
        if stat(path, &info) == 0 {
            switch info.st_mode & S_IFMT {
            case S_IFDIR: throw Failure("it is a folder")
            case S_IFREG: break
            default:
                let descriptor = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC)
                guard descriptor >= 0 else { throw Failure(errno: errno) }
                try finish(DescriptorWriting.writeAll(data, to: descriptor), closing: descriptor)
                return
            }
        }
        let target = try resolved(path)
        let existed = stat(target, &info) == 0
        if existed {
            // rename(2) would replace a file the user cannot write to;
            // opening it (without truncating) asks the permission question.
            let probe = open(target, O_WRONLY | O_NOCTTY | O_CLOEXEC | O_NONBLOCK)
            guard probe >= 0 else { throw Failure(errno: errno) }
            close(probe)
        }
        let (folder, name) = split(target)
        var template = Array("\(folder == "/" ? "" : folder)/.\(name).linkcheck-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else {
            throw Failure("cannot create a temporary file in \(folder) to replace it with: \(String(cString: strerror(errno)))")
        }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        do throws(Failure) {
            let mode = existed ? info.st_mode & 0o7777 : 0o666 & ~currentUmask()
            guard fchmod(descriptor, mode) == 0 else {
                let code = errno
                close(descriptor)
                throw Failure(errno: code)
            }
            try finish(DescriptorWriting.writeAll(data, to: descriptor), closing: descriptor)
            guard rename(temporary, target) == 0 else { throw Failure(errno: errno) }
        } catch {
            unlink(temporary)
            throw error
        }
    }

    /// Closes `descriptor` after a write whose `errno` is `failure`; a
    /// failed `close(2)` (a full disk on NFS reports there) fails too.
    private static func finish(_ failure: Int32?, closing descriptor: Int32) throws(Failure) {
        let closed = close(descriptor) == 0 ? nil : errno
        if let code = failure ?? closed { throw Failure(errno: code) }
    }

    /// The file `path` names once symbolic links are followed (also a
    /// dangling link's target, which the write creates), as an absolute
    /// path whose folder exists.
    ///
    /// - Throws: ``Failure`` when the folder does not exist or is not one,
    ///   or links loop.
    static func resolved(_ path: String) throws(Failure) -> String {
        guard !path.hasSuffix("/") else { throw Failure("it names a folder (it ends with '/')") }
        var current = path
        for _ in 0..<40 {
            if let real = realpath(current, nil) {
                defer { free(real) }
                return String(cString: real)
            }
            let (folder, name) = split(current)
            var link = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let length = readlink(current, &link, link.count - 1)
            if length > 0 {
                // A dangling link: write where it points.
                let text = String(decoding: link[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
                current = text.hasPrefix("/") ? text : (folder.isEmpty ? text : "\(folder)/\(text)")
                continue
            }
            guard let real = realpath(folder.isEmpty ? "." : folder, nil) else {
                throw Failure(errno == ENOENT ? "the folder \(folder) does not exist" : "\(folder): \(String(cString: strerror(errno)))")
            }
            defer { free(real) }
            let base = String(cString: real)
            return base == "/" ? "/\(name)" : "\(base)/\(name)"
        }
        throw Failure(errno: ELOOP)
    }

    /// `path` split at its last `/`: `("out", "report.html")`, `("/",
    /// "x")`, `("", "x")` for a name alone. (Foundation's
    /// `deletingLastPathComponent` traps on a name alone on Linux.)
    static func split(_ path: String) -> (folder: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return ("", path) }
        let folder = path[..<slash]
        return (folder.isEmpty ? "/" : String(folder), String(path[path.index(after: slash)...]))
    }

    /// The process's file-creation mask (`umask(2)` read by setting it and
    /// setting it back).
    private static func currentUmask() -> mode_t {
        let mask = umask(0)
        umask(mask)
        return mask
    }
}
