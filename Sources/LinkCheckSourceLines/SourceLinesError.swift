/// Why the source lines of an image could not be read. The call sites keep
/// their findings; they just have no source.
public enum SourceLinesError: Error, Sendable, Equatable {
    /// The image's file could not be opened or read again (moved, changed,
    /// not readable); `reason` says why.
    case unreadable(path: String, reason: String)
    /// The image's debug information is there but cannot be read: the DWARF
    /// library's message (`dwarf_errmsg`), naming the structure when known.
    case malformedDebugInfo(path: String, reason: String)
}

extension SourceLinesError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .unreadable(let path, let reason): "\(path): cannot read its source lines: \(reason)"
        case .malformedDebugInfo(let path, let reason): "\(path): unreadable debug information: \(reason)"
        }
    }
}
