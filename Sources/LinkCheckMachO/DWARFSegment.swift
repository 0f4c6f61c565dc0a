import LinkCheckImage

/// The `__DWARF` segment of each slice of a Mach-O file, read without
/// reading the file: a dSYM's DWARF file (`MH_DSYM`,
/// `X.dSYM/Contents/Resources/DWARF/X`), or an image or object file that
/// carries its own DWARF.
///
/// ``init(path:)`` reads only the fat header, and of each slice its Mach
/// header and load commands (`sizeofcmds` bytes): enough for each slice's
/// `LC_UUID` and the sections of its `__DWARF` segment (or, in an
/// `MH_OBJECT` file, its one unnamed segment's sections whose `segname` is
/// `__DWARF`). ``contents(of:)`` then maps the file for the bytes of one
/// slice's sections, of which a lookup reads only the pages it needs: a
/// dSYM is never in memory whole.
public struct DWARFSegment: Sendable {
    /// The path the file was read from.
    public var path: String
    /// The slices that could be read, in fat-header order (one for a thin
    /// file).
    public var slices: [Slice]
    /// Problems with the fat header (slices skipped) and with the slices'
    /// headers and load commands, each naming the structure and its file
    /// offset.
    public var warnings: [ReadWarning]

    /// One architecture slice's identity and `__DWARF` sections.
    public struct Slice: Sendable {
        /// `cputype`/`cpusubtype` of the slice's Mach header.
        public var cpu: CPUType
        /// `filetype` (`MH_DSYM` for a dSYM, `MH_OBJECT`, `MH_DYLIB`, …).
        public var fileType: FileType
        /// The slice's `LC_UUID`; `nil` when it has none.
        public var uuid: ImageUUID?
        /// Offset of the slice's Mach header from the start of the file, in
        /// bytes.
        public var fileOffset: Int
        /// The slice's size in bytes.
        public var size: Int
        /// Whether the slice is little-endian (`MH_MAGIC*`, not `MH_CIGAM*`).
        public var littleEndian: Bool
        /// The `__DWARF` sections (`__debug_info`, `__debug_line`,
        /// `__debug_str_offs`: `sectname` is 16 bytes at most), in
        /// load-command order; their ``Section/fileOffset`` is from the
        /// slice's Mach header.
        public var sections: [Section]
    }

    /// Reads the headers and load commands of each slice of the file at
    /// `path`.
    ///
    /// - Throws: ``MachOError``: unreadable, not a regular file, not a thin
    ///   or fat Mach-O file, or truncated before its first header is whole.
    public init(path: String) throws(MachOError) {
        let file = try FileRanges(path: path)
        var warnings = ReadWarnings()
        let start = try file.bytes(at: 0, count: UInt64(min(file.size, 8)), structure: "magic")
        guard start.count >= 4 else { throw .notMachO(path: path) }
        let magic = start.prefix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        var placed: [(offset: UInt64, size: UInt64)] = []
        if magic == FatHeader.magic || magic == FatHeader.magic64 {
            guard start.count == 8 else {
                throw .truncated(path: path, structure: "fat_header", offset: 0, needed: 8, available: start.count)
            }
            let declared = UInt64(start[4...].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
            let entries = min(declared * (magic == FatHeader.magic64 ? 32 : 20), UInt64(file.size - 8))
            let header = try file.bytes(at: 0, count: 8 + entries, structure: "fat_arch entries")
            let outcome = header.withUnsafeBytes { raw in
                Result { () throws(ReadFailure) in try FatHeader.read(ByteReader(raw), fileSize: file.size, warnings: &warnings) }
            }
            switch outcome {
            case .success(let archs): placed = archs.map { ($0.offset, $0.size) }
            case .failure(let failure):
                throw .truncated(
                    path: path, structure: failure.structure, offset: failure.fileOffset, needed: failure.needed,
                    available: failure.available)
            }
        } else {
            placed = [(0, UInt64(file.size))]
        }
        var slices: [Slice] = []
        let isFat = magic == FatHeader.magic || magic == FatHeader.magic64
        for (offset, size) in placed {
            let slice: Slice?
            do { slice = try Self.slice(in: file, at: offset, size: size, warnings: &warnings) } catch {
                if !isFat { throw error }
                warnings.add("fat slice", at: Int(offset), "\(error); skipped")
                continue
            }
            guard let slice else {
                if !isFat { throw .notMachO(path: path) }
                warnings.add("fat slice", at: Int(offset), "not a Mach-O image; skipped")
                continue
            }
            slices.append(slice)
        }
        (self.path, self.slices, self.warnings) = (path, slices, warnings.all)
    }

    /// The slice whose `LC_UUID` is `uuid`, or `nil`.
    public func slice(withUUID uuid: ImageUUID) -> Slice? {
        slices.first { $0.uuid == uuid }
    }

    /// Each of `slice`'s `__DWARF` sections by section name
    /// (`__debug_info`), in a read-only mapping of the file
    /// (``FileMapping``): nothing is read until the sections' bytes are,
    /// and then only the pages touched. A section with no bytes in the file
    /// (size 0, or zero-fill) is left out.
    ///
    /// - Throws: ``MachOError/truncated(path:structure:offset:needed:available:)``
    ///   naming the section when its bytes run past the end of its slice or
    ///   of the file (a truncated dSYM), ``MachOError/unreadable(path:errno:)``
    ///   when the file cannot be opened or mapped.
    public func contents(of slice: Slice) throws(MachOError) -> MappedSections {
        let mapping = try FileMapping(path: path)
        var ranges: [String: Range<Int>] = [:]
        for section in slice.sections where section.hasFileContents && ranges[section.name] == nil {
            let structure = "section \(section.qualifiedName)"
            let start = slice.fileOffset + Int(section.fileOffset)
            guard UInt64(section.fileOffset) <= UInt64(slice.size), section.size <= UInt64(slice.size) - UInt64(section.fileOffset) else {
                throw .truncated(
                    path: path, structure: structure, offset: start, needed: Int(clamping: section.size),
                    available: max(0, slice.size - Int(section.fileOffset)))
            }
            guard start <= mapping.size, section.size <= UInt64(mapping.size - start) else {
                throw .truncated(
                    path: path, structure: structure, offset: start, needed: Int(clamping: section.size),
                    available: max(0, mapping.size - start))
            }
            ranges[section.name] = start..<start + Int(section.size)
        }
        return MappedSections(mapping: mapping, ranges: ranges)
    }

    /// The slice of `size` bytes at file offset `offset`: its Mach header,
    /// load commands, `LC_UUID` and `__DWARF` sections. `nil` when it does
    /// not start with a Mach-O magic.
    private static func slice(in file: FileRanges, at offset: UInt64, size: UInt64, warnings: inout ReadWarnings) throws(MachOError)
        -> Slice?
    {
        let headerBytes = try file.bytes(at: offset, count: min(size, 32), structure: "mach_header")
        let commandsSize: UInt64? = headerBytes.withUnsafeBytes { raw in
            guard let header = try? MachHeader.read(ByteReader(raw, fileOffset: Int(offset))) else { return nil }
            return UInt64(header.0.size) + UInt64(header.0.loadCommandsSize)
        }
        guard let commandsSize else {
            if headerBytes.count < 32, headerBytes.count >= 4 {
                let raw = headerBytes.prefix(4).withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
                if MachHeader.kind(ofMagic: UInt32(littleEndian: raw)) != nil {
                    throw .truncated(
                        path: file.path, structure: "mach_header", offset: Int(offset), needed: 32, available: headerBytes.count)
                }
            }
            return nil
        }
        let bytes = try file.bytes(at: offset, count: min(size, commandsSize), structure: "load commands")
        return bytes.withUnsafeBytes { raw -> Slice? in
            guard let (header, image) = try? MachHeader.read(ByteReader(raw, fileOffset: Int(offset))) else { return nil }
            var uuid: ImageUUID?
            var sections: [Section] = []
            for command in LoadCommand.readAll(image, header: header, warnings: &warnings) {
                switch command.command {
                case LoadCommandType.uuid:
                    uuid = uuid ?? ImageUUID.read(command, in: image, warnings: &warnings)
                case LoadCommandType.segment, LoadCommandType.segment64:
                    let is64Bit = command.command == LoadCommandType.segment64
                    guard let segment = Segment.read(command, in: image, is64Bit: is64Bit, warnings: &warnings) else { continue }
                    sections += segment.sections.filter { $0.segmentName == "__DWARF" }
                default: break
                }
            }
            return Slice(
                cpu: header.cpu, fileType: header.fileType, uuid: uuid, fileOffset: Int(offset), size: Int(size),
                littleEndian: header.byteOrder == .littleEndian, sections: sections)
        }
    }
}
