import CLibELF

extension ELFFile {
    /// Reads the dynamic section (`SHT_DYNAMIC`; ELF spec "Dynamic Section")
    /// with `gelf_getdyn`, resolving string-valued tags through the section
    /// named by its `sh_link`.
    ///
    /// Entries whose string offset is out of range are skipped and reported
    /// in `warnings`.
    func dynamicInfo(sections: [Section], warnings: inout [String]) -> DynamicInfo {
        var info = DynamicInfo()
        guard let dynamic = sections.first(where: { $0.type == UInt32(SHT_DYNAMIC) }),
              let data = dynamic.data
        else { return info }
        let entrySize = max(gelf_fsize(elf, ELF_T_DYN, 1, UInt32(EV_CURRENT)), 1)
        let count = data.pointee.d_size / entrySize
        let strings = Int(dynamic.header.sh_link)

        func text(_ entry: GElf_Dyn, _ tag: String) -> String? {
            guard let value = string(inSection: strings, at: Int(entry.d_un.d_val)) else {
                warnings.append("\(tag) string offset \(entry.d_un.d_val) is out of range")
                return nil
            }
            return value
        }

        var entry = GElf_Dyn()
        for index in 0..<count {
            guard gelf_getdyn(data, Int32(clamping: index), &entry) != nil else { break }
            switch entry.d_tag {
            case Int64(DT_NULL): return info
            case Int64(DT_SONAME): info.soname = text(entry, "DT_SONAME")
            case Int64(DT_NEEDED): text(entry, "DT_NEEDED").map { info.needed.append($0) }
            case Int64(DT_RPATH): info.rpath = text(entry, "DT_RPATH").map(Self.searchPath) ?? []
            case Int64(DT_RUNPATH): info.runpath = text(entry, "DT_RUNPATH").map(Self.searchPath) ?? []
            case Int64(DT_FLAGS): info.flags = entry.d_un.d_val
            case Int64(DT_FLAGS_1): info.flags1 = entry.d_un.d_val
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
    public var isPositionIndependentExecutable: Bool { flags1 & UInt64(DF_1_PIE) != 0 }
}
