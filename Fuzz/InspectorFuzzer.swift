// libFuzzer entry point for the binary readers. Each input is:
//
// - inspected with the reader its magic picks (ImageInspector: ELF or
//   Mach-O, keeping every symbol and keeping a selection), disassembled for
//   call sites where they are analysed (CodeIndex), and read as a Mach-O
//   file from memory too (MachOFile);
// - read as a DWARF-carrying Mach-O file (DWARFSegment: a dSYM's DWARF file,
//   or an image or object with its own __DWARF segment), each slice's
//   sections decoded by the DWARF reader (DWARFSourceLookup) for a spread of
//   addresses (addressesToLookUp);
// - read as the object files a debug map names (ObjectDWARF: the object, or
//   each member of a static archive, its __DWARF relocated), decoded the
//   same way;
// - for each Mach-O image, its debug map (DebugMap, from the N_OSO stabs)
//   searched for the addresses, and the source of those addresses as a
//   report asks for it (SourceLines: a dSYM, else the debug map's object
//   files, else the image's own __DWARF; damage there is a note).
//
// Built against the engine's modules by Fuzz/run.sh; not part of the
// package.
#if canImport(Glibc)
import Glibc
#endif
import LinkCheckCodeIndex
import LinkCheckImage
import LinkCheckInspection
import LinkCheckMachO
import LinkCheckSourceLines

/// `memfd_create(2)`: an anonymous in-memory file, so no input is ever
/// written to disk. (Glibc declares it only under _GNU_SOURCE, which the
/// Swift Glibc module does not set.)
@_silgen_name("memfd_create")
func memfd_create(_ name: UnsafePointer<CChar>, _ flags: UInt32) -> Int32

/// At most this many archive members of one input are read as debug-map
/// object files.
let archiveMemberLimit = 4

/// The addresses looked up in an input's DWARF: a few fixed ones (address 0,
/// where an object's code starts, and where an arm64 image's `__text`
/// starts), and each of the first symbols' address and the two instructions
/// after it. A dSYM and an object file carry the symbols of the code their
/// DWARF describes, so these fall inside its units' ranges.
func addressesToLookUp(_ images: [MachOImage]) -> Set<UInt64> {
    var addresses: Set<UInt64> = [0, 0x10, 0x100, 0x1000, 0x4000, 0x4010, 0x8000, 0x1_0000_4000]
    for symbol in images.lazy.flatMap(\.symbols).prefix(80) {
        for step: UInt64 in [0, 4, 8] { addresses.insert(symbol.value &+ step) }
    }
    return addresses
}

/// Decodes `sections` for the source of `addresses`, as the Mach-O source
/// lines do.
func lookUpSources(in sections: DWARFSections, _ addresses: Set<UInt64>) {
    if let sources = try? DWARFSourceLookup.sources(of: addresses, in: sections) {
        _ = sources.values.reduce(0) { $0 + $1.inlinedInto.count + ($1.function?.utf8.count ?? 0) }
    }
}

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
    let inspected = (try? ImageInspector.inspect(path: path)) ?? []
    for image in inspected {
        _ = image.imports.count + image.exports.count + image.stringLiterals.count + image.selectorReferences.count
        _ = try? CodeIndex.callSites(of: image)
    }
    // The raw-name path a check without call sites takes: every byte of
    // every name handed to the selection is read.
    _ = try? ImageInspector.inspect(path: path, options: Inspection.Options(symbols: .only { name in name.reduce(0, &+) & 1 == 0 }))
    // The Mach-O reader: everything it reads is touched.
    let machOImages = (try? MachOFile(bytes: Array(UnsafeBufferPointer(start: data, count: size)), path: "fuzz-input"))?.images ?? []
    for image in machOImages {
        _ =
            image.imports.count + image.exports.count + image.bindings.count + image.rebases.count
            + image.symbolStubs.count + image.selectorReferences.count + image.classReferences.count
            + image.warnings.count + image.dependencies.count
    }
    _ = try? MachOFile(path: path, strings: ["UIApplication", "sharedApplication", "TRUEPREDICATE"])

    // The DWARF readers.
    let addresses = addressesToLookUp(machOImages)
    if let segment = try? DWARFSegment(path: path) {
        for slice in segment.slices {
            if let mapped = try? segment.contents(of: slice) {
                _ = try? mapped.read { named in
                    lookUpSources(in: DWARFSections(bytes: DWARFSections.byName(named), littleEndian: slice.littleEndian), addresses)
                }
            }
        }
    }
    let members = machOImages.compactMap(\.archiveMember).prefix(archiveMemberLimit)
    for member in [nil] + members.map(Optional.some) {
        guard let object = try? ObjectDWARF(path: path, member: member, cpu: nil) else { continue }
        DWARFSections.withOwned(DWARFSections.byName(object.sections), littleEndian: object.littleEndian) { lookUpSources(in: $0, addresses) }
        _ = object.image.symbols.prefix(8).compactMap { object.address(ofSymbol: $0.name) }
    }
    for image in machOImages {
        let map = DebugMap(symbols: image.symbols)
        for address in addresses {
            if let (object, function) = map.function(containing: address) {
                _ = object.path.utf8.count + (object.archiveMember?.utf8.count ?? 0) + function.name.utf8.count
            }
        }
    }
    for image in inspected where image.format == .macho {
        _ = try? SourceLines.sources(of: addresses, in: image)
    }
    return 0
}
