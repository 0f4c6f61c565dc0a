import LinkCheckImage

/// The source of addresses of a Mach-O image: its DWARF found as
/// ``MachODWARFPlan`` says (dSYM, debug map, or the image's own
/// `__DWARF`), decoded by ``DWARFSourceLookup``. Every problem is a note.
enum MachOSourceLines {
    /// The source of each of `addresses` (virtual addresses of `image`)
    /// that the image's DWARF covers, with notes on what could not be used;
    /// `dsyms` are the `--dsym` paths.
    static func lookup(_ addresses: Set<UInt64>, in image: BinaryImage, dsyms: [String]) -> SourceLookup {
        let plan = MachODWARFPlan(addresses: addresses, image: image, dsyms: dsyms)
        var lookup = SourceLookup(notes: plan.notes)
        for part in plan.parts {
            do {
                let found = try DWARFSourceLookup.sources(
                    of: Set(part.addresses.keys), in: DWARFSections(named: part.sections, littleEndian: part.littleEndian))
                for (address, source) in found {
                    for imageAddress in part.addresses[address] ?? [] { lookup.sources[imageAddress] = source }
                }
            } catch {
                lookup.notes.append("\(part.file): unreadable debug information of \(image.name): \(error); its call sites have no source")
            }
        }
        return lookup
    }
}
