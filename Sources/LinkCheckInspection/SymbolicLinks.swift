import SystemInterface

/// What symbolic links on a path lead to, as discovery and the bundle
/// checks need it.
enum SymbolicLinks {
    /// `path` with every symbolic link, `.` and `..` resolved
    /// (`realpath(3)`), or `nil` when it cannot be (a link that dangles or
    /// loops, a missing file; `errno` says which).
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// What the symbolic link at `path` holds (`readlink(2)`), or `nil`
    /// when it is not a link or cannot be read.
    static func target(of path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count >= 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
