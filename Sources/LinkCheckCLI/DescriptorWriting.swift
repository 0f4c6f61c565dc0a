import SystemInterface

/// Writing bytes to a file descriptor until all are written, the way every
/// output of linkcheck is written (standard output and error, reports,
/// baselines, rule packs), so that a failure is an `errno` to report rather
/// than a trap.
enum DescriptorWriting {
    /// Writes all of `bytes` to `descriptor` with `write(2)`, again after
    /// `EINTR` and after a short write, waiting with `poll(2)` when a
    /// non-blocking descriptor is full (`EAGAIN`).
    ///
    /// - Returns: `nil` when every byte was written, else the `errno` of the
    ///   write that failed (`ENOSPC` for a full disk, `EBADF` for a closed
    ///   descriptor, `EPIPE` when the reader has gone and `SIGPIPE` is
    ///   ignored).
    static func writeAll(_ bytes: some Sequence<UInt8>, to descriptor: Int32) -> Int32? {
        let buffer = Array(bytes)
        return buffer.withUnsafeBytes { raw -> Int32? in
            var offset = 0
            while offset < raw.count {
                let written = write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if written >= 0 {
                    offset += written
                    continue
                }
                let code = errno
                switch code {
                case EINTR: continue
                case EAGAIN, EWOULDBLOCK:
                    var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&ready, 1, -1)
                default: return code
                }
            }
            return nil
        }
    }
}
