import LinkCheckImage

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
        warnings: inout ReadWarnings
    ) -> [OpcodeBind] {
        var state = BindState(
            source: source, cursor: OpcodeCursor(stream: stream, structure: "\(source.rawValue) opcodes", operandWarningsAtOpcode: true),
            slots: OpcodeSlots(segments: segments, pointerSize: pointerSize, limit: limit))
        while state.cursor.offset < state.cursor.stream.count, state.apply(nextOpcodeIn: &warnings) {}
        return state.binds
    }
}

/// Where a bind stream is: the symbol, library, flags and addend the
/// `BIND_OPCODE_SET_*` opcodes last set, the slot, and the binds made.
private struct BindState {
    let source: ImportSource
    var cursor: OpcodeCursor
    var slots: OpcodeSlots
    var library: LibraryOrdinal
    var name: String?
    var flags: UInt8 = 0
    var addend: Int64 = 0
    /// A `BIND_SUBOPCODE_THREADED_SET_BIND_ORDINAL_TABLE_SIZE_ULEB` was
    /// seen: binds declare symbols only.
    var threaded = false
    var binds: [OpcodeBind] = []

    init(source: ImportSource, cursor: OpcodeCursor, slots: OpcodeSlots) {
        self.source = source
        self.cursor = cursor
        self.slots = slots
        library = source == .weakBind ? .weakLookup : .image
    }

    /// Applies the opcode at the cursor; `false` when the stream ends.
    mutating func apply(nextOpcodeIn warnings: inout ReadWarnings) -> Bool {
        guard let (opcode, immediate) = cursor.opcode() else { return false }
        switch opcode {
        case 0x00:  // BIND_OPCODE_DONE
            return source == .lazyBind
        case 0x10:  // BIND_OPCODE_SET_DYLIB_ORDINAL_IMM
            library = LibraryOrdinal(signed: Int(immediate))
        case 0x20:  // BIND_OPCODE_SET_DYLIB_ORDINAL_ULEB
            guard let value = cursor.uleb(&warnings) else { return false }
            library = value > UInt64(Int32.max) ? .invalid(Int(Int32.max)) : LibraryOrdinal(signed: Int(value))
        case 0x30:  // BIND_OPCODE_SET_DYLIB_SPECIAL_IMM
            library = LibraryOrdinal(signed: immediate == 0 ? 0 : Int(Int8(bitPattern: 0xf0 | immediate)))
        case 0x40:  // BIND_OPCODE_SET_SYMBOL_TRAILING_FLAGS_IMM
            guard let symbol = cursor.cString() else {
                cursor.fail("a symbol name without a NUL before the end of the stream", &warnings)
                return false
            }
            name = symbol
            flags = immediate
        case 0x50:  // BIND_OPCODE_SET_TYPE_IMM
            break
        case 0x60:  // BIND_OPCODE_SET_ADDEND_SLEB
            guard let value = cursor.sleb() else {
                cursor.fail("a SLEB128 addend runs past the end of the stream", &warnings)
                return false
            }
            addend = value
        case 0x70:  // BIND_OPCODE_SET_SEGMENT_AND_OFFSET_ULEB
            return slots.seek(segment: immediate, reading: &cursor, &warnings)
        case 0x80:  // BIND_OPCODE_ADD_ADDR_ULEB
            return slots.advance(reading: &cursor, &warnings)
        case 0x90:  // BIND_OPCODE_DO_BIND
            return bind(then: 0, &warnings)
        case 0xa0:  // BIND_OPCODE_DO_BIND_ADD_ADDR_ULEB
            guard bind(then: 0, &warnings), let value = cursor.uleb(&warnings) else { return false }
            slots.segmentOffset &+= value
        case 0xb0:  // BIND_OPCODE_DO_BIND_ADD_ADDR_IMM_SCALED
            return bind(then: UInt64(immediate) &* slots.step, &warnings)
        case 0xc0:  // BIND_OPCODE_DO_BIND_ULEB_TIMES_SKIPPING_ULEB
            guard let count = cursor.uleb(&warnings), let skip = cursor.uleb(&warnings) else { return false }
            var done: UInt64 = 0
            while done < count {
                guard bind(then: skip, &warnings) else { return false }
                done += 1
            }
        case 0xd0:  // BIND_OPCODE_THREADED
            return applyThreaded(immediate, &warnings)
        default:
            cursor.fail("unknown bind opcode \(hex(opcode | immediate)); stream not read further", &warnings)
            return false
        }
        return true
    }

    /// `BIND_OPCODE_THREADED`'s subopcode `immediate`; `false` when the
    /// stream ends.
    private mutating func applyThreaded(_ immediate: UInt8, _ warnings: inout ReadWarnings) -> Bool {
        switch immediate {
        case 0x00:  // BIND_SUBOPCODE_THREADED_SET_BIND_ORDINAL_TABLE_SIZE_ULEB
            guard cursor.uleb(&warnings) != nil else { return false }
            if !threaded { cursor.warnAtOpcode("threaded binds: symbols read, their chains not walked", &warnings) }
            threaded = true
            return true
        case 0x01:  // BIND_SUBOPCODE_THREADED_APPLY
            return true
        default:
            cursor.fail("unknown threaded bind subopcode \(hex(immediate)); stream not read further", &warnings)
            return false
        }
    }

    /// Binds the current symbol at the current slot, then moves on a
    /// pointer and `skip` bytes more; `false` when the stream must stop.
    private mutating func bind(then skip: UInt64, _ warnings: inout ReadWarnings) -> Bool {
        guard slots.countVisit() else {
            cursor.fail("more binds than the image has pointer slots (\(slots.limit)); the rest of the stream not read", &warnings)
            return false
        }
        guard let name else {
            cursor.fail("a bind before any BIND_OPCODE_SET_SYMBOL_TRAILING_FLAGS_IMM; stream not read further", &warnings)
            return false
        }
        defer { slots.segmentOffset &+= slots.step &+ skip }
        // BIND_SYMBOL_FLAGS_NON_WEAK_DEFINITION: a strong definition, not a bind.
        if source == .weakBind && flags & 0x8 != 0 { return true }
        let isWeakImport = flags & 1 != 0
        if threaded {
            binds.append(OpcodeBind(address: nil, name: name, library: library, isWeakImport: isWeakImport, addend: addend))
            return true
        }
        switch slots.address() {
        case .address(let address):
            binds.append(OpcodeBind(address: address, name: name, library: library, isWeakImport: isWeakImport, addend: addend))
        case .outside(let place, let first):
            if first { cursor.fail("a bind of \(name) outside the segments (\(place)); such binds skipped", &warnings) }
        }
        return true
    }
}

/// The reading position in an opcode stream, for the warnings that name
/// it: the opcode being applied and the byte after what was read.
struct OpcodeCursor {
    let stream: ByteReader
    /// How warnings name the stream (`bind opcodes`, `rebase opcodes`).
    let structure: String
    /// The offset of the next byte to read, in bytes from the stream's start.
    var offset = 0
    /// The offset of the opcode being applied.
    private(set) var opcodeOffset = 0
    /// Whether a bad ULEB128 operand is warned of at its opcode (bind
    /// streams) rather than at the reading position (rebase streams).
    let operandWarningsAtOpcode: Bool

    init(stream: ByteReader, structure: String, operandWarningsAtOpcode: Bool) {
        self.stream = stream
        self.structure = structure
        self.operandWarningsAtOpcode = operandWarningsAtOpcode
    }

    /// The next opcode byte, split into its opcode (high nibble) and
    /// immediate (low nibble); `nil` at the end of the stream.
    mutating func opcode() -> (opcode: UInt8, immediate: UInt8)? {
        opcodeOffset = offset
        guard let byte = stream.u8(at: offset) else { return nil }
        offset += 1
        return (byte & 0xf0, byte & 0x0f)
    }

    /// A ULEB128 operand; `nil` with a warning when it runs past the end of
    /// the stream or overflows.
    mutating func uleb(_ warnings: inout ReadWarnings) -> UInt64? {
        guard let value = stream.uleb128(at: &offset) else {
            let problem = "a ULEB128 operand runs past the end of the stream or overflows"
            if operandWarningsAtOpcode { warnAtOpcode(problem, &warnings) } else { fail(problem, &warnings) }
            return nil
        }
        return value
    }

    /// A SLEB128 operand; `nil` when it runs past the end of the stream.
    mutating func sleb() -> Int64? {
        stream.sleb128(at: &offset)
    }

    /// A NUL-terminated string operand; `nil` when there is no NUL before
    /// the end of the stream.
    mutating func cString() -> String? {
        guard let nul = stream.nul(from: offset) else { return nil }
        defer { offset = nul + 1 }
        return stream.cString(at: offset, end: nul + 1)
    }

    /// Warns of `problem` at the reading position.
    func fail(_ problem: String, _ warnings: inout ReadWarnings) {
        warnings.add(structure, at: stream.fileOffset + offset, problem)
    }

    /// Warns of `problem` at the opcode being applied.
    func warnAtOpcode(_ problem: String, _ warnings: inout ReadWarnings) {
        warnings.add(structure, at: stream.fileOffset + opcodeOffset, problem)
    }
}

/// The slot an opcode stream is at (`segments[seg].vmaddr + offset`), and
/// how many slots it has visited, at most `limit`.
struct OpcodeSlots {
    let segments: [Segment]
    /// The most slots the stream may visit: a repeat count read from the
    /// file cannot run on without end.
    let limit: Int
    /// The pointer size, in bytes: how far a bind or rebase moves on.
    let step: UInt64
    var segmentIndex: Int?
    var segmentOffset: UInt64 = 0
    private var visits = 0
    private var reportedOutside = false

    init(segments: [Segment], pointerSize: Int, limit: Int) {
        self.segments = segments
        self.limit = limit
        step = UInt64(pointerSize)
    }

    /// Where the current slot is.
    enum Place {
        /// Its virtual address.
        case address(UInt64)
        /// Outside the segments: `place` names the segment index and
        /// offset; `first` is `true` the first time (warned of once).
        case outside(place: String, first: Bool)
    }

    /// `*_SET_SEGMENT_AND_OFFSET_ULEB`: segment `segment`, at the offset
    /// the ULEB128 operand at `cursor` gives; `false` when it cannot be
    /// read.
    mutating func seek(segment: UInt8, reading cursor: inout OpcodeCursor, _ warnings: inout ReadWarnings) -> Bool {
        guard let offset = cursor.uleb(&warnings) else { return false }
        segmentIndex = Int(segment)
        segmentOffset = offset
        return true
    }

    /// `*_ADD_ADDR_ULEB`: on by the ULEB128 operand at `cursor`; `false`
    /// when it cannot be read.
    mutating func advance(reading cursor: inout OpcodeCursor, _ warnings: inout ReadWarnings) -> Bool {
        guard let value = cursor.uleb(&warnings) else { return false }
        segmentOffset &+= value
        return true
    }

    /// Counts a visit to a slot; `false` past ``limit``.
    mutating func countVisit() -> Bool {
        visits += 1
        return visits <= limit
    }

    /// The current slot.
    mutating func address() -> Place {
        guard let index = segmentIndex, index < segments.count, segmentOffset < segments[index].virtualSize else {
            defer { reportedOutside = true }
            return .outside(
                place: "segment \(segmentIndex.map(String.init) ?? "none"), offset \(hex(segmentOffset))", first: !reportedOutside)
        }
        return .address(segments[index].address &+ segmentOffset)
    }
}

/// The rebase opcode stream of `LC_DYLD_INFO(_ONLY)` (`REBASE_OPCODE_*`).
enum RebaseOpcodes {
    /// The slots the stream rebases, in stream order, as virtual addresses;
    /// at most `limit` of them, with the same checks as ``BindOpcodes``.
    static func read(
        _ stream: ByteReader, segments: [Segment], pointerSize: Int, limit: Int, warnings: inout ReadWarnings
    ) -> [UInt64] {
        var cursor = OpcodeCursor(stream: stream, structure: "rebase opcodes", operandWarningsAtOpcode: false)
        var slots = OpcodeSlots(segments: segments, pointerSize: pointerSize, limit: limit)
        var rebased: [UInt64] = []

        /// Rebases `count` slots, moving on a pointer and `skip` bytes more
        /// after each; `false` when the stream must stop.
        func rebase(_ count: UInt64 = 1, skip: UInt64) -> Bool {
            var done: UInt64 = 0
            while done < count {
                guard slots.countVisit() else {
                    cursor.fail("more rebases than the image has pointer slots (\(limit)); the rest of the stream not read", &warnings)
                    return false
                }
                switch slots.address() {
                case .address(let address): rebased.append(address)
                case .outside(let place, let first):
                    if first { cursor.fail("a rebase outside the segments (\(place)); such rebases skipped", &warnings) }
                }
                slots.segmentOffset &+= skip &+ slots.step
                done += 1
            }
            return true
        }

        streamLoop: while let (opcode, immediate) = cursor.opcode() {
            let scaled = UInt64(immediate)
            switch opcode {
            case 0x00:  // REBASE_OPCODE_DONE
                break streamLoop
            case 0x10:  // REBASE_OPCODE_SET_TYPE_IMM
                break
            case 0x20:  // REBASE_OPCODE_SET_SEGMENT_AND_OFFSET_ULEB
                guard slots.seek(segment: immediate, reading: &cursor, &warnings) else { break streamLoop }
            case 0x30:  // REBASE_OPCODE_ADD_ADDR_ULEB
                guard slots.advance(reading: &cursor, &warnings) else { break streamLoop }
            case 0x40:  // REBASE_OPCODE_ADD_ADDR_IMM_SCALED
                slots.segmentOffset &+= scaled &* slots.step
            case 0x50:  // REBASE_OPCODE_DO_REBASE_IMM_TIMES
                guard rebase(scaled, skip: 0) else { break streamLoop }
            case 0x60:  // REBASE_OPCODE_DO_REBASE_ULEB_TIMES
                guard let count = cursor.uleb(&warnings), rebase(count, skip: 0) else { break streamLoop }
            case 0x70:  // REBASE_OPCODE_DO_REBASE_ADD_ADDR_ULEB
                guard rebase(skip: 0), let value = cursor.uleb(&warnings) else { break streamLoop }
                slots.segmentOffset &+= value
            case 0x80:  // REBASE_OPCODE_DO_REBASE_ULEB_TIMES_SKIPPING_ULEB
                guard let count = cursor.uleb(&warnings), let skip = cursor.uleb(&warnings), rebase(count, skip: skip) else {
                    break streamLoop
                }
            default:
                cursor.fail("unknown rebase opcode \(hex(opcode | immediate)); stream not read further", &warnings)
                break streamLoop
            }
        }
        return rebased
    }
}
