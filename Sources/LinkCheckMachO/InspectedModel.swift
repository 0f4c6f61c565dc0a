import SystemInterface

/// The model of the largest Mach-O file inspection parsed
/// (``MachOReader/read(path:strings:symbols:)``), handed over to the next
/// read of that file (``MachOReader/withImage(_:_:)``, for its code), which
/// would otherwise parse it again: the file whose parse costs most, in an
/// app its executable (the benchmark's 64 MB app: 155M instructions a
/// parse, an eighth of its check).
///
/// One model at most, so memory does not grow with the files a run reads;
/// only of a file mapped for its size (``FileContents/largestReadFile``);
/// handed over once, and only to a read of the same version of the file
/// (``FileVersion``: device, inode, size and modification time, and that
/// modification settled before inspection opened it, so that no rewrite
/// since can have left them all as they were).
enum InspectedModel {
    private struct Kept {
        var path: String
        var version: FileVersion
        var file: MachOFile
    }

    nonisolated(unsafe) private static var kept: Kept?
    nonisolated(unsafe) private static let lock: UnsafeMutablePointer<pthread_mutex_t> = {
        let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        pthread_mutex_init(lock, nil)
        return lock
    }()

    /// Keeps `file`, read from `path` as `version`, when it is larger than
    /// the file kept (if any) and its version settled.
    static func offer(_ file: MachOFile, path: String, version: FileVersion) {
        guard version.isSettled, version.size >= FileContents.largestReadFile else { return }
        locked {
            if (kept?.version.size ?? 0) < version.size { kept = Kept(path: path, version: version, file: file) }
        }
    }

    /// The model kept of the file at `path` in version `version`, given up
    /// by the keeper; `nil` when none is kept of that file and version.
    static func take(path: String, version: FileVersion) -> MachOFile? {
        locked {
            guard let held = kept, held.path == path, held.version == version else { return nil }
            kept = nil
            return held.file
        }
    }

    private static func locked<Value>(_ body: () -> Value) -> Value {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return body()
    }
}
