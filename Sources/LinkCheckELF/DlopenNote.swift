#if canImport(CLibELF)  // read through libelf: not in a build without it (Package.swift)
import CLibELF
import Foundation
import LinkCheckImage

extension ELFFile {
    /// The `.note.dlopen` entries of every `SHT_NOTE` section
    /// (`gelf_getnote`); a malformed note is reported in `warnings`.
    func declaredLoads(sections: [Section], warnings: inout ReadWarnings) -> [DeclaredLoad] {
        var loads: [DeclaredLoad] = []
        for section in sections.filter({ $0.type == UInt32(SHT_NOTE) }).withDistinctFileRanges() {
            guard let data = section.data, let base = data.pointee.d_buf else { continue }
            var offset = 0
            var header = GElf_Nhdr()
            var nameOffset = 0
            var descriptorOffset = 0
            while offset < data.pointee.d_size {
                let next = gelf_getnote(data, offset, &header, &nameOffset, &descriptorOffset)
                guard next > offset else { break }
                offset = next
                guard header.n_type == 0x407c_0c0a, header.n_namesz == 4,
                    descriptorOffset + Int(header.n_descsz) <= data.pointee.d_size,
                    String(decoding: UnsafeRawBufferPointer(start: base + nameOffset, count: 3), as: UTF8.self) == "FDO"
                else { continue }
                let bytes = UnsafeRawBufferPointer(start: base + descriptorOffset, count: Int(header.n_descsz))
                let json = Data(bytes.prefix { $0 != 0 })
                guard let entries = (try? JSONSerialization.jsonObject(with: json)) as? [[String: Any]] else {
                    warnings.add("\(section.name): an FDO dlopen note that is not a JSON array of objects")
                    continue
                }
                for entry in entries {
                    let sonames = entry["soname"] as? [String] ?? (entry["soname"] as? String).map { [$0] } ?? []
                    guard !sonames.isEmpty else { continue }
                    loads.append(
                        DeclaredLoad(
                            sonames: sonames, feature: entry["feature"] as? String,
                            description: entry["description"] as? String, priority: entry["priority"] as? String))
                }
            }
        }
        return loads
    }
}
#endif
