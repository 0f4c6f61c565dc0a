#if canImport(CLibELF)  // read through libelf: not in a build without it (Package.swift)
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
    init(file: ELFFile, sections: [Section], warnings: inout ReadWarnings) {
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
    private mutating func readNeeded(file: ELFFile, section: Section, warnings: inout ReadWarnings) {
        let strings = Int(section.header.sh_link)
        // Each record is at least 16 bytes, which bounds the walk.
        Self.forEachRecord(in: section, size: 16, structure: ".gnu.version_r", warnings: &warnings) { data, offset, warnings in
            var need = GElf_Verneed()
            guard gelf_getverneed(data, Int32(clamping: offset), &need) != nil else { return nil }
            var auxOffset = offset + Int(need.vn_aux)
            var aux = GElf_Vernaux()
            for _ in 0..<Int(need.vn_cnt) {
                guard gelf_getvernaux(data, Int32(clamping: auxOffset), &aux) != nil else {
                    warnings.add(".gnu.version_r: auxiliary entry at offset \(auxOffset) is out of range")
                    break
                }
                if let name = file.string(inSection: strings, at: Int(aux.vna_name)) {
                    names[aux.vna_other & ~Self.hiddenBit] = name
                }
                guard aux.vna_next != 0 else { break }
                auxOffset += Int(aux.vna_next)
            }
            return Int(need.vn_next)
        }
    }

    /// Walks `Elf_Verdef` records; the first `Elf_Verdaux` names the version.
    private mutating func readDefined(file: ELFFile, section: Section, warnings: inout ReadWarnings) {
        let strings = Int(section.header.sh_link)
        Self.forEachRecord(in: section, size: 20, structure: ".gnu.version_d", warnings: &warnings) { data, offset, _ in
            var definition = GElf_Verdef()
            guard gelf_getverdef(data, Int32(clamping: offset), &definition) != nil else { return nil }
            var aux = GElf_Verdaux()
            if definition.vd_cnt > 0,
                gelf_getverdaux(data, Int32(clamping: offset + Int(definition.vd_aux)), &aux) != nil,
                let name = file.string(inSection: strings, at: Int(aux.vda_name))
            {
                names[definition.vd_ndx & ~Self.hiddenBit] = name
            }
            return Int(definition.vd_next)
        }
    }

    /// Calls `read` with the section's data and the offset of each record
    /// of its chain (`Elf_Verneed`, `Elf_Verdef`), from offset 0, following
    /// the offset to the next record (`vn_next`, `vd_next`, from the
    /// record's start) that `read` returns, until it is 0. A record `read`
    /// cannot read (it returns `nil`) ends the walk with a warning naming
    /// `structure`; records are at least `size` bytes, which bounds the
    /// walk.
    private static func forEachRecord(
        in section: Section, size: Int, structure: String, warnings: inout ReadWarnings,
        _ read: (_ data: UnsafeMutablePointer<Elf_Data>, _ offset: Int, _ warnings: inout ReadWarnings) -> Int?
    ) {
        guard let data = section.data else { return }
        var offset = 0
        for _ in 0..<(data.pointee.d_size / size + 1) {
            guard let next = read(data, offset, &warnings) else {
                warnings.add("\(structure): record at offset \(offset) is out of range")
                return
            }
            guard next != 0 else { return }
            offset += next
        }
    }
}
#endif
