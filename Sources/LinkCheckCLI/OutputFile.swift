import Foundation

/// The outputs a user names: `--html`, `--write-baseline`, `rules extract
/// --output`.
enum OutputFile {
    /// Writes `data` to `path`. A regular file, or a new one, is replaced
    /// atomically (a reader never sees half an output), through symbolic
    /// links, which stay. Anything else a path can name (a FIFO,
    /// `/dev/stdout`, a terminal) is opened and written to in place, never
    /// replaced.
    static func write(_ data: Data, to path: String) throws {
        var info = stat()
        if stat(path, &info) == 0, ![S_IFREG, S_IFDIR].contains(info.st_mode & S_IFMT) {
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            defer { try? handle.close() }
            try handle.write(contentsOf: data)
            return
        }
        try data.write(to: URL(fileURLWithPath: path).resolvingSymlinksInPath(), options: .atomic)
    }

    /// Why writing to `path` failed, in words (Foundation's errors on Linux
    /// say "NSCocoaErrorDomain error 512"): a directory, a missing folder,
    /// or the system's message.
    static func failure(_ path: String, _ error: Error) -> String {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            return "it is a directory"
        }
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty && !FileManager.default.fileExists(atPath: folder) { return "the folder \(folder) does not exist" }
        if let posix = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError, posix.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(posix.code)))
        }
        return error.localizedDescription
    }
}
