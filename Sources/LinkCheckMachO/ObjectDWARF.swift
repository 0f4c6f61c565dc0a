import LinkCheckImage

/// The DWARF of an object file (`MH_OBJECT`) that a debug map names, its
/// relocations applied: the sections of the `__DWARF` segment
/// (`__debug_info`, `__debug_line`, `__debug_addr`, `__debug_ranges`, …)
/// with the addresses they hold resolved in the object's own address space
/// (section addresses from 0, as `n_value` of the object's symbols), as
/// `dsymutil` reads them before moving them to the image's addresses.
///
/// An assembler leaves an address in a debug section to the relocation that
/// names it: `X86_64_RELOC_UNSIGNED` / `ARM64_RELOC_UNSIGNED` (type 0). A
/// local one (`r_extern` 0) already holds the address in place; an extern
/// one (`r_extern` 1, as arm64's assembler writes for any symbol it can)
/// holds only the addend, and the address is the symbol's `n_value` plus
/// that addend. A `*_RELOC_SUBTRACTOR` (arm64 1, x86_64 5) followed by an
/// `UNSIGNED` at the same place makes the difference of two symbols plus
/// the addend.
public struct ObjectDWARF: Sendable {
    /// The object as read: its symbol table (to find a debug map function
    /// in it by name) and sections.
    public var image: MachOImage
    /// The `__DWARF` sections' bytes with relocations applied, by section
    /// name (`__debug_info`).
    public var sections: [String: [UInt8]]
    /// Whether the object is little-endian.
    public var littleEndian: Bool
    /// Relocations that could not be applied (a place past its section, a
    /// symbol index past the symbol table, a type that is not an address),
    /// each naming the section and the place.
    public var warnings: [ReadWarning]

    /// Reads the object file at `path`, or the member `member` of the static
    /// archive there (`libX.a(member.o)` in a debug map), whole (object files
    /// are small), for its symbols and relocated DWARF. The first image of a
    /// fat file whose architecture is `cpu` is taken; any image when `cpu`
    /// is `nil`.
    ///
    /// - Throws: ``MachOError`` when the file cannot be read;
    ///   ``MachOError/notMachO(path:)`` when it holds no `MH_OBJECT` image
    ///   (of that member and architecture).
    public init(path: String, member: String?, cpu: CPUType?) throws(MachOError) {
        var warnings = ReadWarnings()
        let read = try MachOFile.withContents(path: path) { file, raw -> (MachOImage, [String: [UInt8]])? in
            guard
                let image = file.images.first(where: {
                    $0.fileType == .object && $0.archiveMember == member && (cpu == nil || $0.cpu.type == cpu?.type)
                })
            else { return nil }
            let reader = ByteReader(raw, littleEndian: image.header.byteOrder == .littleEndian)
            return (image, Self.relocatedSections(of: image, in: reader, warnings: &warnings))
        }
        guard let (image, sections) = read else { throw .notMachO(path: member.map { "\(path)(\($0))" } ?? path) }
        (self.image, self.sections, self.littleEndian, self.warnings) = (
            image, sections, image.header.byteOrder == .littleEndian, warnings.all
        )
    }

    /// The address of the symbol `name` in the object (`n_value` of its
    /// defined, non-debug entry), or `nil` when it has none.
    public func address(ofSymbol name: String) -> UInt64? {
        image.symbols.first { $0.kind == .section && $0.name == name }?.value
    }

    /// The `__DWARF` sections of `image` (read from `file`, the whole file),
    /// each a copy with its relocations applied.
    private static func relocatedSections(of image: MachOImage, in file: ByteReader, warnings: inout ReadWarnings) -> [String: [UInt8]] {
        let subtractor: UInt8 = image.cpu.type == CPUType.x86 | CPUType.abi64 ? 5 : 1
        var sections: [String: [UInt8]] = [:]
        for (index, section) in image.sections.enumerated() where section.segmentName == "__DWARF" && section.hasFileContents {
            guard sections[section.name] == nil,
                let window = file.window(offset: UInt64(image.fileOffset) + UInt64(section.fileOffset), size: section.size)
            else {
                warnings.add(
                    "section \(section.qualifiedName)", at: image.fileOffset + Int(section.fileOffset),
                    "its \(section.size) bytes run past the end of the object; not read")
                continue
            }
            var bytes = Array(window.bytes)
            var pendingSubtrahend: (offset: UInt32, value: UInt64)?
            for relocation in image.relocations where relocation.sectionNumber == index + 1 {
                let place = "relocation at \(hex(relocation.offset)) of \(section.qualifiedName)"
                let width = relocation.length == 3 ? 8 : relocation.length == 2 ? 4 : 0
                guard width > 0, Int(relocation.offset) <= bytes.count - width else {
                    warnings.add(
                        place, at: image.fileOffset + Int(section.relocationsOffset), "not a 4- or 8-byte place inside the section; skipped"
                    )
                    continue
                }
                guard case .symbol(let symbolIndex) = relocation.target else { continue }  // the address is in place
                guard symbolIndex < image.symbols.count else {
                    warnings.add(
                        place, at: image.fileOffset + Int(section.relocationsOffset),
                        "symbol \(symbolIndex) is past the symbol table; skipped")
                    continue
                }
                let symbolValue = image.symbols[symbolIndex].value
                if relocation.type == subtractor {
                    pendingSubtrahend = (relocation.offset, symbolValue)
                    continue
                }
                guard relocation.type == 0 else {
                    warnings.add(
                        place, at: image.fileOffset + Int(section.relocationsOffset), "type \(relocation.type) is not an address; skipped")
                    continue
                }
                let addend = read(width, at: Int(relocation.offset), in: bytes, littleEndian: file.littleEndian)
                var value = symbolValue &+ addend
                if let subtrahend = pendingSubtrahend, subtrahend.offset == relocation.offset { value = value &- subtrahend.value }
                pendingSubtrahend = nil
                write(value, width, at: Int(relocation.offset), in: &bytes, littleEndian: file.littleEndian)
            }
            sections[section.name] = bytes
        }
        return sections
    }

    /// The `width`-byte unsigned value at `offset` of `bytes` (checked by
    /// the caller to fit).
    private static func read(_ width: Int, at offset: Int, in bytes: [UInt8], littleEndian: Bool) -> UInt64 {
        (0..<width).reduce(UInt64(0)) { value, index in
            let byte = UInt64(bytes[offset + (littleEndian ? width - 1 - index : index)])
            return value << 8 | byte
        }
    }

    /// Writes the low `width` bytes of `value` at `offset` of `bytes`
    /// (checked by the caller to fit).
    private static func write(_ value: UInt64, _ width: Int, at offset: Int, in bytes: inout [UInt8], littleEndian: Bool) {
        for index in 0..<width {
            let shift = UInt64(8 * (littleEndian ? index : width - 1 - index))
            bytes[offset + index] = UInt8(truncatingIfNeeded: value >> shift)
        }
    }
}
