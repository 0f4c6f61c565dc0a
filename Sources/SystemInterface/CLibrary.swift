// The one place linkcheck names its C library: Glibc on Linux (Musl in a
// static Linux SDK), Darwin on macOS. Every module imports SystemInterface
// instead, which re-exports the library (`open`, `pread`, `fstat`,
// `realpath`, `mkdtemp`, `opendir`, `O_CLOEXEC`, `O_NOFOLLOW`, `errno`,
// `strerror`, … are spelled alike on both) and gives the calls that differ
// between them one name each, below; each names its Glibc and its Darwin
// form.
#if canImport(Glibc)
@_exported import Glibc
#elseif canImport(Musl)
@_exported import Musl
#elseif canImport(Darwin)
@_exported import Darwin
import MachO
#endif

extension stat {
    /// When the file's contents last changed (`st_mtim` on Linux; Darwin
    /// names the field `st_mtimespec`), in seconds and nanoseconds since the
    /// epoch: compared before and after a read to tell a file rewritten in
    /// place.
    public var modificationTime: (seconds: Int, nanoseconds: Int) {
        #if canImport(Darwin)
        (Int(st_mtimespec.tv_sec), Int(st_mtimespec.tv_nsec))
        #else
        (Int(st_mtim.tv_sec), Int(st_mtim.tv_nsec))
        #endif
    }

    /// The device that holds the file (`st_dev`), as its bits: a `UInt64`
    /// on Linux, a signed 32-bit `dev_t` on Darwin.
    public var deviceNumber: UInt64 {
        #if canImport(Darwin)
        UInt64(UInt32(bitPattern: st_dev))
        #else
        UInt64(st_dev)
        #endif
    }
}

/// The real path of the running executable, however it was started (a
/// symbolic link, a relative path, `PATH`): `readlink(2)` of
/// `/proc/self/exe` on Linux; on Darwin `_NSGetExecutablePath(3)` (dyld's
/// answer, which may hold symbolic links and `..`) then `realpath(3)`.
/// `nil` when the system does not say.
public func runningExecutablePath() -> String? {
    #if canImport(Darwin)
    var size: UInt32 = 0
    _ = _NSGetExecutablePath(nil, &size)
    var buffer = [CChar](repeating: 0, count: Int(size) + 1)
    guard _NSGetExecutablePath(&buffer, &size) == 0, let real = realpath(buffer, nil) else { return nil }
    defer { free(real) }
    return String(cString: real)
    #else
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard count > 0 else { return nil }
    return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    #endif
}

/// Gives back the pages of `length` bytes from `start` (page-aligned) of a
/// read-only file mapping: `madvise(2)` with `MADV_DONTNEED`. On Linux the
/// pages leave the resident set at once and are read from the file again
/// if touched; Darwin's `madvise(MADV_DONTNEED)` (same name, same
/// constant) is advice the kernel may take later, which for a mapping that
/// is only read changes when memory is freed, never what is read.
public func discardMappedPages(_ start: UnsafeMutableRawPointer?, _ length: Int) {
    _ = madvise(start, length, MADV_DONTNEED)
}
