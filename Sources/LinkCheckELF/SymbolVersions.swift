import CLibELF
import LinkCheckImage

/// The GNU symbol-versioning sections of one image: `.gnu.version`
/// (`SHT_GNU_versym`, one half-word per `.dynsym` entry), `.gnu.version_r`
/// (`SHT_GNU_verneed`, versions required from other files) and
/// `.gnu.version_d` (`SHT_GNU_verdef`, versions this file defines).
/// See the LSB Core specification, "Symbol Versioning".
struct SymbolVersions {
    /// `.gnu.version` data, indexed like `.dynsym`.
    private var versym: UnsafeMutablePointer<Elf_Data>?
    /// Version index → name, from both `.gnu.version_r` (`vna_other`) and
    /// `.gnu.version_d` (`vd_ndx`).
    private var names: [UInt16: String] = [:]

    /// `VERSYM_HIDDEN`: the version is not the default one.
    private static let hiddenBit: UInt16 = 0x8000

    /// Reads the version sections; malformed chains stop early and are
    /// reported in `warnings`.
    init(file: ELFFile, sections: [Section], warnings: inout [String]) {
        let versionTypes = [SHT_GNU_versym, SHT_GNU_verneed, SHT_GNU_verdef].map(UInt32.init)
        for section in sections.filter({ versionTypes.contains($0.type) }).withDistinctFileRanges() {
            switch section.type {
            case UInt32(SHT_GNU_versym):
                versym = section.data
            case UInt32(SHT_GNU_verneed):
                readNeeded(file: file, section: section, warnings: &warnings)
            case UInt32(SHT_GNU_verdef):
                readDefined(file: file, section: section, warnings: &warnings)
            default:
                break
            }
        }
    }

    /// The version of the `.dynsym` entry at `index`: its name and whether
    /// it is hidden; `nil` for `VER_NDX_LOCAL` (0) and `VER_NDX_GLOBAL` (1).
    func version(ofSymbolAt index: Int) -> (name: String, hidden: Bool)? {
        guard let versym else { return nil }
        var raw = GElf_Versym()
        guard gelf_getversym(versym, Int32(clamping: index), &raw) != nil else { return nil }
        let number = raw & ~Self.hiddenBit
        guard number >= 2, let name = names[number] else { return nil }
        return (name, raw & Self.hiddenBit != 0)
    }

    /// Walks `Elf_Verneed` records and their `Elf_Vernaux` entries.
    private mutating func readNeeded(file: ELFFile, section: Section, warnings: inout [String]) {
        guard let data = section.data else { return }
        let size = data.pointee.d_size
        let strings = Int(section.header.sh_link)
        var offset = 0
        var need = GElf_Verneed()
        // Each record is at least 16 bytes, which bounds the walk.
        for _ in 0..<(size / 16 + 1) {
            guard gelf_getverneed(data, Int32(clamping: offset), &need) != nil else {
                warnings.append(".gnu.version_r: record at offset \(offset) is out of range")
                return
            }
            var auxOffset = offset + Int(need.vn_aux)
            var aux = GElf_Vernaux()
            for _ in 0..<Int(need.vn_cnt) {
                guard gelf_getvernaux(data, Int32(clamping: auxOffset), &aux) != nil else {
                    warnings.append(".gnu.version_r: auxiliary entry at offset \(auxOffset) is out of range")
                    break
                }
                if let name = file.string(inSection: strings, at: Int(aux.vna_name)) {
                    names[aux.vna_other & ~Self.hiddenBit] = name
                }
                guard aux.vna_next != 0 else { break }
                auxOffset += Int(aux.vna_next)
            }
            guard need.vn_next != 0 else { return }
            offset += Int(need.vn_next)
        }
    }

    /// Walks `Elf_Verdef` records; the first `Elf_Verdaux` names the version.
    private mutating func readDefined(file: ELFFile, section: Section, warnings: inout [String]) {
        guard let data = section.data else { return }
        let size = data.pointee.d_size
        let strings = Int(section.header.sh_link)
        var offset = 0
        var definition = GElf_Verdef()
        for _ in 0..<(size / 20 + 1) {
            guard gelf_getverdef(data, Int32(clamping: offset), &definition) != nil else {
                warnings.append(".gnu.version_d: record at offset \(offset) is out of range")
                return
            }
            var aux = GElf_Verdaux()
            if definition.vd_cnt > 0,
               gelf_getverdaux(data, Int32(clamping: offset + Int(definition.vd_aux)), &aux) != nil,
               let name = file.string(inSection: strings, at: Int(aux.vda_name)) {
                names[definition.vd_ndx & ~Self.hiddenBit] = name
            }
            guard definition.vd_next != 0 else { return }
            offset += Int(definition.vd_next)
        }
    }
}
