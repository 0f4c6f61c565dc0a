import LinkCheckImage

/// One segment (`LC_SEGMENT` / `LC_SEGMENT_64`: `segment_command(_64)`)
/// with its sections.
public struct Segment: Sendable, Hashable {
    /// `segname` (`__TEXT`, `__DATA_CONST`, `__LINKEDIT`; empty in
    /// `MH_OBJECT` files).
    public var name: String
    /// `vmaddr`: the segment's virtual address.
    public var address: UInt64
    /// `vmsize`, in bytes.
    public var virtualSize: UInt64
    /// `fileoff`: offset of its bytes from the start of the image's Mach
    /// header (not of a fat file), in bytes.
    public var fileOffset: UInt64
    /// `filesize`, in bytes.
    public var fileSize: UInt64
    /// `maxprot` and `initprot` (`VM_PROT_READ` 1, `_WRITE` 2, `_EXECUTE` 4).
    public var maximumProtection: Int32
    public var initialProtection: Int32
    /// `flags` (`SG_*`: `SG_READ_ONLY` 0x10, …).
    public var flags: UInt32
    /// The sections that follow the command, in order.
    public var sections: [Section]
}

/// One section (`section` / `section_64`).
public struct Section: Sendable, Hashable {
    /// `sectname` (`__text`, `__cstring`, `__objc_selrefs`).
    public var name: String
    /// `segname`, as the section records it.
    public var segmentName: String
    /// `addr`: the section's virtual address.
    public var address: UInt64
    /// `size`, in bytes.
    public var size: UInt64
    /// `offset`: offset of its bytes from the start of the image's Mach
    /// header, in bytes (0 for zero-fill sections).
    public var fileOffset: UInt32
    /// `align`, as a power of two.
    public var alignment: UInt32
    /// `reloff` and `nreloc`: the section's relocation entries (`MH_OBJECT`).
    public var relocationsOffset: UInt32
    public var relocationCount: UInt32
    /// `flags`: the section type in the low byte (``type``) and `S_ATTR_*`
    /// attributes above it.
    public var flags: UInt32
    /// `reserved1`: for symbol stubs and symbol pointers, the index of the
    /// section's first entry in the indirect symbol table.
    public var reserved1: UInt32
    /// `reserved2`: for symbol stubs, the size of one stub in bytes.
    public var reserved2: UInt32

    /// `flags & SECTION_TYPE`.
    public var type: SectionType { SectionType(rawValue: UInt8(truncatingIfNeeded: flags)) }

    /// `segname,sectname`, as `llvm-objdump --section` spells a section.
    public var qualifiedName: String { "\(segmentName),\(name)" }

    /// Whether the section holds code: `S_ATTR_PURE_INSTRUCTIONS`
    /// (0x80000000) or `S_ATTR_SOME_INSTRUCTIONS` (0x400) in ``flags``.
    public var containsInstructions: Bool { flags & 0x8000_0400 != 0 }

    /// Whether the section occupies bytes in the file (not zero-fill).
    public var hasFileContents: Bool {
        !(type == .zeroFill || type == .gigabyteZeroFill || type == .threadLocalZeroFill) && size > 0
    }
}

/// The section type: `flags & SECTION_TYPE` (`S_*`, `<mach-o/loader.h>`).
public struct SectionType: RawRepresentable, Sendable, Hashable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let regular = SectionType(rawValue: 0x0)  // S_REGULAR
    public static let zeroFill = SectionType(rawValue: 0x1)  // S_ZEROFILL
    public static let cStringLiterals = SectionType(rawValue: 0x2)  // S_CSTRING_LITERALS
    public static let literalPointers = SectionType(rawValue: 0x5)  // S_LITERAL_POINTERS
    /// `S_NON_LAZY_SYMBOL_POINTERS`: `__got`, `__nl_symbol_ptr`.
    public static let nonLazySymbolPointers = SectionType(rawValue: 0x6)
    /// `S_LAZY_SYMBOL_POINTERS`: `__la_symbol_ptr`.
    public static let lazySymbolPointers = SectionType(rawValue: 0x7)
    /// `S_SYMBOL_STUBS`: `__stubs`, `__auth_stubs`, `__symbol_stub`, `__picsymbolstub4`.
    public static let symbolStubs = SectionType(rawValue: 0x8)
    public static let gigabyteZeroFill = SectionType(rawValue: 0xc)  // S_GB_ZEROFILL
    public static let lazyDylibSymbolPointers = SectionType(rawValue: 0x10)  // S_LAZY_DYLIB_SYMBOL_POINTERS
    public static let threadLocalZeroFill = SectionType(rawValue: 0x12)  // S_THREAD_LOCAL_ZEROFILL
    public static let threadLocalVariables = SectionType(rawValue: 0x13)  // S_THREAD_LOCAL_VARIABLES
}

extension Segment {
    /// Reads an `LC_SEGMENT` (`is64Bit` false) or `LC_SEGMENT_64` command
    /// and its `nsects` sections; sections past the command's end are
    /// dropped with a warning.
    static func read(_ command: LoadCommand, in image: ByteReader, is64Bit: Bool, warnings: inout ReadWarnings) -> Segment? {
        let bytes = command.bytes(in: image)
        let structure = is64Bit ? "segment_command_64" : "segment_command"
        let headerSize = is64Bit ? 72 : 56
        let record: Record
        do { record = try bytes.record(structure, at: 0, size: headerSize) } catch {
            warnings.add(error, skipping: "the segment")
            return nil
        }
        var segment: Segment
        let sectionCount: UInt32
        if is64Bit {
            segment = Segment(
                name: record.name(8, length: 16), address: record.u64(24), virtualSize: record.u64(32),
                fileOffset: record.u64(40), fileSize: record.u64(48), maximumProtection: record.i32(56),
                initialProtection: record.i32(60), flags: record.u32(68), sections: [])
            sectionCount = record.u32(64)
        } else {
            segment = Segment(
                name: record.name(8, length: 16), address: UInt64(record.u32(24)), virtualSize: UInt64(record.u32(28)),
                fileOffset: UInt64(record.u32(32)), fileSize: UInt64(record.u32(36)), maximumProtection: record.i32(40),
                initialProtection: record.i32(44), flags: record.u32(52), sections: [])
            sectionCount = record.u32(48)
        }
        let sectionSize = is64Bit ? 80 : 68
        let fitting = (bytes.count - headerSize) / sectionSize
        if Int(sectionCount) > fitting {
            warnings.add(
                "\(structure) \(segment.name)", at: bytes.fileOffset,
                "nsects \(sectionCount) needs \(Int(sectionCount) * sectionSize) bytes after the command, cmdsize leaves \(bytes.count - headerSize); \(fitting) read"
            )
        }
        let count = min(Int(sectionCount), fitting)
        segment.sections.reserveCapacity(count)
        for index in 0..<count {
            guard let section = try? bytes.record("section", at: headerSize + index * sectionSize, size: sectionSize) else { break }
            if is64Bit {
                segment.sections.append(
                    Section(
                        name: section.name(0, length: 16), segmentName: section.name(16, length: 16),
                        address: section.u64(32), size: section.u64(40), fileOffset: section.u32(48),
                        alignment: section.u32(52), relocationsOffset: section.u32(56), relocationCount: section.u32(60),
                        flags: section.u32(64), reserved1: section.u32(68), reserved2: section.u32(72)))
            } else {
                segment.sections.append(
                    Section(
                        name: section.name(0, length: 16), segmentName: section.name(16, length: 16),
                        address: UInt64(section.u32(32)), size: UInt64(section.u32(36)), fileOffset: section.u32(40),
                        alignment: section.u32(44), relocationsOffset: section.u32(48), relocationCount: section.u32(52),
                        flags: section.u32(56), reserved1: section.u32(60), reserved2: section.u32(64)))
            }
        }
        return segment
    }
}
