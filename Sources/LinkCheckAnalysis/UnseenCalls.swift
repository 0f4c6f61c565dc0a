import LinkCheckImage

/// Why the calls inside an image cannot be seen, so that whether its code
/// calls an API it holds cannot be decided.
public enum UnseenCalls: Sendable, Equatable {
    /// Its call sites were asked for, and their analysis failed for this
    /// reason.
    case analysisFailed(String)
    /// Call sites are off in this run (`--no-call-sites`).
    case turnedOff
    /// Call sites are not analysed for the image's machine.
    case unsupported(Architecture)
    /// The image is a library found outside the scanned paths, whose code
    /// is not analysed.
    case notScanned
}
