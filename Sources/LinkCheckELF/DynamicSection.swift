#if canImport(CLibELF)  // read through libelf: not in a build without it (Package.swift)
import CLibELF
import LinkCheckImage

/// The parts of the dynamic section (`SHT_DYNAMIC`, ELF spec "Dynamic
/// Section") that linkage analysis needs.
struct DynamicInfo: Sendable, Equatable {
    /// DT_SONAME.
    var soname: String?
    /// DT_NEEDED entries, in the order they appear.
    var needed: [String] = []
    /// DT_RPATH, split at `:`.
    var rpath: [String] = []
    /// DT_RUNPATH, split at `:`.
    var runpath: [String] = []
    /// DT_FLAGS (`DF_*` bits), 0 when absent.
    var flags: UInt64 = 0
    /// DT_FLAGS_1 (`DF_1_*` bits), 0 when absent.
    var flags1: UInt64 = 0
    /// DT_SYMTAB: the virtual address of the dynamic symbol table, `nil`
    /// when absent.
    var symbolTableAddress: UInt64?
    /// DT_STRTAB: the virtual address of the dynamic string table, `nil`
    /// when absent.
    var stringTableAddress: UInt64?

    init() {}
}

extension ELFFile {
    /// Reads the dynamic section (`SHT_DYNAMIC`; ELF spec "Dynamic Section")
    /// with `gelf_getdyn`, resolving string-valued tags through the section
    /// named by its `sh_link`.
    ///
    /// Entries whose string offset is out of range are skipped and reported
    /// in `warnings`.
    func dynamicInfo(sections: [Section], warnings: inout ReadWarnings) -> DynamicInfo {
        guard let dynamic = sections.first(where: { $0.type == UInt32(SHT_DYNAMIC) }),
            let data = dynamic.data
        else { return DynamicInfo() }
        let entrySize = max(gelf_fsize(elf, ELF_T_DYN, 1, UInt32(EV_CURRENT)), 1)
        let count = data.pointee.d_size / entrySize
        let strings = Int(dynamic.header.sh_link)

        return Self.dynamicInfo(entries: dynamicEntries(data, count: count), warnings: &warnings) { offset in
            Int(exactly: offset).flatMap { string(inSection: strings, at: $0) }
        }
    }

    /// The entries of dynamic-section data, up to `DT_NULL`.
    func dynamicEntries(_ data: UnsafeMutablePointer<Elf_Data>, count: Int) -> [GElf_Dyn] {
        var entries: [GElf_Dyn] = []
        var entry = GElf_Dyn()
        for index in 0..<count {
            guard gelf_getdyn(data, Int32(clamping: index), &entry) != nil, entry.d_tag != Int64(DT_NULL) else { break }
            entries.append(entry)
        }
        return entries
    }

    /// Reads the tags linkage needs from dynamic entries; `string` resolves a
    /// string-table offset (`nil` when out of range, reported in `warnings`).
    static func dynamicInfo(
        entries: [GElf_Dyn], warnings: inout ReadWarnings, string: (UInt64) -> String?
    ) -> DynamicInfo {
        var info = DynamicInfo()
        func text(_ entry: GElf_Dyn, _ tag: String) -> String? {
            guard let value = string(entry.d_un.d_val) else {
                warnings.add("\(tag) string offset \(entry.d_un.d_val) is out of range")
                return nil
            }
            return value
        }
        for entry in entries {
            switch entry.d_tag {
            case Int64(DT_SONAME): info.soname = text(entry, "DT_SONAME")
            case Int64(DT_NEEDED): text(entry, "DT_NEEDED").map { info.needed.append($0) }
            case Int64(DT_RPATH): info.rpath = text(entry, "DT_RPATH").map(Self.searchPath) ?? []
            case Int64(DT_RUNPATH): info.runpath = text(entry, "DT_RUNPATH").map(Self.searchPath) ?? []
            case Int64(DT_FLAGS): info.flags = entry.d_un.d_val
            case Int64(DT_FLAGS_1): info.flags1 = entry.d_un.d_val
            case Int64(DT_SYMTAB): info.symbolTableAddress = entry.d_un.d_ptr
            case Int64(DT_STRTAB): info.stringTableAddress = entry.d_un.d_ptr
            default: break
            }
        }
        return info
    }

    private static func searchPath(_ value: String) -> [String] {
        value.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
    }
}

extension DynamicInfo {
    /// `DF_1_PIE` is set in DT_FLAGS_1: an `ET_DYN` file that is a
    /// position-independent executable, not a shared library.
    var isPositionIndependentExecutable: Bool { flags1 & UInt64(DF_1_PIE) != 0 }
}
#endif
