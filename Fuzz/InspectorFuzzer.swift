// libFuzzer entry point for the binary readers: each input is inspected
// with the reader its magic picks (ImageInspector: ELF or Mach-O, keeping
// every symbol and keeping a selection), disassembled for call sites where
// they are analysed (CodeIndex), and read as a Mach-O file from memory too
// (MachOFile). Built against the engine's modules by Fuzz/run.sh; not part
// of the package.
#if canImport(Glibc)
import Glibc
#endif
import LinkCheckCodeIndex
import LinkCheckImage
import LinkCheckInspection
import LinkCheckMachO

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
    for image in (try? ImageInspector.inspect(path: path)) ?? [] {
        _ = image.imports.count + image.exports.count + image.stringLiterals.count + image.selectorReferences.count
        _ = try? CodeIndex.callSites(of: image)
    }
    // The raw-name path a check without call sites takes: every byte of
    // every name handed to the selection is read.
    _ = try? ImageInspector.inspect(path: path, symbols: .only { name in name.reduce(0, &+) & 1 == 0 })
    // The Mach-O reader: everything it reads is touched.
    if let file = try? MachOFile(bytes: Array(UnsafeBufferPointer(start: data, count: size)), path: "fuzz-input") {
        for image in file.images {
            _ = image.imports.count + image.exports.count + image.bindings.count + image.rebases.count
                + image.symbolStubs.count + image.selectorReferences.count + image.classReferences.count
                + image.warnings.count + image.dependencies.count
        }
    }
    _ = try? MachOFile(path: path, strings: ["UIApplication", "sharedApplication", "TRUEPREDICATE"])
    return 0
}
