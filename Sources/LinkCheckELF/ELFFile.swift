#if canImport(CLibELF)  // read through libelf: not in a build without it (Package.swift)
import CLibELF
import CMappedFileGuard
import LinkCheckImage
import SystemInterface

/// An open ELF file: a file descriptor and libelf's read-only descriptor of
/// it (`elf_begin`, mapped or read as ``Access`` says). Closed on deinit.
///
/// Readers open it through ``read(_:access:_:)``, which guards the read
/// against the file changing meanwhile.
///
/// Only this file and the per-concept readers beside it call libelf.
package final class ELFFile {
    package let path: String
    private let descriptor: Int32
    package let elf: OpaquePointer
    /// A repaired in-memory copy of the file, when libelf could read only
    /// that (``recoverWithoutSectionHeaders(_:size:)``); freed on deinit.
    private var copy: UnsafeMutableRawPointer?
    /// What was repaired, for the image's warnings.
    package private(set) var repair: String?
    /// `fstat(2)` right after `open(2)`.
    private var opened = stat()
    /// Whether libelf maps the file (`ELF_C_READ_MMAP`) rather than reading
    /// what it is asked for into memory of its own (``Access``).
    private var isMapped = true

    /// The largest file read into memory to repair its header, in bytes.
    static let largestRepairedFile = 64 << 20

    /// How libelf reaches the file's bytes: `elf_begin`'s command.
    package enum Access {
        /// `ELF_C_READ_MMAP`: the whole file mapped read-only, each page
        /// read when first touched and given back by ``discardPages(of:)``.
        /// For a pass over most of a large file (code analysis reads
        /// `.text`, `.symtab` and `.strtab`).
        case mapped
        /// `ELF_C_READ` for a file of at most ``largestReadFile`` bytes:
        /// libelf reads the headers, and each section when it is first
        /// asked for, with `pread(2)` into memory it allocates. Nothing is
        /// mapped, so nothing is unmapped at the end: unmapping pages that
        /// were touched while another thread of the process runs interrupts
        /// that thread's CPU to flush its TLB. A larger file is mapped
        /// (``mapped``): its symbol tables would be copied whole. So is a
        /// file too short for an ELF header, which libelf would otherwise
        /// take for `ELF_K_NONE` (a different error than when mapped).
        case readIfSmall
    }

    /// The largest file ``Access/readIfSmall`` reads rather than maps, in
    /// bytes.
    package static let largestReadFile = 16 << 20

    /// `elf_version(EV_CURRENT)` must be called once before any other libelf
    /// call; a `static let` runs it exactly once, thread-safely.
    private static let libelfReady: Bool = elf_version(UInt32(EV_CURRENT)) != UInt32(EV_NONE)

    /// Opens `path` for reading and checks that libelf sees an ELF object.
    ///
    /// - Throws: ``InspectionError/notInspectable(path:reason:)`` for
    ///   anything but a regular file (never opened for reading),
    ///   ``InspectionError/unreadable(path:errno:)`` when `open(2)`
    ///   or `pread(2)` fails, ``InspectionError/notAnImage(path:)`` when the
    ///   first four bytes are not `\x7fELF`,
    ///   ``InspectionError/malformed(path:format:structure:reason:)`` when
    ///   `elf_begin` fails or `elf_kind` is not `ELF_K_ELF`.
    private init(path: String, access: Access) throws(InspectionError) {
        self.path = path
        guard Self.libelfReady else {
            throw .malformed(path: path, format: .elf, structure: "libelf", reason: "elf_version failed")
        }
        // Only a regular file is opened: a FIFO would block, a device may act
        // on being opened. O_NONBLOCK and the second look cover a file
        // replaced by one of those in between.
        var info = stat()
        if stat(path, &info) == 0 && info.st_mode & S_IFMT != S_IFREG {
            throw .notInspectable(path: path, reason: "not a regular file")
        }
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
        guard fd >= 0 else { throw .unreadable(path: path, errno: errno) }
        guard fstat(fd, &opened) == 0, opened.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw .notInspectable(path: path, reason: "not a regular file")
        }
        var magic = [UInt8](repeating: 0, count: 4)
        let got = pread(fd, &magic, 4, 0)
        guard got == 4, magic == ELFReader.magic else {
            let code = errno
            close(fd)
            if got < 0 { throw .unreadable(path: path, errno: code) }
            throw .notAnImage(path: path)
        }
        // A file too short for an ELF header is mapped too: libelf then fails
        // as it does for every such file (read, it gives an ELF_K_NONE).
        isMapped =
            access == .mapped || opened.st_size > Self.largestReadFile
            || opened.st_size < MemoryLayout<Elf64_Ehdr>.size
        var elf = elf_begin(fd, isMapped ? ELF_C_READ_MMAP : ELF_C_READ, nil)
        if elf == nil {
            let reason = Self.lastError()
            if opened.st_size <= Self.largestRepairedFile,
                let buffer = Self.recoverWithoutSectionHeaders(fd, size: Int(opened.st_size))
            {
                elf = elf_memory(buffer.assumingMemoryBound(to: CChar.self), Int(opened.st_size))
                if elf == nil {
                    buffer.deallocate()
                } else {
                    copy = buffer
                    repair = "the section header table is unreadable (\(reason)), so it was ignored"
                }
            }
        }
        guard let elf else {
            close(fd)
            throw .malformed(path: path, format: .elf, structure: "ELF header", reason: Self.lastError())
        }
        guard elf_kind(elf) == ELF_K_ELF else {
            elf_end(elf)
            close(fd)
            throw .malformed(
                path: path, format: .elf, structure: "ELF header", reason: "starts with the ELF magic but is truncated or invalid")
        }
        self.descriptor = fd
        self.elf = elf
    }

    deinit {
        elf_end(elf)
        close(descriptor)
        copy?.deallocate()
    }

    /// A copy of the file whose header no longer points at a section header
    /// table (`e_shoff`, `e_shnum`, `e_shstrndx` zeroed, at their offsets in
    /// `Elf64_Ehdr` or `Elf32_Ehdr` by class): libelf rejects a file whose
    /// table is bogus, while the loader and readelf read the rest of it.
    /// `nil` when the copy cannot be made.
    private static func recoverWithoutSectionHeaders(_ fd: Int32, size: Int) -> UnsafeMutableRawPointer? {
        guard size >= MemoryLayout<Elf64_Ehdr>.size else { return nil }
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8)
        guard pread(fd, buffer, size, 0) == size else {
            buffer.deallocate()
            return nil
        }
        func zero(_ offset: Int?, _ count: Int) {
            guard let offset else { return }
            (buffer + offset).initializeMemory(as: UInt8.self, repeating: 0, count: count)
        }
        if buffer.load(fromByteOffset: Int(EI_CLASS), as: UInt8.self) == UInt8(ELFCLASS64) {
            zero(MemoryLayout<Elf64_Ehdr>.offset(of: \.e_shoff), 8)
            zero(MemoryLayout<Elf64_Ehdr>.offset(of: \.e_shnum), 2)
            zero(MemoryLayout<Elf64_Ehdr>.offset(of: \.e_shstrndx), 2)
        } else {
            zero(MemoryLayout<Elf32_Ehdr>.offset(of: \.e_shoff), 4)
            zero(MemoryLayout<Elf32_Ehdr>.offset(of: \.e_shnum), 2)
            zero(MemoryLayout<Elf32_Ehdr>.offset(of: \.e_shstrndx), 2)
        }
        return buffer
    }

    /// Opens `path` and runs `read` on it as one guarded read
    /// (`CMappedFileGuard`): a page of the file that vanishes meanwhile
    /// (the file truncated in place) reads as zeros instead of raising
    /// SIGBUS. Then, if that happened, or if the file's size or modification
    /// time changed by the time `read` ends (rewritten in place), whatever
    /// `read` returned or threw is replaced by
    /// ``InspectionError/changedWhileRead(path:)``. A file renamed over
    /// (replaced) is read as it was when opened. `access` says how libelf
    /// reaches the bytes.
    package static func read<Value>(
        _ path: String, access: Access = .mapped, _ read: (ELFFile) throws(InspectionError) -> Value
    ) throws(InspectionError) -> Value {
        linkcheck_guard_begin()
        defer { linkcheck_guard_end() }
        let faults = linkcheck_guard_faults()
        var modified = false
        let outcome = Result { () throws(InspectionError) -> Value in
            let file = try ELFFile(path: path, access: access)
            defer { modified = file.modifiedSinceOpened }
            return try read(file)
        }
        if modified || linkcheck_guard_faults() != faults { throw .changedWhileRead(path: path) }
        return try outcome.get()
    }

    /// Whether the file's size or modification time differ from when it was
    /// opened (`fstat(2)`; not the change time, which an unlink or rename
    /// moves without touching the contents).
    private var modifiedSinceOpened: Bool {
        var now = stat()
        guard fstat(descriptor, &now) == 0 else { return false }
        return now.st_size != opened.st_size || now.modificationTime != opened.modificationTime
    }

    /// Calls `body` with the bytes of `section` (`sh_offset`, `sh_size`) in
    /// a read-only mapping of their own, and a `release` that gives back the
    /// pages of the first `n` of them (`madvise(MADV_DONTNEED)`: they leave
    /// the resident set, and are read from the file again if touched), so
    /// that one pass over a large section keeps little of it resident.
    /// Falls back to libelf's data for the section, with nothing to release,
    /// for the repaired in-memory copy or when the mapping fails; `nil` when
    /// there are no bytes at all (`SHT_NOBITS`, outside the file).
    package func withContents<Value>(
        of section: Section, _ body: (UnsafeRawBufferPointer, _ release: (Int) -> Void) -> Value
    ) -> Value? {
        let (offset, size) = (section.header.sh_offset, section.header.sh_size)
        let pageSize = UInt64(sysconf(Int32(_SC_PAGESIZE)))
        let aligned = offset / pageSize * pageSize
        if copy == nil, section.type != UInt32(SHT_NOBITS), size > 0, offset <= UInt64(opened.st_size),
            size <= UInt64(opened.st_size) - offset, let length = Int(exactly: offset - aligned + size),
            let mapping = mmap(nil, length, PROT_READ, MAP_PRIVATE, descriptor, off_t(aligned)), mapping != MAP_FAILED
        {
            defer { munmap(mapping, length) }
            let delta = Int(offset - aligned)
            return body(UnsafeRawBufferPointer(start: mapping + delta, count: Int(size))) { count in
                let end = (delta + count) / Int(pageSize) * Int(pageSize)
                if end > 0 { discardMappedPages(mapping, end) }
            }
        }
        guard let data = section.data, let base = data.pointee.d_buf else { return nil }
        return body(UnsafeRawBufferPointer(start: base, count: data.pointee.d_size)) { _ in }
    }

    /// Calls `body` with the bytes of `section` (`sh_offset`, `sh_size`)
    /// read with `pread(2)`, `size` bytes at a time, into one buffer: each
    /// buffer but the first begins with the last `overlap` bytes of the one
    /// before (all of them while fewer have been read), and `from` is where
    /// the bytes read for it start (0 the first time). The repaired
    /// in-memory copy is given whole. Nothing for `SHT_NOBITS` or a section
    /// outside the file.
    ///
    /// - Throws: ``InspectionError/unreadable(path:errno:)`` when a read
    ///   fails (other than `EINTR`, which is retried),
    ///   ``InspectionError/changedWhileRead(path:)`` when the file ends
    ///   before the section does (truncated meanwhile).
    package func readPieces(
        of section: Section, size: Int, overlap: Int, _ body: (UnsafeBufferPointer<UInt8>, _ from: Int) -> Void
    ) throws(InspectionError) {
        let (offset, length) = (section.header.sh_offset, section.header.sh_size)
        guard section.type != UInt32(SHT_NOBITS), length > 0, offset <= UInt64(opened.st_size),
            length <= UInt64(opened.st_size) - offset
        else { return }
        if copy != nil {
            guard let data = section.data, let base = data.pointee.d_buf else { return }
            body(UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: data.pointee.d_size), 0)
            return
        }
        let piece = max(size, 1)
        let kept = max(overlap, 0)
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: kept + piece)
        defer { buffer.deallocate() }
        var done: UInt64 = 0
        var carried = 0
        while done < length {
            let wanted = Int(min(UInt64(piece), length - done))
            var got = 0
            while got < wanted {
                let read = pread(descriptor, buffer + carried + got, wanted - got, off_t(offset + done) + off_t(got))
                if read < 0 && errno == EINTR { continue }
                if read < 0 { throw .unreadable(path: path, errno: errno) }
                if read == 0 { throw .changedWhileRead(path: path) }
                got += read
            }
            body(UnsafeBufferPointer(start: buffer, count: carried + wanted), carried)
            done += UInt64(wanted)
            let total = carried + wanted
            let keep = min(kept, total)
            memmove(buffer, buffer + (total - keep), keep)
            carried = keep
        }
    }

    /// Gives back the resident pages that hold `sections`' bytes where
    /// libelf reads them from the file's mapping: `madvise(2)` with
    /// `MADV_DONTNEED` over the whole pages inside each section's data
    /// (`elf_getdata`, already read), so that pages shared with other
    /// sections stay. For a large library read once (`.symtab`, `.strtab`
    /// and the relocations hold tens of MB), so that they do not stay
    /// resident while the rest is read; the pages are read from the file
    /// again if touched.
    ///
    /// Only where the data lies in libelf's mapping of the whole file (its
    /// address less its file offset is ``mappingBase``): where libelf read the
    /// file, or translated or decompressed the section, into memory it
    /// allocated, the section is left alone, as is a section whose header
    /// says it is compressed (`SHF_COMPRESSED`: its data may be replaced).
    /// Nothing for the repaired in-memory copy, or a file libelf reads
    /// rather than maps (``Access/readIfSmall``).
    package func discardPages(of sections: [Section]) {
        for section in sections { discardPages(of: section, upTo: .max) }
    }

    /// ``discardPages(of:)`` for the first `length` bytes of `section`'s
    /// data: the pages a pass in order over it has left behind.
    package func discardPages(of section: Section, upTo length: Int) {
        guard isMapped, copy == nil, section.type != UInt32(SHT_NOBITS), section.header.sh_flags & UInt64(SHF_COMPRESSED) == 0,
            let base = mappingBase
        else { return }
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        guard let data = section.data, let buffer = data.pointee.d_buf, data.pointee.d_size > 0,
            let offset = Int(exactly: section.header.sh_offset)
        else { return }
        let address = Int(bitPattern: buffer)
        guard address >= offset, address - offset == base else { return }
        let start = (address + pageSize - 1) / pageSize * pageSize
        let (sum, overflow) = address.addingReportingOverflow(min(data.pointee.d_size, max(length, 0)))
        guard !overflow else { return }
        let end = sum / pageSize * pageSize
        if end > start { discardMappedPages(UnsafeMutableRawPointer(bitPattern: start), end - start) }
    }

    /// Where byte 0 of the file is in libelf's mapping of it: the file
    /// bytes of a section (`elf_rawdata`, which points into the file as
    /// libelf holds it) less the section's offset, the same for the first two
    /// sections with bytes at different offsets, and page-aligned, as a
    /// mapping is; `nil` when libelf read the file into memory it allocated
    /// instead, or the sections disagree.
    private lazy var mappingBase: Int? = {
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        var found: (base: Int, offset: Int)?
        var scn = elf_nextscn(elf, nil)
        while let section = scn {
            scn = elf_nextscn(elf, section)
            var header = GElf_Shdr()
            guard gelf_getshdr(section, &header) != nil, header.sh_type != UInt32(SHT_NOBITS), header.sh_size > 0,
                let raw = elf_rawdata(section, nil), let bytes = raw.pointee.d_buf, let offset = Int(exactly: header.sh_offset)
            else { continue }
            let base = Int(bitPattern: bytes) &- offset
            guard base % pageSize == 0 else { return nil }
            guard let first = found else {
                found = (base, offset)
                continue
            }
            if offset != first.offset { return base == first.base ? base : nil }
        }
        return nil
    }()

    /// libelf's message for the most recent error (`elf_errmsg(-1)`).
    static func lastError() -> String {
        guard let message = elf_errmsg(-1) else { return "unknown libelf error" }
        return String(cString: message)
    }

    /// The ELF header (`gelf_getehdr`).
    package func header() throws(InspectionError) -> GElf_Ehdr {
        var header = GElf_Ehdr()
        guard gelf_getehdr(elf, &header) != nil else {
            throw .malformed(path: path, format: .elf, structure: "ELF header", reason: Self.lastError())
        }
        return header
    }

    /// The identification bytes `e_ident` (`elf_getident`).
    package func identification() throws(InspectionError) -> [UInt8] {
        var size = 0
        guard let bytes = elf_getident(elf, &size), size >= Int(EI_NIDENT) else {
            throw .malformed(path: path, format: .elf, structure: "e_ident", reason: Self.lastError())
        }
        return UnsafeBufferPointer(start: bytes, count: size).map { UInt8(bitPattern: $0) }
    }

    /// `e_ident[EI_CLASS]` and `e_ident[EI_DATA]`.
    ///
    /// - Throws: ``InspectionError/malformed(path:format:structure:reason:)`` for a
    ///   value the ELF spec does not define.
    package func classAndEncoding() throws(InspectionError) -> (ELFClass, ELFDataEncoding) {
        let ident = try identification()
        let elfClass: ELFClass
        switch Int32(ident[Int(EI_CLASS)]) {
        case ELFCLASS32: elfClass = .elf32
        case ELFCLASS64: elfClass = .elf64
        default:
            throw .malformed(path: path, format: .elf, structure: "e_ident[EI_CLASS]", reason: "invalid class \(ident[Int(EI_CLASS)])")
        }
        switch Int32(ident[Int(EI_DATA)]) {
        case ELFDATA2LSB: return (elfClass, .lsb)
        case ELFDATA2MSB: return (elfClass, .msb)
        default:
            throw .malformed(
                path: path, format: .elf, structure: "e_ident[EI_DATA]", reason: "invalid data encoding \(ident[Int(EI_DATA)])")
        }
    }

    /// All sections with their headers and names, in section-index order
    /// (`elf_getshdrnum`, `elf_getshdrstrndx`, `elf_nextscn`, `gelf_getshdr`).
    /// Handles extended section numbering (`e_shnum == 0`) through libelf.
    package func sections() throws(InspectionError) -> [Section] {
        var count = 0
        guard elf_getshdrnum(elf, &count) == 0 else {
            throw .malformed(path: path, format: .elf, structure: "section header table", reason: Self.lastError())
        }
        var namesIndex = 0
        let hasNames = elf_getshdrstrndx(elf, &namesIndex) == 0
        var result: [Section] = []
        result.reserveCapacity(count)
        var scn = elf_nextscn(elf, nil)
        while let current = scn, result.count < count {
            var header = GElf_Shdr()
            if gelf_getshdr(current, &header) != nil {
                let name = hasNames ? string(inSection: namesIndex, at: Int(header.sh_name)) ?? "" : ""
                result.append(Section(handle: current, index: elf_ndxscn(current), header: header, name: name))
            }
            scn = elf_nextscn(elf, current)
        }
        // Section 0 is the null section, which elf_nextscn skips.
        guard count == 0 || result.count >= count - 1 else {
            throw .malformed(
                path: path, format: .elf, structure: "section header table",
                reason: "declares \(count) sections, but only \(result.count + 1) could be read (truncated file?)")
        }
        return result
    }

    /// The string-table section (`SHT_STRTAB`) with index `section`, in
    /// libelf's buffer (valid while the file is open; a compressed one,
    /// `SHF_COMPRESSED`, decompressed in memory by `elf_compress`, as
    /// `elf_strptr` does), for reading many names without a call per name;
    /// `nil` when there is no such section or it has no data.
    package func stringTable(_ section: Int) -> StringTable? {
        var header = GElf_Shdr()
        guard let scn = elf_getscn(elf, section), gelf_getshdr(scn, &header) != nil, header.sh_type == UInt32(SHT_STRTAB)
        else { return nil }
        if header.sh_flags & UInt64(SHF_COMPRESSED) != 0, elf_compress(scn, 0, 0) < 0 { return nil }
        guard let data = elf_getdata(scn, nil), let base = data.pointee.d_buf else { return nil }
        return StringTable(bytes: UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: data.pointee.d_size))
    }

    /// The string at `offset` bytes into the string-table section with index
    /// `section` (`elf_strptr`), or `nil` when the offset is out of range.
    package func string(inSection section: Int, at offset: Int) -> String? {
        guard let pointer = elf_strptr(elf, section, offset) else { return nil }
        return String(cString: pointer)
    }
}

extension [Section] {
    /// These sections less those whose bytes in the file overlap another's
    /// (of two, the one starting first, or with the lower index, stays), in
    /// their order: what a pass over section contents reads, so that section
    /// headers that describe the same bytes again (a hostile file can have
    /// thousands) cannot make it read them again. Its work stays within the
    /// file's size. `SHT_NOBITS` and empty sections occupy no bytes and stay.
    package func withDistinctFileRanges() -> [Section] {
        let occupying = indices.filter { self[$0].type != UInt32(SHT_NOBITS) && self[$0].header.sh_size > 0 }
        let byOffset = occupying.sorted { (self[$0].header.sh_offset, $0) < (self[$1].header.sh_offset, $1) }
        var dropped = Set<Int>()
        var end: UInt64 = 0
        for position in byOffset {
            let header = self[position].header
            if header.sh_offset < end {
                dropped.insert(position)
            } else {
                end = header.sh_offset &+ header.sh_size < header.sh_offset ? .max : header.sh_offset &+ header.sh_size
            }
        }
        return indices.filter { !dropped.contains($0) }.map { self[$0] }
    }
}

/// One section: its libelf handle, index, header and name.
package struct Section {
    package let handle: OpaquePointer
    package let index: Int
    package let header: GElf_Shdr
    package let name: String

    /// `sh_type`.
    package var type: UInt32 { header.sh_type }

    /// The section's data as libelf translated it (`elf_getdata`), or `nil`
    /// when it has none or libelf rejects it (`SHT_NOBITS`, a size beyond
    /// the end of the file, …).
    package var data: UnsafeMutablePointer<Elf_Data>? {
        elf_getdata(handle, nil)
    }
}
#endif
