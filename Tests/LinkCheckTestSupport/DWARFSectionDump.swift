import Foundation
import LinkCheckSourceLines

/// The DWARF sections of an ELF or Mach-O file, copied out by the
/// toolchain's `llvm-objcopy --dump-section` (an ELF section by its name,
/// `.debug_info`; a Mach-O one as `__DWARF,__debug_info`), for tests of the
/// DWARF reader that must not depend on the format readers.
public enum DWARFSectionDump {
    /// The bytes of each DWARF section the file at `path` has
    /// (`llvm-objdump -h`), little-endian, for the lookup below. The
    /// sections must not be compressed.
    ///
    /// - Throws: ``CommandFailure`` when a tool fails.
    public static func sections(of path: String) throws -> [DWARFSections.Name: [UInt8]] {
        let bin = URL(fileURLWithPath: Fixtures.clang).deletingLastPathComponent()
        let headers = try Command.run(bin.appendingPathComponent("llvm-objdump").path, ["-h", path]).standardOutput
        let macho = headers.contains("file format mach-o")
        let directory = try TemporaryDirectory()
        var bytes: [DWARFSections.Name: [UInt8]] = [:]
        for line in headers.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count > 2, Int(fields[0]) != nil, let name = DWARFSections.Name.section(named: String(fields[1])) else {
                continue
            }
            let dump = directory.path(name.rawValue)
            let section = macho ? "__DWARF,\(fields[1])" : String(fields[1])
            try Command.run(
                bin.appendingPathComponent("llvm-objcopy").path,
                ["--dump-section", "\(section)=\(dump.path)", path, directory.path("copy").path])
            bytes[name] = [UInt8](try Data(contentsOf: dump))
        }
        return bytes
    }
}

extension DWARFSourceLookup {
    /// ``sources(of:in:)`` in little-endian sections dumped by
    /// ``DWARFSectionDump``, borrowed for the call.
    ///
    /// - Throws: ``DWARFError`` for the first damaged structure the lookup
    ///   reads.
    package static func sources(of addresses: Set<UInt64>, in dumped: [DWARFSections.Name: [UInt8]]) throws(DWARFError) -> [UInt64:
        AddressSource]
    {
        try DWARFSections.withOwned(dumped, littleEndian: true) { sections throws(DWARFError) in
            try sources(of: addresses, in: sections)
        }
    }
}
