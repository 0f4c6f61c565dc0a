// libFuzzer entry point for the binary inspector: each input is inspected as
// an ELF file (ImageInspector, keeping every symbol and keeping a selection)
// and, for x86_64/aarch64, disassembled for call sites (CallSiteAnalyzer).
// Built with the inspector's sources by Fuzz/run.sh; not part of the package.
#if canImport(Glibc)
import Glibc
#endif

/// `memfd_create(2)`: an anonymous in-memory file, so no input is ever
/// written to disk. (Glibc declares it only under _GNU_SOURCE, which the
/// Swift Glibc module does not set.)
@_silgen_name("memfd_create")
func memfd_create(_ name: UnsafePointer<CChar>, _ flags: UInt32) -> Int32

@_cdecl("LLVMFuzzerTestOneInput")
public func linkcheckFuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let fd = memfd_create("linkcheck-fuzz", 0)
    guard fd >= 0 else { return 0 }
    defer { close(fd) }
    var written = 0
    while written < size {
        let result = write(fd, data + written, size - written)
        guard result > 0 else { return 0 }
        written += result
    }
    let path = "/proc/self/fd/\(fd)"
    if let image = try? ImageInspector.inspect(path: path) {
        _ = image.imports.count + image.exports.count + image.readOnlyStrings.count
        _ = try? CallSiteAnalyzer.analyze(path: path)
    }
    // The raw-name path a check without call sites takes: every byte of
    // every name handed to the selection is read.
    _ = try? ImageInspector.inspect(path: path, symbols: .only { name in name.reduce(0, &+) & 1 == 0 })
    return 0
}
