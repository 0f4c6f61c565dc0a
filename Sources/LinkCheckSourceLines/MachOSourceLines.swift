import LinkCheckImage
import LinkCheckMachO

/// The source of addresses of a Mach-O image: its DWARF found as
/// ``MachODWARFPlan`` says (dSYM, debug map, or the image's own
/// `__DWARF`), decoded by ``DWARFSourceLookup``: through the mapping of a
/// dSYM or image (only the pages read become resident), from memory for an
/// object file of a debug map. Every problem is a note.
enum MachOSourceLines {
    /// The source of each of `addresses` (virtual addresses of `image`)
    /// that the image's DWARF covers, with notes on what could not be used;
    /// `dsyms` are the `--dsym` paths.
    static func lookup(_ addresses: Set<UInt64>, in image: BinaryImage, dsyms: [String]) -> SourceLookup {
        resolve(MachODWARFPlan(addresses: addresses, image: image, dsyms: dsyms), imageName: image.name)
    }

    /// The sources of the addresses of `plan`'s parts, with its notes and
    /// a note for each part that could not be read; `imageName` names the
    /// image in them.
    static func resolve(_ plan: MachODWARFPlan, imageName: String) -> SourceLookup {
        var lookup = SourceLookup(notes: plan.notes)
        for part in plan.parts {
            do {
                for (address, source) in try sources(of: Set(part.addresses.keys), in: part).get() {
                    for imageAddress in part.addresses[address] ?? [] { lookup.sources[imageAddress] = source }
                }
            } catch let error as DWARFError {
                lookup.notes.append("\(part.file): unreadable debug information of \(imageName): \(error); its call sites have no source")
            } catch {
                lookup.notes.append(
                    "\(part.file): changed while the debug information of \(imageName) was read: its call sites have no source; check it again once it is written"
                )
            }
        }
        return lookup
    }

    /// The sources of `addresses` (in the part's own address space) in the
    /// part's sections.
    ///
    /// - Throws: ``MachOError/changedWhileRead(path:)`` when the mapped file
    ///   was truncated or rewritten during the lookup.
    private static func sources(of addresses: Set<UInt64>, in part: MachODWARFPlan.Part) throws(MachOError) -> Result<
        [UInt64: AddressSource], DWARFError
    > {
        func lookUp(_ sections: DWARFSections) -> Result<[UInt64: AddressSource], DWARFError> {
            Result { () throws(DWARFError) in try DWARFSourceLookup.sources(of: addresses, in: sections) }
        }
        switch part.sections {
        case .mapped(let mapped):
            return try mapped.read { named in lookUp(DWARFSections(bytes: DWARFSections.byName(named), littleEndian: part.littleEndian)) }
        case .owned(let owned):
            return DWARFSections.withOwned(DWARFSections.byName(owned), littleEndian: part.littleEndian, lookUp)
        }
    }

}
