/// A unit's line table (`.debug_line`, versions 2 to 5): its directories
/// and files, and the rows its line-number program makes, grouped into
/// sequences (runs of rows up to `DW_LNE_end_sequence`).
///
/// It holds every row of the unit's program (an address, a file index, a
/// line and a column each), and nothing of other units.
struct DWARFLineTable: Sendable {
    /// A row of the table: the source of the instructions from `address`
    /// to the next row's address.
    struct Row: Sendable {
        let address: UInt64
        let file: UInt64
        let line: UInt64
        let column: UInt64
    }

    /// A file entry: its name and the index of its directory.
    struct File: Sendable {
        let name: String
        let directoryIndex: UInt64
    }

    /// The table's version, 2 to 5.
    let version: UInt16
    /// The include directories: from index 1 in versions 2 to 4 (0 is the
    /// compilation directory), from 0 in version 5.
    private(set) var directories: [String] = []
    /// The files: from index 1 in versions 2 to 4, from 0 in version 5.
    private(set) var files: [File] = []
    /// The rows, sequence after sequence, each ending with its
    /// `DW_LNE_end_sequence` row.
    private var rows: [Row] = []
    /// Each sequence's rows (a range of ``rows``) and addresses, sorted by
    /// their end address; sequences without an address are left out.
    private var sequences: [(rows: Range<Int>, addresses: Range<UInt64>)] = []

    /// Reads the line table at `offset` in `.debug_line` and runs its
    /// program; strings of `DW_FORM_strx*` and the like are `unit`'s.
    ///
    /// - Throws: ``DWARFError`` when the table's length runs past the
    ///   section's end, its version is not 2 to 5, its header or an opcode
    ///   runs past the table's end, or its `line_range` is 0.
    init(at offset: UInt64, unit: DWARFUnit) throws(DWARFError) {
        var section = try DWARFCursor(.line, in: unit.sections, at: offset)
        let (length, is64Bit) = try section.initialLength()
        guard length <= UInt64(section.end - section.offset) else {
            throw section.error(.unitLengthPastEnd(length: length, sectionSize: UInt64(section.bytes.count)), at: Int(offset))
        }
        var cursor = try section.sub(length: length)
        let versionOffset = cursor.offset
        version = try cursor.u16()
        guard (2...5).contains(version) else { throw cursor.error(.unsupportedVersion(version), at: versionOffset) }
        var addressSize = unit.header.addressSize
        if version >= 5 {
            addressSize = try cursor.u8()
            _ = try cursor.u8()  // segment_selector_size
            guard addressSize == 4 || addressSize == 8 else {
                throw cursor.error(.unsupportedAddressSize(addressSize), at: versionOffset)
            }
        }
        let headerLength = try cursor.sectionOffset(is64Bit: is64Bit)
        var program = cursor
        try program.skip(headerLength)
        cursor.end = program.offset
        let parameters = try ProgramParameters(at: &cursor, version: version)
        let encoding = DWARFEncoding(version: version, is64Bit: is64Bit, addressSize: addressSize, unitOffset: unit.header.offset)
        if version >= 5 {
            directories = try Self.entries(at: &cursor, encoding: encoding, unit: unit).map(\.name)
            files = try Self.entries(at: &cursor, encoding: encoding, unit: unit)
        } else {
            while try cursor.u8() != 0 {
                cursor.offset -= 1
                directories.append(try cursor.cString())
            }
            while try cursor.u8() != 0 {
                cursor.offset -= 1
                files.append(try Self.fileEntry(at: &cursor))
            }
        }
        try run(program: &program, parameters: parameters, addressSize: Int(addressSize))
    }

    /// The fixed fields of a line table header that its program's opcodes
    /// depend on.
    private struct ProgramParameters {
        let minimumInstructionLength: UInt64
        let maximumOperationsPerInstruction: UInt64
        let lineBase: Int64
        let lineRange: UInt64
        let opcodeBase: UInt8
        /// The number of ULEB128 operands of each standard opcode, from 1.
        let standardOpcodeLengths: [UInt8]

        init(at cursor: inout DWARFCursor, version: UInt16) throws(DWARFError) {
            minimumInstructionLength = UInt64(try cursor.u8())
            maximumOperationsPerInstruction = version >= 4 ? max(1, UInt64(try cursor.u8())) : 1
            _ = try cursor.u8()  // default_is_stmt: every row is kept, as llvm-symbolizer keeps it
            lineBase = Int64(Int8(bitPattern: try cursor.u8()))
            let lineRangeOffset = cursor.offset
            lineRange = UInt64(try cursor.u8())
            guard lineRange != 0 else { throw cursor.error(.zeroLineRange, at: lineRangeOffset) }
            opcodeBase = try cursor.u8()
            var lengths: [UInt8] = []
            for _ in 1..<max(1, Int(opcodeBase)) { lengths.append(try cursor.u8()) }
            standardOpcodeLengths = lengths
        }
    }

    /// A version 2 to 4 file entry: a name, a directory index, a
    /// modification time and a length.
    private static func fileEntry(at cursor: inout DWARFCursor) throws(DWARFError) -> File {
        let name = try cursor.cString()
        let directory = try cursor.uleb()
        _ = try cursor.uleb()
        _ = try cursor.uleb()
        return File(name: name, directoryIndex: directory)
    }

    /// A version 5 list of directory or file entries: its format (pairs of
    /// `DW_LNCT_*` content type and form), then its count of entries in
    /// that format. Of each it keeps the path (`DW_LNCT_path`) and the
    /// directory index (`DW_LNCT_directory_index`).
    private static func entries(at cursor: inout DWARFCursor, encoding: DWARFEncoding, unit: DWARFUnit) throws(DWARFError) -> [File] {
        var format: [(contentType: UInt64, form: UInt64)] = []
        for _ in 0..<(try cursor.u8()) { format.append((try cursor.uleb(), try cursor.uleb())) }
        let count = try cursor.uleb()
        var entries: [File] = []
        // Each entry takes at least a byte, or none at all when its format
        // is empty: then the count is bounded by the bytes left.
        for _ in 0..<min(count, UInt64(cursor.end - cursor.offset) + 1) {
            var (name, directory) = ("", UInt64(0))
            for (contentType, form) in format {
                if form == 0x08 {  // DW_FORM_string, in .debug_line
                    let text = try cursor.cString()
                    if contentType == 1 { name = text }
                    continue
                }
                let value = try DWARFForm.read(form, implicitConstant: 0, at: &cursor, unit: encoding)
                switch (contentType, value) {
                case (1, .string(let location)): name = try unit.string(location)
                case (2, _): directory = value.unsigned ?? 0
                default: break
                }
            }
            entries.append(File(name: name, directoryIndex: directory))
        }
        return entries
    }

    /// Runs the line-number program at `program` (up to its end), keeping
    /// its rows and sequences.
    private mutating func run(program: inout DWARFCursor, parameters: ProgramParameters, addressSize: Int) throws(DWARFError) {
        var state = State()
        var sequenceStart = 0
        while !program.isAtEnd {
            let opcode = try program.u8()
            if opcode >= parameters.opcodeBase {
                let adjusted = UInt64(opcode - parameters.opcodeBase)
                state.advance(operations: adjusted / parameters.lineRange, parameters)
                state.line = UInt64(
                    bitPattern: Int64(bitPattern: state.line) &+ parameters.lineBase &+ Int64(adjusted % parameters.lineRange))
                rows.append(state.row)
                continue
            }
            switch opcode {
            case 0x00:  // extended opcode
                let length = try program.uleb()
                guard length > 0 else { continue }
                var operands = try program.sub(length: length)
                switch try operands.u8() {
                case 0x01:  // DW_LNE_end_sequence
                    rows.append(state.row)
                    let sequenceRows = sequenceStart..<rows.count
                    if let first = rows[sequenceRows].first, first.address < state.address {
                        sequences.append((sequenceRows, first.address..<state.address))
                    }
                    sequenceStart = rows.count
                    state = State()
                case 0x02:  // DW_LNE_set_address
                    state.address = try operands.unsigned(size: min(8, operands.end - operands.offset))
                    state.operationIndex = 0
                default: break  // DW_LNE_define_file, DW_LNE_set_discriminator, vendor opcodes
                }
            case 0x01: rows.append(state.row)  // DW_LNS_copy
            case 0x02: state.advance(operations: try program.uleb(), parameters)  // DW_LNS_advance_pc
            case 0x03: state.line = UInt64(bitPattern: Int64(bitPattern: state.line) &+ (try program.sleb()))  // DW_LNS_advance_line
            case 0x04: state.file = try program.uleb()  // DW_LNS_set_file
            case 0x05: state.column = try program.uleb()  // DW_LNS_set_column
            case 0x08:  // DW_LNS_const_add_pc
                state.advance(operations: (255 - UInt64(parameters.opcodeBase)) / parameters.lineRange, parameters)
            case 0x09:  // DW_LNS_fixed_advance_pc
                state.address &+= UInt64(try program.u16())
                state.operationIndex = 0
            case 0x06, 0x07, 0x0a, 0x0b: break  // negate_stmt, set_basic_block, set_prologue_end, set_epilogue_begin
            default:  // DW_LNS_set_isa and unknown standard opcodes: skip their operands
                for _ in 0..<parameters.standardOpcodeLengths[Int(opcode) - 1] { _ = try program.uleb() }
            }
        }
        sequences.sort { $0.addresses.upperBound < $1.addresses.upperBound }
    }

    /// The state machine's registers that rows take.
    private struct State {
        var address: UInt64 = 0
        var operationIndex: UInt64 = 0
        var file: UInt64 = 1
        var line: UInt64 = 1
        var column: UInt64 = 0

        var row: Row { Row(address: address, file: file, line: line, column: column) }

        /// Advances by `operations` operations (`operation advance`).
        mutating func advance(operations: UInt64, _ parameters: ProgramParameters) {
            let maximum = parameters.maximumOperationsPerInstruction
            let total = operationIndex &+ operations
            address &+= parameters.minimumInstructionLength &* (total / maximum)
            operationIndex = total % maximum
        }
    }

    /// The row for `address`, as `llvm-symbolizer` picks it: in the
    /// sequence (the first by end address) whose addresses hold it, the
    /// last row whose address is not above it; `nil` when no sequence
    /// holds it.
    func row(for address: UInt64) -> Row? {
        var (low, high) = (0, sequences.count)
        while low < high {
            let middle = (low + high) / 2
            if sequences[middle].addresses.upperBound <= address { low = middle + 1 } else { high = middle }
        }
        guard low < sequences.count, sequences[low].addresses.contains(address) else { return nil }
        // Among the sequence's rows but its first and its end row, the
        // first above the address; the row before it.
        let rowRange = sequences[low].rows
        var (first, last) = (rowRange.lowerBound + 1, rowRange.upperBound - 1)
        while first < last {
            let middle = (first + last) / 2
            if rows[middle].address <= address { first = middle + 1 } else { last = middle }
        }
        return rows[first - 1]
    }

    /// The path of file `index` (a row's file, a `DW_AT_call_file`),
    /// joined to its directory and, when that is relative, to
    /// `compilationDirectory`, as `llvm-symbolizer` joins them; `nil` when
    /// the table has no such file.
    func path(ofFile index: UInt64, compilationDirectory: String?) -> String? {
        let fileIndex = version >= 5 ? index : index &- 1
        guard fileIndex < UInt64(files.count) else { return nil }
        let file = files[Int(fileIndex)]
        if file.name.hasPrefix("/") { return file.name }
        var directory = ""
        if version >= 5 {
            if file.directoryIndex < UInt64(directories.count) { directory = directories[Int(file.directoryIndex)] }
        } else if file.directoryIndex > 0 && file.directoryIndex <= UInt64(directories.count) {
            directory = directories[Int(file.directoryIndex - 1)]
        }
        var path = ""
        if version < 5 || file.directoryIndex != 0, let compilationDirectory, !compilationDirectory.isEmpty, !directory.hasPrefix("/") {
            path = compilationDirectory
        }
        for component in [directory, file.name] where !component.isEmpty {
            path = path.isEmpty || path.hasSuffix("/") || component.hasPrefix("/") ? path + component : path + "/" + component
        }
        return path
    }
}
