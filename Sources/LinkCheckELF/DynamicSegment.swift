#if canImport(CLibELF)  // read through libelf: not in a build without it (Package.swift)
import CLibELF
import LinkCheckImage

/// Reading an image through its program headers alone: the dynamic linker
/// needs only those, so when there is no section header table (stripped with
/// `strip --strip-section-headers`, or packed) or it disagrees with them
/// (``ELFFile/sectionViewDisagreement(sections:segments:dynamic:)``),
/// linkcheck reads what it needs the same way, from the `PT_DYNAMIC` segment
/// (System V ABI, "Dynamic Section" and "Hash Table"; the GNU hash table
/// layout from binutils' `elf.c`).
struct DynamicSegment {
    var dynamic: DynamicInfo
    var symbols: SymbolTableContents
}

extension ELFFile {
    /// The dynamic section and `.dynsym` read through `PT_DYNAMIC` among
    /// `segments` (the program headers): DT_STRTAB and DT_SYMTAB addresses
    /// mapped to file offsets through the `PT_LOAD` segments, the symbol
    /// count from DT_HASH (`nchain`) or DT_GNU_HASH. Symbol versions are not
    /// read this way. Each warning starts with `reason`, why the section
    /// headers were not used (`no section headers`): one says the image was
    /// read this way, or that the segment or the symbol table in it could
    /// not be read. `nil` when there is no `PT_DYNAMIC` (a static executable,
    /// an object file) or it cannot be read.
    /// Only the symbols `selection` keeps are made into values.
    func dynamicSegment(
        _ segments: [GElf_Phdr], because reason: String, selection: SymbolSelection, warnings: inout ReadWarnings
    ) -> DynamicSegment? {
        guard let dynamic = segments.first(where: { $0.p_type == UInt32(PT_DYNAMIC) }) else { return nil }
        guard let data = rawChunk(offset: dynamic.p_offset, size: dynamic.p_filesz, type: ELF_T_DYN) else {
            warnings.add("\(reason), and PT_DYNAMIC (\(dynamic.p_filesz) bytes at offset \(dynamic.p_offset)) could not be read")
            return nil
        }
        let entrySize = max(gelf_fsize(elf, ELF_T_DYN, 1, UInt32(EV_CURRENT)), 1)
        let entries = dynamicEntries(data, count: data.pointee.d_size / entrySize)
        func address(_ tag: Int32) -> UInt64? {
            entries.first { $0.d_tag == Int64(tag) }.map { $0.d_un.d_ptr }
        }
        let stringTable = address(DT_STRTAB).flatMap { strtab in
            fileOffset(of: strtab, in: segments).flatMap { offset in
                rawChunk(offset: offset, size: address(DT_STRSZ) ?? 0, type: ELF_T_BYTE)
            }
        }
        /// The NUL-terminated string at `offset`, without the NUL.
        func bytes(_ offset: UInt64) -> UnsafeBufferPointer<UInt8>? {
            guard let table = stringTable, let base = table.pointee.d_buf, offset < UInt64(table.pointee.d_size)
            else { return nil }
            let all = UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: table.pointee.d_size)
            guard let end = all[Int(offset)...].firstIndex(of: 0) else { return nil }
            return UnsafeBufferPointer(rebasing: all[Int(offset)..<end])
        }
        let info = Self.dynamicInfo(entries: entries, warnings: &warnings) { bytes($0).map { String(decoding: $0, as: UTF8.self) } }

        var symbols = SymbolTableContents(kind: .dynsym)
        let symbolSize = UInt64(gelf_fsize(elf, ELF_T_SYM, 1, UInt32(EV_CURRENT)))
        guard let symtab = address(DT_SYMTAB), let offset = fileOffset(of: symtab, in: segments),
            let count = dynamicSymbolCount(hash: address(DT_HASH), gnuHash: address(DT_GNU_HASH), segments: segments),
            let table = rawChunk(offset: offset, size: count &* symbolSize, type: ELF_T_SYM)
        else {
            warnings.add("\(reason), and the dynamic symbol table could not be located through PT_DYNAMIC")
            return DynamicSegment(dynamic: info, symbols: SymbolTableContents(kind: .none))
        }
        Self.forEachSymbol(in: table, count: Int(clamping: count)) { _, raw in
            guard SymbolTableContents.isGlobal(raw), let name = bytes(UInt64(raw.st_name)) else { return }
            symbols.add(raw, name: name, selection: selection) { nil }
        }
        warnings.add("\(reason): read through PT_DYNAMIC; symbol versions not read")
        return DynamicSegment(dynamic: info, symbols: symbols)
    }

    /// The program headers (`elf_getphdrnum`, `gelf_getphdr`), up to the
    /// first that cannot be read (libelf reads the table in one piece, so
    /// a table past the end of the file gives none, whatever count the
    /// header claims).
    func programHeaders() -> [GElf_Phdr] {
        var count = 0
        guard elf_getphdrnum(elf, &count) == 0 else { return [] }
        var headers: [GElf_Phdr] = []
        var header = GElf_Phdr()
        for index in 0..<count {
            guard gelf_getphdr(elf, Int32(clamping: index), &header) != nil else { break }
            headers.append(header)
        }
        return headers
    }

    /// The file offset of virtual address `address`, through the `PT_LOAD`
    /// segment that maps it from the file; `nil` when none does.
    func fileOffset(of address: UInt64, in segments: [GElf_Phdr]) -> UInt64? {
        segments.first { segment in
            segment.p_type == UInt32(PT_LOAD) && address >= segment.p_vaddr
                && address - segment.p_vaddr < segment.p_filesz
        }.flatMap { segment in
            let (offset, overflow) = segment.p_offset.addingReportingOverflow(address - segment.p_vaddr)
            return overflow ? nil : offset
        }
    }

    /// `size` bytes at file offset `offset`, translated as `type`
    /// (`elf_getdata_rawchunk`); `nil` when out of the file's bounds.
    func rawChunk(offset: UInt64, size: UInt64, type: Elf_Type) -> UnsafeMutablePointer<Elf_Data>? {
        guard size > 0, let start = Int64(exactly: offset), let length = Int(exactly: size) else { return nil }
        return elf_getdata_rawchunk(elf, start, length, type)
    }

    /// The number of `.dynsym` entries: DT_HASH's `nchain`, or one past the
    /// highest index DT_GNU_HASH's buckets and chains reach.
    func dynamicSymbolCount(hash: UInt64?, gnuHash: UInt64?, segments: [GElf_Phdr]) -> UInt64? {
        func words(at address: UInt64, count: UInt64) -> [UInt32]? {
            guard let offset = fileOffset(of: address, in: segments),
                let data = rawChunk(offset: offset, size: count &* 4, type: ELF_T_WORD),
                let base = data.pointee.d_buf, data.pointee.d_size >= Int(count) * 4
            else { return nil }
            return Array(UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt32.self), count: Int(count)))
        }
        if let hash, let header = words(at: hash, count: 2) {
            return UInt64(header[1])
        }
        guard let gnuHash, let header = words(at: gnuHash, count: 4) else { return nil }
        let (bucketCount, symbolOffset, bloomWords) = (UInt64(header[0]), UInt64(header[1]), UInt64(header[2]))
        let wordSize: UInt64 = gelf_getclass(elf) == ELFCLASS64 ? 8 : 4
        // Addresses come from the file: wrapping arithmetic, and a wrapped
        // address simply maps to no segment.
        let bucketsAddress = gnuHash &+ 16 &+ bloomWords &* wordSize
        guard bucketCount < 1 << 24, let buckets = words(at: bucketsAddress, count: bucketCount) else { return nil }
        guard let last = buckets.max().map(UInt64.init), last >= symbolOffset else { return symbolOffset }
        // Follow the last chain to its end (bit 0 set), reading the chain
        // words in one piece: as many as the mapped segment holds after
        // the chain's start, which bounds the walk by the file's size.
        let chainStart = bucketsAddress &+ bucketCount &* 4 &+ (last - symbolOffset) &* 4
        guard let offset = fileOffset(of: chainStart, in: segments),
            let segment = segments.first(where: {
                $0.p_type == UInt32(PT_LOAD) && chainStart >= $0.p_vaddr && chainStart - $0.p_vaddr < $0.p_filesz
            }),
            let data = rawChunk(offset: offset, size: (segment.p_filesz - (chainStart - segment.p_vaddr)) & ~3, type: ELF_T_WORD),
            let base = data.pointee.d_buf
        else { return nil }
        let chain = UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt32.self), count: data.pointee.d_size / 4)
        guard let end = chain.firstIndex(where: { $0 & 1 != 0 }) else { return nil }
        return last &+ UInt64(end) &+ 1
    }
}
#endif
