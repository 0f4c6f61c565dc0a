/// Maps an image's virtual addresses to the bytes of the file that hold
/// them: through its segments (`vmaddr`..`vmaddr + filesize` ↔ `fileoff`),
/// or in `MH_OBJECT` files, where one unnamed segment holds all sections
/// and zero-fill ones have no bytes, through its sections.
struct AddressSpace {
    private struct Mapping {
        var address: UInt64
        var size: UInt64
        var fileOffset: UInt64
    }

    /// Sorted by address.
    private let mappings: [Mapping]
    /// The image's bytes.
    let image: ByteReader
    let is64Bit: Bool

    init(segments: [Segment], fileType: FileType, image: ByteReader, is64Bit: Bool) {
        self.image = image
        self.is64Bit = is64Bit
        var mappings: [Mapping] = []
        if fileType == .object {
            for section in segments.flatMap(\.sections) where section.hasFileContents {
                mappings.append(Mapping(address: section.address, size: section.size, fileOffset: UInt64(section.fileOffset)))
            }
        } else {
            for segment in segments where segment.fileSize > 0 {
                mappings.append(
                    Mapping(address: segment.address, size: min(segment.fileSize, segment.virtualSize), fileOffset: segment.fileOffset))
            }
        }
        self.mappings = mappings.sorted { $0.address < $1.address }
    }

    /// The offset in the image of the `size` bytes at virtual address
    /// `address`, when they all lie in the file within one mapping.
    func fileOffset(of address: UInt64, size: Int = 1) -> Int? {
        guard let mapping = mapping(containing: address) else { return nil }
        let delta = address - mapping.address
        guard delta < mapping.size, UInt64(size) <= mapping.size - delta else { return nil }
        let (offset, overflow) = mapping.fileOffset.addingReportingOverflow(delta)
        guard !overflow, image.contains(offset: offset, size: UInt64(size)) else { return nil }
        return Int(offset)
    }

    /// The pointer-sized value stored at virtual address `address`.
    func pointer(at address: UInt64) -> UInt64? {
        let size = is64Bit ? 8 : 4
        guard let offset = fileOffset(of: address, size: size) else { return nil }
        return image.pointer(at: offset, is64Bit: is64Bit)
    }

    /// The NUL-terminated string at virtual address `address`; it must end
    /// within the same mapping.
    func cString(at address: UInt64) -> String? {
        guard let offset = fileOffset(of: address), let mapping = mapping(containing: address) else { return nil }
        let remaining = min(mapping.size - (address - mapping.address), UInt64(image.count - offset))
        return image.cString(at: offset, end: offset + Int(remaining))
    }

    /// The last mapping that starts at or before `address`.
    private func mapping(containing address: UInt64) -> Mapping? {
        var low = 0
        var high = mappings.count
        while low < high {
            let middle = (low + high) / 2
            if mappings[middle].address <= address { low = middle + 1 } else { high = middle }
        }
        return low > 0 ? mappings[low - 1] : nil
    }
}
