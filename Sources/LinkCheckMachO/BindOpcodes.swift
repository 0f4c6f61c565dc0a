/// One bind of an opcode stream: a slot, the symbol bound into it and where
/// dyld looks the symbol up.
struct OpcodeBind {
    /// The slot's virtual address; `nil` for a threaded bind, which only
    /// declares the symbol.
    var address: UInt64?
    var name: String
    var library: LibraryOrdinal
    var isWeakImport: Bool
    var addend: Int64
}

/// The bind, weak-bind and lazy-bind opcode streams of `LC_DYLD_INFO(_ONLY)`
/// (`BIND_OPCODE_*`, `<mach-o/loader.h>`).
enum BindOpcodes {
    /// Runs one stream and returns its binds in stream order.
    ///
    /// A slot is `segments[seg].vmaddr + offset`; a bind whose segment index
    /// or offset is outside the segments is skipped with a warning, an
    /// unknown opcode or a stream that runs out ends the stream with a
    /// warning. At most `limit` binds are made (the stream stops with a
    /// warning after that), so a repeat count read from the file cannot run
    /// on without end. In the lazy stream `BIND_OPCODE_DONE` ends one entry,
    /// not the stream. Threaded binds (`BIND_OPCODE_THREADED`, arm64e images
    /// of iOS 12) declare their symbols but their chains are not walked.
    static func read(
        _ stream: ByteReader, source: ImportSource, segments: [Segment], pointerSize: Int, limit: Int,
        warnings: inout Warnings
    ) -> [OpcodeBind] {
        let structure = "\(source.rawValue) opcodes"
        var binds: [OpcodeBind] = []
        var attempts = 0
        var offset = 0
        var segmentIndex: Int? = nil
        var segmentOffset: UInt64 = 0
        var library: LibraryOrdinal = source == .weakBind ? .weakLookup : .image
        var name: String? = nil
        var flags: UInt8 = 0
        var addend: Int64 = 0
        var threaded = false
        var reportedOutside = false
        let step = UInt64(pointerSize)

        func fail(_ problem: String) {
            warnings.add(structure, at: stream.fileOffset + offset, problem)
        }
        /// Binds the current symbol at the current address; `false` when
        /// the stream must stop.
        func bind() -> Bool {
            attempts += 1
            guard attempts <= limit else {
                fail("more binds than the image has pointer slots (\(limit)); the rest of the stream not read")
                return false
            }
            guard let name else {
                fail("a bind before any BIND_OPCODE_SET_SYMBOL_TRAILING_FLAGS_IMM; stream not read further")
                return false
            }
            if source == .weakBind && flags & 0x8 != 0 { return true }  // BIND_SYMBOL_FLAGS_NON_WEAK_DEFINITION
            if threaded {
                binds.append(OpcodeBind(address: nil, name: name, library: library, isWeakImport: flags & 1 != 0, addend: addend))
                return true
            }
            guard let index = segmentIndex, index < segments.count, segmentOffset < segments[index].virtualSize else {
                if !reportedOutside {
                    fail("a bind of \(name) outside the segments (segment \(segmentIndex.map(String.init) ?? "none"), offset \(hex(segmentOffset))); such binds skipped")
                    reportedOutside = true
                }
                return true
            }
            binds.append(
                OpcodeBind(
                    address: segments[index].address &+ segmentOffset, name: name, library: library,
                    isWeakImport: flags & 1 != 0, addend: addend))
            return true
        }

        streamLoop: while offset < stream.count {
            let opcodeOffset = offset
            guard let byte = stream.u8(at: offset) else { break }
            offset += 1
            let immediate = byte & 0x0f
            func uleb() -> UInt64? {
                guard let value = stream.uleb128(at: &offset) else {
                    warnings.add(structure, at: stream.fileOffset + opcodeOffset, "a ULEB128 operand runs past the end of the stream or overflows")
                    return nil
                }
                return value
            }
            switch byte & 0xf0 {
            case 0x00:  // BIND_OPCODE_DONE
                if source != .lazyBind { break streamLoop }
            case 0x10:  // BIND_OPCODE_SET_DYLIB_ORDINAL_IMM
                library = LibraryOrdinal(signed: Int(immediate))
            case 0x20:  // BIND_OPCODE_SET_DYLIB_ORDINAL_ULEB
                guard let value = uleb() else { break streamLoop }
                library = value > UInt64(Int32.max) ? .invalid(Int(Int32.max)) : LibraryOrdinal(signed: Int(value))
            case 0x30:  // BIND_OPCODE_SET_DYLIB_SPECIAL_IMM
                library = LibraryOrdinal(signed: immediate == 0 ? 0 : Int(Int8(bitPattern: 0xf0 | immediate)))
            case 0x40:  // BIND_OPCODE_SET_SYMBOL_TRAILING_FLAGS_IMM
                guard let nul = stream.nul(from: offset) else {
                    fail("a symbol name without a NUL before the end of the stream")
                    break streamLoop
                }
                name = stream.cString(at: offset, end: nul + 1)
                offset = nul + 1
                flags = immediate
            case 0x50:  // BIND_OPCODE_SET_TYPE_IMM
                break
            case 0x60:  // BIND_OPCODE_SET_ADDEND_SLEB
                guard let value = stream.sleb128(at: &offset) else {
                    fail("a SLEB128 addend runs past the end of the stream")
                    break streamLoop
                }
                addend = value
            case 0x70:  // BIND_OPCODE_SET_SEGMENT_AND_OFFSET_ULEB
                guard let value = uleb() else { break streamLoop }
                segmentIndex = Int(immediate)
                segmentOffset = value
            case 0x80:  // BIND_OPCODE_ADD_ADDR_ULEB
                guard let value = uleb() else { break streamLoop }
                segmentOffset &+= value
            case 0x90:  // BIND_OPCODE_DO_BIND
                guard bind() else { break streamLoop }
                segmentOffset &+= step
            case 0xa0:  // BIND_OPCODE_DO_BIND_ADD_ADDR_ULEB
                guard bind(), let value = uleb() else { break streamLoop }
                segmentOffset &+= step &+ value
            case 0xb0:  // BIND_OPCODE_DO_BIND_ADD_ADDR_IMM_SCALED
                guard bind() else { break streamLoop }
                segmentOffset &+= step &+ UInt64(immediate) &* step
            case 0xc0:  // BIND_OPCODE_DO_BIND_ULEB_TIMES_SKIPPING_ULEB
                guard let count = uleb(), let skip = uleb() else { break streamLoop }
                var done: UInt64 = 0
                while done < count {
                    guard bind() else { break streamLoop }
                    segmentOffset &+= skip &+ step
                    done += 1
                }
            case 0xd0:  // BIND_OPCODE_THREADED
                switch immediate {
                case 0x00:  // BIND_SUBOPCODE_THREADED_SET_BIND_ORDINAL_TABLE_SIZE_ULEB
                    guard uleb() != nil else { break streamLoop }
                    if !threaded {
                        warnings.add(structure, at: stream.fileOffset + opcodeOffset, "threaded binds: symbols read, their chains not walked")
                    }
                    threaded = true
                case 0x01:  // BIND_SUBOPCODE_THREADED_APPLY
                    break
                default:
                    fail("unknown threaded bind subopcode \(hex(immediate)); stream not read further")
                    break streamLoop
                }
            default:
                fail("unknown bind opcode \(hex(byte)); stream not read further")
                break streamLoop
            }
        }
        return binds
    }
}

/// The rebase opcode stream of `LC_DYLD_INFO(_ONLY)` (`REBASE_OPCODE_*`).
enum RebaseOpcodes {
    /// The slots the stream rebases, in stream order, as virtual addresses;
    /// at most `limit` of them, with the same checks as ``BindOpcodes``.
    static func read(
        _ stream: ByteReader, segments: [Segment], pointerSize: Int, limit: Int, warnings: inout Warnings
    ) -> [UInt64] {
        let structure = "rebase opcodes"
        var slots: [UInt64] = []
        var attempts = 0
        var offset = 0
        var segmentIndex: Int? = nil
        var segmentOffset: UInt64 = 0
        var reportedOutside = false
        let step = UInt64(pointerSize)

        func fail(_ problem: String) {
            warnings.add(structure, at: stream.fileOffset + offset, problem)
        }
        func rebase() -> Bool {
            attempts += 1
            guard attempts <= limit else {
                fail("more rebases than the image has pointer slots (\(limit)); the rest of the stream not read")
                return false
            }
            guard let index = segmentIndex, index < segments.count, segmentOffset < segments[index].virtualSize else {
                if !reportedOutside {
                    fail("a rebase outside the segments (segment \(segmentIndex.map(String.init) ?? "none"), offset \(hex(segmentOffset))); such rebases skipped")
                    reportedOutside = true
                }
                return true
            }
            slots.append(segments[index].address &+ segmentOffset)
            return true
        }

        streamLoop: while offset < stream.count {
            guard let byte = stream.u8(at: offset) else { break }
            offset += 1
            let immediate = UInt64(byte & 0x0f)
            func uleb() -> UInt64? {
                guard let value = stream.uleb128(at: &offset) else {
                    fail("a ULEB128 operand runs past the end of the stream or overflows")
                    return nil
                }
                return value
            }
            func repeatRebase(_ count: UInt64, skip: UInt64) -> Bool {
                var done: UInt64 = 0
                while done < count {
                    guard rebase() else { return false }
                    segmentOffset &+= skip &+ step
                    done += 1
                }
                return true
            }
            switch byte & 0xf0 {
            case 0x00:  // REBASE_OPCODE_DONE
                break streamLoop
            case 0x10:  // REBASE_OPCODE_SET_TYPE_IMM
                break
            case 0x20:  // REBASE_OPCODE_SET_SEGMENT_AND_OFFSET_ULEB
                guard let value = uleb() else { break streamLoop }
                segmentIndex = Int(immediate)
                segmentOffset = value
            case 0x30:  // REBASE_OPCODE_ADD_ADDR_ULEB
                guard let value = uleb() else { break streamLoop }
                segmentOffset &+= value
            case 0x40:  // REBASE_OPCODE_ADD_ADDR_IMM_SCALED
                segmentOffset &+= immediate &* step
            case 0x50:  // REBASE_OPCODE_DO_REBASE_IMM_TIMES
                guard repeatRebase(immediate, skip: 0) else { break streamLoop }
            case 0x60:  // REBASE_OPCODE_DO_REBASE_ULEB_TIMES
                guard let count = uleb(), repeatRebase(count, skip: 0) else { break streamLoop }
            case 0x70:  // REBASE_OPCODE_DO_REBASE_ADD_ADDR_ULEB
                guard rebase(), let value = uleb() else { break streamLoop }
                segmentOffset &+= value &+ step
            case 0x80:  // REBASE_OPCODE_DO_REBASE_ULEB_TIMES_SKIPPING_ULEB
                guard let count = uleb(), let skip = uleb(), repeatRebase(count, skip: skip) else { break streamLoop }
            default:
                fail("unknown rebase opcode \(hex(byte)); stream not read further")
                break streamLoop
            }
        }
        return slots
    }
}
