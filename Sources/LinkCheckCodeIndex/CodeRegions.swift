import LinkCheckImage

/// One section of code to decode: its bytes, where they are loaded and
/// where they are in the file.
struct CodeBytes {
    /// Virtual address of the first byte.
    var address: UInt64
    /// Offset of the first byte from the start of the file.
    var fileOffset: UInt64
    /// The section's bytes (the buffer belongs to the caller).
    var bytes: UnsafeRawBufferPointer

    /// Virtual address just past the last byte.
    var end: UInt64 { address &+ UInt64(bytes.count) }
}

/// A stretch of a code section that belongs to one function (from its
/// start to the next function's start or its own end, whichever comes
/// first) or to none (the code after a function's end and before the next
/// function's start, or before the first): the unit of decoding. Each is
/// decoded from its own start, whatever the instruction before it did
/// (zeros padding a function out can run into the next one's first
/// instruction), so a region decodes the same alone as in a sweep.
struct CodeRegion: Equatable {
    /// Index of the section in ``CodeRegions/sections``.
    var section: Int
    /// Virtual address of the first byte.
    var start: UInt64
    /// Virtual address just past the last byte an instruction starts in.
    var end: UInt64
    /// The function (index in the image's functions), or `nil`.
    var function: Int?
}

/// The regions of an image's code sections, from its functions (sorted by
/// address, one per address): a function covers `max(size, 1)` bytes from
/// its address, and an address belongs to the last function that starts
/// at or before it when it lies inside that function. Code no function
/// covers is also split at each of `boundaries` (sorted): where the unwind
/// tables say an unnamed function starts.
struct CodeRegions {
    let functions: FunctionTable
    let sections: [CodeBytes]
    var boundaries: [UInt64] = []
    /// Gives back the resident pages of ``sections``' bytes, which are read
    /// from the file again if touched (ELF: ``ELFFile/discardPages(of:)``
    /// over libelf's mapping; nothing for bytes in memory).
    var giveBackPages: () -> Void = {}

    /// The region of section `section` that holds `address` (which lies in
    /// the section).
    func region(containing address: UInt64, in section: Int) -> CodeRegion {
        region(
            containing: address, in: section, last: functions.entries.lastIndex(atOrBefore: address, address: \.address),
            nextBoundary: boundaries.lastIndex(atOrBefore: address) { $0 }.map { $0 + 1 } ?? 0)
    }

    /// The region of section `section` that holds `address`, given the
    /// last function that starts at or before it (`nil`: none) and the
    /// first boundary after it.
    private func region(containing address: UInt64, in section: Int, last: Int?, nextBoundary: Int) -> CodeRegion {
        let bounds = sections[section]
        let next = last.map { $0 + 1 } ?? 0
        let nextStart = next < functions.count ? functions[next].address : UInt64.max
        if let last, address - functions[last].address < coverage(last) {
            let start = max(functions[last].address, bounds.address)
            return CodeRegion(section: section, start: start, end: min(bounds.end, nextStart, end(of: last)), function: last)
        }
        var start = max(bounds.address, last.map(end(of:)) ?? bounds.address)
        var end = min(bounds.end, nextStart)
        if nextBoundary > 0 { start = max(start, boundaries[nextBoundary - 1]) }
        if nextBoundary < boundaries.count { end = min(end, boundaries[nextBoundary]) }
        return CodeRegion(section: section, start: start, end: end, function: nil)
    }

    /// The section that holds `address`, or `nil`.
    func section(holding address: UInt64) -> Int? {
        sections.indices.first { address >= sections[$0].address && address < sections[$0].end }
    }

    /// Calls `body` with each region of section `section`, in address order
    /// (those ``region(containing:in:)`` gives, found in one walk over the
    /// functions and boundaries).
    func forEachRegion(in section: Int, _ body: (CodeRegion) -> Void) {
        let bounds = sections[section]
        var address = bounds.address
        var next = functions.entries.lastIndex(atOrBefore: address, address: \.address).map { $0 + 1 } ?? 0
        var nextBoundary = boundaries.lastIndex(atOrBefore: address) { $0 }.map { $0 + 1 } ?? 0
        while address < bounds.end {
            while next < functions.count, functions[next].address <= address { next += 1 }
            while nextBoundary < boundaries.count, boundaries[nextBoundary] <= address { nextBoundary += 1 }
            let region = region(containing: address, in: section, last: next > 0 ? next - 1 : nil, nextBoundary: nextBoundary)
            body(region)
            address = region.end
        }
    }

    /// The bytes of a function: `max(size, 1)`.
    private func coverage(_ index: Int) -> UInt64 { max(functions[index].size, 1) }

    /// Address just past a function, or `UInt64.max` when that overflows.
    private func end(of index: Int) -> UInt64 {
        let (end, overflow) = functions[index].address.addingReportingOverflow(coverage(index))
        return overflow ? .max : end
    }
}
