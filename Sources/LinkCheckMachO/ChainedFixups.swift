import LinkCheckImage

/// `LC_DYLD_CHAINED_FIXUPS` (`<mach-o/fixup-chains.h>`): the imports table
/// and the pointer chains of each segment, decoded into binds (slot →
/// import) and rebases (slot → target address).
struct ChainedFixups {
    var imports: [MachOImport] = []
    var bindings: [Binding] = []
    var rebases: [Rebase] = []
    /// The `DYLD_CHAINED_PTR_*` formats of the segments' chains.
    var pointerFormats: [ChainedPointerFormat] = []

    /// Reads the fixups in `data` (the command's `dataoff`/`datasize`).
    ///
    /// - Parameters:
    ///   - segments: the image's segments; `dyld_chained_starts_in_image`
    ///     has one entry per segment, in load-command order.
    ///   - base: the image's preferred load address (the `__TEXT` vmaddr):
    ///     rebase targets given as offsets from it become virtual addresses.
    ///   - limit: the most chain entries walked in all (the image's size
    ///     over 4: more than that would visit some slot twice).
    static func read(
        _ data: ByteReader, image: ByteReader, segments: [Segment], base: UInt64, limit: Int, warnings: inout ReadWarnings
    ) -> ChainedFixups {
        var fixups = ChainedFixups()
        let header: Record
        do { header = try data.record("dyld_chained_fixups_header", at: 0, size: 28) } catch {
            warnings.add(error, skipping: "the chained fixups")
            return fixups
        }
        let version = header.u32(0)
        if version != 0 {
            warnings.add("dyld_chained_fixups_header", at: data.fileOffset, "fixups_version \(version) is not 0; read as version 0")
        }
        let importsUsable = fixups.readImports(
            data, offset: header.u32(8), count: header.u32(16), format: header.u32(20), symbolsOffset: header.u32(12),
            symbolsFormat: header.u32(24), warnings: &warnings)
        var walker = ChainWalker(
            image: image, segments: segments, base: base, importCount: importsUsable ? fixups.imports.count : nil,
            budget: limit)
        walker.readStarts(data, offset: header.u32(4), into: &fixups, warnings: &warnings)
        return fixups
    }

    /// Reads `imports_count` entries of `imports_format` at `offset`, named
    /// from the strings at `symbolsOffset`. Returns whether binds can be
    /// matched to them (`false` when the table could not be read).
    private mutating func readImports(
        _ data: ByteReader, offset: UInt32, count: UInt32, format: UInt32, symbolsOffset: UInt32, symbolsFormat: UInt32,
        warnings: inout ReadWarnings
    ) -> Bool {
        let entrySize: Int
        switch format {
        case 1: entrySize = 4  // DYLD_CHAINED_IMPORT
        case 2: entrySize = 8  // DYLD_CHAINED_IMPORT_ADDEND
        case 3: entrySize = 16  // DYLD_CHAINED_IMPORT_ADDEND64
        default:
            warnings.add("dyld_chained_fixups_header", at: data.fileOffset, "unknown imports_format \(format); imports and binds skipped")
            return false
        }
        guard symbolsFormat == 0 else {
            warnings.add(
                "dyld_chained_fixups_header", at: data.fileOffset,
                "symbols_format \(symbolsFormat) (zlib-compressed symbol names) is not decompressed by this reader; imports and binds skipped"
            )
            return false
        }
        guard data.contains(offset: UInt64(offset), size: UInt64(count) * UInt64(entrySize)) else {
            warnings.add(
                "dyld_chained_fixups_header", at: data.fileOffset,
                "the imports table (\(count) entries of \(entrySize) bytes at \(hex(offset))) runs past the fixups data (\(data.count) bytes); imports and binds skipped"
            )
            return false
        }
        let symbolsStart = Int(min(symbolsOffset, UInt32(data.count)))
        var strings = StringTable(data.window(offset: symbolsStart, size: data.count - symbolsStart) ?? .empty)
        imports.reserveCapacity(Int(count))
        var unnamed = 0
        for index in 0..<Int(count) {
            let at = Int(offset) + index * entrySize
            let ordinal: Int
            let weak: Bool
            let nameOffset: UInt32
            var addend: Int64 = 0
            if format == 3 {
                let word = data.u32(at: at) ?? 0
                let raw = Int(word & 0xffff)
                ordinal = raw > 0xfff0 ? Int(Int16(truncatingIfNeeded: raw)) : raw
                weak = word & 0x1_0000 != 0
                nameOffset = data.u32(at: at + 4) ?? 0
                addend = Int64(bitPattern: data.u64(at: at + 8) ?? 0)
            } else {
                let word = data.u32(at: at) ?? 0
                let raw = Int(word & 0xff)
                ordinal = raw > 0xf0 ? Int(Int8(truncatingIfNeeded: raw)) : raw
                weak = word & 0x100 != 0
                nameOffset = word >> 9
                if format == 2 { addend = Int64(Int32(bitPattern: data.u32(at: at + 4) ?? 0)) }
            }
            let name = strings.string(at: nameOffset)
            if name == nil { unnamed += 1 }
            imports.append(
                MachOImport(
                    name: name ?? "", library: LibraryOrdinal(signed: ordinal), isWeak: weak, source: .chainedFixups,
                    addend: addend))
        }
        if unnamed > 0 {
            warnings.add(
                "dyld_chained_fixups_header", at: data.fileOffset,
                "\(unnamed) import names are outside the symbol strings or not NUL-terminated; read as empty")
        }
        return true
    }
}

/// `dyld_chained_starts_in_segment.pointer_format`.
public enum ChainedPointerFormat: Sendable, Hashable, CustomStringConvertible {
    case arm64e, pointer64, pointer32, pointer32Cache, pointer32Firmware, pointer64Offset, arm64eKernel
    case pointer64KernelCache, arm64eUserland, arm64eFirmware, x86_64KernelCache, arm64eUserland24
    case arm64eSharedCache, arm64eSegmented
    case other(UInt16)

    init(rawValue: UInt16) {
        switch rawValue {
        case 1: self = .arm64e
        case 2: self = .pointer64
        case 3: self = .pointer32
        case 4: self = .pointer32Cache
        case 5: self = .pointer32Firmware
        case 6: self = .pointer64Offset
        case 7: self = .arm64eKernel
        case 8: self = .pointer64KernelCache
        case 9: self = .arm64eUserland
        case 10: self = .arm64eFirmware
        case 11: self = .x86_64KernelCache
        case 12: self = .arm64eUserland24
        case 13: self = .arm64eSharedCache
        case 14: self = .arm64eSegmented
        default: self = .other(rawValue)
        }
    }

    /// The constant's name (`DYLD_CHAINED_PTR_64_OFFSET`).
    public var description: String {
        switch self {
        case .arm64e: "DYLD_CHAINED_PTR_ARM64E"
        case .pointer64: "DYLD_CHAINED_PTR_64"
        case .pointer32: "DYLD_CHAINED_PTR_32"
        case .pointer32Cache: "DYLD_CHAINED_PTR_32_CACHE"
        case .pointer32Firmware: "DYLD_CHAINED_PTR_32_FIRMWARE"
        case .pointer64Offset: "DYLD_CHAINED_PTR_64_OFFSET"
        case .arm64eKernel: "DYLD_CHAINED_PTR_ARM64E_KERNEL"
        case .pointer64KernelCache: "DYLD_CHAINED_PTR_64_KERNEL_CACHE"
        case .arm64eUserland: "DYLD_CHAINED_PTR_ARM64E_USERLAND"
        case .arm64eFirmware: "DYLD_CHAINED_PTR_ARM64E_FIRMWARE"
        case .x86_64KernelCache: "DYLD_CHAINED_PTR_X86_64_KERNEL_CACHE"
        case .arm64eUserland24: "DYLD_CHAINED_PTR_ARM64E_USERLAND24"
        case .arm64eSharedCache: "DYLD_CHAINED_PTR_ARM64E_SHARED_CACHE"
        case .arm64eSegmented: "DYLD_CHAINED_PTR_ARM64E_SEGMENTED"
        case .other(let raw): "pointer_format \(raw)"
        }
    }

    /// Bytes between chain entries per unit of `next`; `nil` for formats this
    /// reader does not decode.
    var stride: Int? {
        switch self {
        case .arm64e, .arm64eUserland, .arm64eUserland24: 8
        case .pointer64, .pointer64Offset, .pointer32, .pointer32Cache, .pointer32Firmware, .arm64eKernel,
            .arm64eFirmware, .pointer64KernelCache:
            4
        case .x86_64KernelCache: 1
        case .arm64eSharedCache, .arm64eSegmented, .other: nil
        }
    }

    /// Whether a chain entry is 32 bits wide (else 64).
    var is32Bit: Bool { self == .pointer32 || self == .pointer32Cache || self == .pointer32Firmware }
}

/// One decoded chain entry.
enum ChainedPointer: Equatable {
    /// Binds import `ordinal` (an index into the imports table).
    case bind(ordinal: Int, addend: Int64)
    /// Points at `target`, an offset from the image's base when
    /// `isOffset`, else a virtual address.
    case rebase(target: UInt64, isOffset: Bool)
    /// A 32-bit chain entry that is not a pointer (its target is above
    /// `max_valid_pointer`).
    case nonPointer
}

extension ChainedPointerFormat {
    /// Decodes one chain entry `raw` (a 32-bit entry in the low half) into
    /// what it fixes up and the `next` field (in strides; 0 ends the chain).
    /// `maxValidPointer` is the segment's `max_valid_pointer` (32-bit
    /// formats). `nil` for formats this reader does not decode.
    func decode(_ raw: UInt64, maxValidPointer: UInt32) -> (ChainedPointer, next: UInt64)? {
        switch self {
        case .arm64e, .arm64eKernel, .arm64eUserland, .arm64eFirmware, .arm64eUserland24:
            // dyld_chained_ptr_arm64e_{rebase,bind,auth_rebase,auth_bind}(24)
            let next = (raw >> 51) & 0x7ff
            let isAuth = raw >> 63 != 0
            if (raw >> 62) & 1 != 0 {
                let ordinal = Int(self == .arm64eUserland24 ? raw & 0xff_ffff : raw & 0xffff)
                let addend: Int64 = isAuth ? 0 : Self.signExtend((raw >> 32) & 0x7_ffff, bits: 19)
                return (.bind(ordinal: ordinal, addend: addend), next)
            }
            if isAuth { return (.rebase(target: raw & 0xffff_ffff, isOffset: true), next) }
            let target = raw & 0x7ff_ffff_ffff  // 43 bits; high8 left out
            return (.rebase(target: target, isOffset: !(self == .arm64e || self == .arm64eFirmware)), next)
        case .pointer64, .pointer64Offset:
            // dyld_chained_ptr_64_{rebase,bind}
            let next = (raw >> 51) & 0xfff
            if raw >> 63 != 0 {
                return (.bind(ordinal: Int(raw & 0xff_ffff), addend: Int64((raw >> 24) & 0xff)), next)
            }
            return (.rebase(target: raw & 0xf_ffff_ffff, isOffset: self == .pointer64Offset), next)
        case .pointer64KernelCache, .x86_64KernelCache:
            // dyld_chained_ptr_64_kernel_cache_rebase
            return (.rebase(target: raw & 0x3fff_ffff, isOffset: true), (raw >> 51) & 0xfff)
        case .pointer32:
            // dyld_chained_ptr_32_{rebase,bind}
            let next = (raw >> 26) & 0x1f
            if (raw >> 31) & 1 != 0 {
                return (.bind(ordinal: Int(raw & 0xf_ffff), addend: Int64((raw >> 20) & 0x3f)), next)
            }
            let target = raw & 0x3ff_ffff
            if target > UInt64(maxValidPointer) { return (.nonPointer, next) }
            return (.rebase(target: target, isOffset: false), next)
        case .pointer32Cache:
            // dyld_chained_ptr_32_cache_rebase
            return (.rebase(target: raw & 0x3fff_ffff, isOffset: true), (raw >> 30) & 0x3)
        case .pointer32Firmware:
            // dyld_chained_ptr_32_firmware_rebase
            return (.rebase(target: raw & 0x3ff_ffff, isOffset: false), (raw >> 26) & 0x3f)
        case .arm64eSharedCache, .arm64eSegmented, .other:
            return nil
        }
    }

    private static func signExtend(_ value: UInt64, bits: Int) -> Int64 {
        let shift = 64 - bits
        return Int64(bitPattern: value << UInt64(shift)) >> Int64(shift)
    }
}

/// Walks the chains of `dyld_chained_starts_in_image`.
private struct ChainWalker {
    let image: ByteReader
    let segments: [Segment]
    let base: UInt64
    /// The number of imports binds may name; `nil` when the imports table
    /// could not be read (binds are then skipped).
    let importCount: Int?
    /// Chain entries that may still be visited.
    var budget: Int

    mutating func readStarts(_ data: ByteReader, offset: UInt32, into fixups: inout ChainedFixups, warnings: inout ReadWarnings) {
        guard let segmentCount = data.u32(at: Int(offset)) else {
            warnings.add("dyld_chained_starts_in_image", at: data.fileOffset + Int(offset), "outside the fixups data; chains skipped")
            return
        }
        let startsOffset = Int(offset)
        guard data.contains(offset: UInt64(offset) + 4, size: UInt64(segmentCount) * 4) else {
            warnings.add(
                "dyld_chained_starts_in_image", at: data.fileOffset + startsOffset,
                "seg_count \(segmentCount) runs past the fixups data; chains skipped")
            return
        }
        if Int(segmentCount) > segments.count {
            warnings.add(
                "dyld_chained_starts_in_image", at: data.fileOffset + startsOffset,
                "seg_count \(segmentCount) is more than the image's \(segments.count) segments; the extra ones skipped")
        }
        var reportedBadOrdinal = false
        for index in 0..<min(Int(segmentCount), segments.count) {
            guard let infoOffset = data.u32(at: startsOffset + 4 + index * 4), infoOffset != 0 else { continue }
            let at = startsOffset + Int(infoOffset)
            let structure = "dyld_chained_starts_in_segment \(index) (\(segments[index].name))"
            guard let record = try? data.record(structure, at: at, size: 22) else {
                warnings.add(structure, at: data.fileOffset + at, "outside the fixups data; its chains skipped")
                continue
            }
            let (size, pageSize, rawFormat) = (Int(record.u32(0)), Int(record.u16(4)), record.u16(6))
            let (segmentOffset, maxValidPointer, pageCount) = (record.u64(8), record.u32(16), Int(record.u16(20)))
            let format = ChainedPointerFormat(rawValue: rawFormat)
            if !fixups.pointerFormats.contains(format) { fixups.pointerFormats.append(format) }
            guard let stride = format.stride else {
                warnings.add(structure, at: data.fileOffset + at, "\(format) chains are not decoded by this reader; skipped")
                continue
            }
            // page_start[] (and, for 32-bit formats, the extra chain starts
            // after it) lie within the structure's `size`.
            let startsEnd = min(size, data.count - at)
            guard 22 + pageCount * 2 <= startsEnd else {
                warnings.add(
                    structure, at: data.fileOffset + at, "page_count \(pageCount) runs past its size or the fixups data; its chains skipped"
                )
                continue
            }
            let segment = segments[index]
            for page in 0..<pageCount {
                guard let start = data.u16(at: at + 22 + page * 2), start != 0xffff else { continue }  // DYLD_CHAINED_PTR_START_NONE
                if format.is32Bit && start & 0x8000 != 0 {
                    // DYLD_CHAINED_PTR_START_MULTI: several chains, listed from
                    // index `start & 0x7fff`, the last with DYLD_CHAINED_PTR_START_LAST.
                    var extra = Int(start & 0x7fff)
                    while 22 + extra * 2 + 2 <= startsEnd, let chain = data.u16(at: at + 22 + extra * 2) {
                        guard
                            walk(
                                page: page, offsetInPage: Int(chain & 0x3fff), pageSize: pageSize, segment: segment,
                                segmentOffset: segmentOffset, format: format, stride: stride, maxValidPointer: maxValidPointer,
                                structure: structure, into: &fixups, reportedBadOrdinal: &reportedBadOrdinal, warnings: &warnings)
                        else { return }
                        if chain & 0x8000 != 0 { break }
                        extra += 1
                    }
                } else {
                    guard
                        walk(
                            page: page, offsetInPage: Int(start), pageSize: pageSize, segment: segment,
                            segmentOffset: segmentOffset, format: format, stride: stride, maxValidPointer: maxValidPointer,
                            structure: structure, into: &fixups, reportedBadOrdinal: &reportedBadOrdinal, warnings: &warnings)
                    else { return }
                }
            }
        }
    }

    /// Walks one chain from `offsetInPage` of `page`. Returns `false` when
    /// the budget ran out (all walking stops).
    private mutating func walk(
        page: Int, offsetInPage start: Int, pageSize: Int, segment: Segment, segmentOffset: UInt64,
        format: ChainedPointerFormat, stride: Int, maxValidPointer: UInt32, structure: String,
        into fixups: inout ChainedFixups, reportedBadOrdinal: inout Bool, warnings: inout ReadWarnings
    ) -> Bool {
        let entrySize = format.is32Bit ? 4 : 8
        var offsetInPage = start
        let pageStart = image.fileOffset &+ Int(truncatingIfNeeded: segment.fileOffset) &+ page &* pageSize
        while true {
            guard offsetInPage + entrySize <= pageSize else {
                warnings.add(
                    structure, at: pageStart,
                    "the chain of page \(page) runs past the page (offset \(hex(offsetInPage)) of \(hex(pageSize))); the rest of it skipped"
                )
                return true
            }
            budget -= 1
            guard budget >= 0 else {
                warnings.add(
                    structure, at: pageStart &+ offsetInPage,
                    "more chain entries than the image has 4-byte slots; the rest of the chains skipped")
                return false
            }
            let inSegment = UInt64(page) * UInt64(pageSize) + UInt64(offsetInPage)
            let (fileOffset, overflow) = segment.fileOffset.addingReportingOverflow(inSegment)
            guard !overflow, inSegment + UInt64(entrySize) <= segment.fileSize,
                image.contains(offset: fileOffset, size: UInt64(entrySize)),
                let raw = format.is32Bit ? image.u32(at: Int(fileOffset)).map(UInt64.init) : image.u64(at: Int(fileOffset))
            else {
                warnings.add(
                    structure, at: pageStart &+ offsetInPage,
                    "the chain of page \(page) leaves the segment's bytes in the file; the rest of it skipped")
                return true
            }
            guard let (pointer, next) = format.decode(raw, maxValidPointer: maxValidPointer) else { return true }
            let address = base &+ segmentOffset &+ inSegment
            switch pointer {
            case .bind(let ordinal, let addend):
                if let importCount, ordinal < importCount {
                    fixups.bindings.append(Binding(address: address, importIndex: ordinal, addend: addend))
                } else if importCount != nil && !reportedBadOrdinal {
                    warnings.add(
                        structure, at: image.fileOffset + Int(fileOffset),
                        "a bind of import \(ordinal), past the \(importCount ?? 0) imports; such binds skipped")
                    reportedBadOrdinal = true
                }
            case .rebase(let target, let isOffset):
                fixups.rebases.append(Rebase(address: address, target: isOffset ? base &+ target : target))
            case .nonPointer:
                break
            }
            if next == 0 { return true }
            offsetInPage += Int(next) * stride
        }
    }
}
