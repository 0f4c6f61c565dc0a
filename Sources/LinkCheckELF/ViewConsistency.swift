#if canImport(CLibELF)  // read through libelf: not in a build without it (Package.swift)
import CLibELF

/// What the section headers (the linker's view, which the loader never
/// reads) and the program headers (the loader's view) must agree on, checked
/// cheaply on every file: a handful of program headers against the sections
/// already read, before anything is read again through the segments.
///
/// A damaged or forged section header table (zeroed, random, a `.dynsym`
/// retyped) must not hide what the loader will bind: when the two views
/// disagree, the dynamic section and symbols are read through `PT_DYNAMIC`
/// (``DynamicSegment``) and the image carries a warning naming the
/// disagreement, so it is never called safe on the section view alone.
extension ELFFile {
    /// Why the sections cannot be trusted for the dynamic section and the
    /// dynamic symbols, or `nil` when they agree with `segments`:
    ///
    /// - `PT_DYNAMIC` holds bytes of the file, but the first `SHT_DYNAMIC`
    ///   section (the one ``dynamicInfo(sections:warnings:)`` reads) is
    ///   missing or does not cover the same file offset and size;
    /// - `dynamic` (read from the sections) has DT_SYMTAB, but the first
    ///   `SHT_DYNSYM` section (the one ``symbolTable(sections:selection:warnings:)``
    ///   reads) is missing, is not at that virtual address, or its string
    ///   table (`sh_link`) is not at DT_STRTAB's.
    ///
    /// A `PT_DYNAMIC` with no bytes in the file (`p_filesz` 0, as in a
    /// separate debug file) is nothing to disagree with.
    func sectionViewDisagreement(sections: [Section], segments: [GElf_Phdr], dynamic: DynamicInfo) -> String? {
        guard let segment = segments.first(where: { $0.p_type == UInt32(PT_DYNAMIC) }), segment.p_filesz > 0 else { return nil }
        let prefix = "the section headers disagree with PT_DYNAMIC"
        let dynamicSection = sections.first { $0.type == UInt32(SHT_DYNAMIC) }
        guard let dynamicSection, dynamicSection.header.sh_offset == segment.p_offset,
            dynamicSection.header.sh_size == segment.p_filesz
        else {
            let found =
                dynamicSection.map { ", but SHT_DYNAMIC section \($0.index) has \($0.header.sh_size) bytes at \(hex($0.header.sh_offset))" }
                ?? ""
            return "\(prefix) (no SHT_DYNAMIC section has its \(segment.p_filesz) bytes at file offset \(hex(segment.p_offset))\(found))"
        }
        guard let symbolTable = dynamic.symbolTableAddress else { return nil }
        let dynsym = sections.first { $0.type == UInt32(SHT_DYNSYM) }
        let strings = dynsym.flatMap { table in sections.first { $0.index == Int(table.header.sh_link) } }
        guard let dynsym, dynsym.header.sh_addr == symbolTable,
            dynamic.stringTableAddress == nil || strings?.header.sh_addr == dynamic.stringTableAddress
        else {
            let strtab = dynamic.stringTableAddress.map { " with its strings at DT_STRTAB \(hex($0))" } ?? ""
            return "\(prefix) (no SHT_DYNSYM section is at DT_SYMTAB \(hex(symbolTable))\(strtab))"
        }
        return nil
    }

    /// A warning when an image the loader maps (`ET_EXEC`, `ET_DYN`) has
    /// program headers (`e_phnum` > 0) but none could be read, or none of
    /// `segments` is `PT_LOAD`: there is nothing the loader could map, so
    /// they are damaged and neither view can be trusted. (A file with no
    /// program headers at all, as some tools' test files are, is left
    /// alone.)
    func missingLoadSegment(header: GElf_Ehdr, segments: [GElf_Phdr]) -> String? {
        guard header.e_type == UInt16(ET_EXEC) || header.e_type == UInt16(ET_DYN), header.e_phnum > 0,
            !segments.contains(where: { $0.p_type == UInt32(PT_LOAD) })
        else { return nil }
        let table = "the program headers (\(header.e_phnum) at file offset \(header.e_phoff))"
        return segments.isEmpty
            ? "\(table) cannot be read: they are truncated or corrupt"
            : "\(table) hold no PT_LOAD segment, which a loadable image must have: they are damaged"
    }

    private func hex(_ value: UInt64) -> String { "0x" + String(value, radix: 16) }
}
#endif
