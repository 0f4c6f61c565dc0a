import CCapstone
import CLibELF
import LinkCheckELF
import LinkCheckImage

/// Finds call sites with Capstone: maps each imported function to its PLT
/// entries (`.plt`, `.plt.sec`, `.plt.got`) and GOT slots (the
/// `R_*_JUMP_SLOT` and `R_*_GLOB_DAT` relocations), then decodes the
/// executable sections, one region (``CodeRegion``) at a time, and records
/// every call and tail call that reaches an imported function (directly
/// through the PLT, or through the GOT as `-fno-plt` code and aarch64
/// `adrp`+`ldr`+`blr` do) or a function of the image, with the enclosing
/// function from `.symtab` (else `.dynsym`).
public enum CallSiteAnalyzer {
    /// Whether call sites are analysed for images of this architecture.
    public static func supports(_ architecture: Architecture) -> Bool {
        Disassembler.InstructionSet(architecture) != nil
    }

    /// Every call site in the code of the ELF file at `path` (all of it
    /// decoded).
    ///
    /// - Returns: `nil` when the machine is not x86_64 or aarch64.
    /// - Throws: ``InspectionError`` when the file cannot be read or changed
    ///   while it was read.
    public static func analyze(path: String) throws(InspectionError) -> CodeAnalysis? {
        try withCode(path) { layout, architecture, regions, pass in
            guard let disassembler = Disassembler(architecture) else { return nil }
            var callSites: [CallSite] = []
            var scanner = CallScanner(image: layout, architecture: architecture) { callSites.append($0) }
            CodeIndex.sweep(regions, disassembler: disassembler, scanner: &scanner, pass: pass)
            return CodeAnalysis(
                functions: layout.functions.symbols, callSites: callSites, codeSize: regions.sections.reduce(0) { $0 + $1.bytes.count })
        } ?? nil
    }

    /// The call sites of the ELF file at `path` that `interest` asks for,
    /// indexed (``CodeIndex/analyze(_:interest:mode:)``).
    ///
    /// - Returns: `nil` when the machine is not x86_64 or aarch64.
    /// - Throws: as ``analyze(path:)``.
    static func index(path: String, interest: CallSiteInterest, mode: CallSiteMode) throws(InspectionError) -> CodeIndex? {
        try withCode(path) { layout, architecture, regions, pass in
            CodeIndex.index(layout, architecture: architecture, regions: regions, interest: interest, mode: mode, pass: pass)
        } ?? nil
    }

    /// Opens the ELF file at `path` and calls `body` with its layout, its
    /// instruction set, its code sections (non-PLT executable
    /// `SHT_PROGBITS` sections with distinct file ranges, in libelf's
    /// buffers) and a pass over each section's bytes in a mapping of its
    /// own whose pages can be given back as the pass moves on
    /// (``ELFFile/withContents(of:_:)``): a large library's code is never
    /// resident all at once.
    ///
    /// - Returns: `nil` when the machine is not x86_64 or aarch64.
    private static func withCode<Value>(
        _ path: String, _ body: (ImageLayout, Disassembler.InstructionSet, CodeRegions, SectionPass) -> Value
    ) throws(InspectionError) -> Value? {
        try ELFFile.read(path) { file throws(InspectionError) in
            let header = try file.header()
            let (elfClass, encoding) = try file.classAndEncoding()
            let machine = Machine(code: header.e_machine, elfClass: elfClass, dataEncoding: encoding)
            guard let architecture = Disassembler.InstructionSet(machine.architecture(elfClass: elfClass, dataEncoding: encoding))
            else { return nil }
            let sections = try file.sections()
            let image = ImageLayout(file: file, sections: sections, architecture: architecture)
            // The symbol tables and the relocations are read: the layout
            // holds what they said (254,599 functions in the toolchain's
            // libsourcekitdInProc.so). Its names stay in the string tables,
            // whose pages go once every name is read (``FunctionTable/flags(whereName:)``).
            file.discardPages(of: sections.filter { $0.type == UInt32(SHT_SYMTAB) || $0.type == UInt32(SHT_RELA) })
            var code: [(section: Section, bytes: CodeBytes)] = []
            for section in sections.filter(image.isCode).withDistinctFileRanges() {
                guard let data = section.data, let base = data.pointee.d_buf else { continue }
                code.append((section, CodeBytes(
                    address: section.header.sh_addr, fileOffset: section.header.sh_offset,
                    bytes: UnsafeRawBufferPointer(start: base, count: data.pointee.d_size))))
            }
            let regions = CodeRegions(
                functions: image.functions, sections: code.map(\.bytes), boundaries: file.unwindFunctionStarts(sections: sections),
                giveBackPages: { file.discardPages(of: code.map(\.section)) })
            return body(image, architecture, regions) { index, pass in
                _ = file.withContents(of: code[index].section, pass)
            }
        }
    }
}

/// Addresses the scanner needs in an ELF image: functions, PLT entries,
/// GOT slots, and read-only strings by address.
struct ImageLayout: CodeLayout {
    var functions = FunctionTable([])
    /// PLT entry address → the function it reaches.
    var pltEntries: [UInt64: CallSite.Callee] = [:]
    /// GOT slot address → the function it holds: an import, or a function
    /// of this image called through the GOT because it is preemptible.
    var gotSlots: [UInt64: CallSite.Callee] = [:]
    /// Read-only sections, in libelf's buffers (valid while the file is open).
    private var readOnly = ReadOnlyMemory()
    private var pltSections: Set<Int> = []

    init(file: ELFFile, sections: [Section], architecture: Disassembler.InstructionSet) {
        readFunctions(file: file, sections: sections)
        readGOT(file: file, sections: sections, architecture: architecture)
        let contents = sections.filter { $0.type == UInt32(SHT_PROGBITS) }
        // Every PLT section is set apart from code; each range is read once.
        let distinct = Set(contents.withDistinctFileRanges().map(\.index))
        for section in contents {
            let flags = section.header.sh_flags
            if section.name.hasPrefix(".plt") || section.name == ".iplt" {
                pltSections.insert(section.index)
                if distinct.contains(section.index), let data = section.data, let base = data.pointee.d_buf {
                    readPLT(UnsafeRawBufferPointer(start: base, count: data.pointee.d_size), at: section.header.sh_addr, architecture)
                }
            } else if distinct.contains(section.index), flags & UInt64(SHF_ALLOC) != 0, flags & UInt64(SHF_EXECINSTR | SHF_WRITE) == 0,
                      let data = section.data, let base = data.pointee.d_buf {
                readOnly.add(UnsafeRawBufferPointer(start: base, count: data.pointee.d_size), at: section.header.sh_addr)
            }
        }
    }

    /// Executable `SHT_PROGBITS` sections other than the PLT's.
    func isCode(_ section: Section) -> Bool {
        section.type == UInt32(SHT_PROGBITS) && section.header.sh_flags & UInt64(SHF_EXECINSTR) != 0
            && !pltSections.contains(section.index)
    }

    func stub(at address: UInt64) -> Stub? {
        pltEntries[address].map { Stub(callee: $0) }
    }

    func pointerSlot(at address: UInt64) -> CallSite.Callee? {
        gotSlots[address]
    }

    var allStubs: [UInt64: Stub] { pltEntries.mapValues { Stub(callee: $0) } }

    var allPointerSlots: [UInt64: CallSite.Callee] { gotSlots }

    func string(at address: UInt64) -> String? {
        readOnly.string(at: address)
    }

    func addresses(ofLiterals literals: Set<String>) -> [UInt64] {
        readOnly.addresses(of: literals)
    }

    /// Defined functions from `.dynsym` and `.symtab`; exported when
    /// `.dynsym` defines them with default or protected visibility. One
    /// name per address: the last global symbol there (`.dynsym`'s, then
    /// `.symtab`'s, in table order), else the first local one; the size is
    /// the largest of the symbols taken in turn.
    ///
    /// A large library's `.symtab` holds hundreds of thousands of names
    /// (254,599 functions in `libsourcekitdInProc.so`): the symbols are
    /// gathered as addresses and name offsets, sorted, and no name becomes
    /// a string (``FunctionTable``); an exported name is compared by its
    /// bytes. The pages of the symbol tables and their names are given back
    /// as the gathering passes them (the names mostly follow the symbols'
    /// order; one passed is read again if needed).
    private mutating func readFunctions(file: ELFFile, sections: [Section]) {
        /// By `order`, for `.dynsym`'s symbols: whether it is exported.
        var exportedDynamic: [Bool] = []
        /// Their names, gathered when a symbol that is not one of them is
        /// taken (a stripped library has none).
        var exported: Set<NameBytes>?
        var symbols: [FunctionSymbolEntry] = []
        var tables: [StringTable] = []
        /// By table: its section.
        var nameSections: [Section?] = []
        for table in [UInt32(SHT_DYNSYM), UInt32(SHT_SYMTAB)] {
            guard let section = sections.first(where: { $0.type == table }), let data = section.data,
                  let names = file.stringTable(Int(section.header.sh_link))
            else { continue }
            tables.append(names)
            let nameSection = sections.first { $0.index == Int(section.header.sh_link) }
            nameSections.append(nameSection)
            let entrySize = max(gelf_fsize(file.elf, ELF_T_SYM, 1, UInt32(EV_CURRENT)), 1)
            let count = data.pointee.d_size / entrySize
            var raw = GElf_Sym()
            for index in 1..<max(count, 1) {
                if index % Self.symbolsBetweenReleases == 0 {
                    file.discardPages(of: section, upTo: index * entrySize)
                    if let nameSection { file.discardPages(of: nameSection, upTo: Int(raw.st_name)) }
                }
                guard gelf_getsym(data, Int32(clamping: index), &raw) != nil else { break }
                let type = raw.st_info & 0xf
                guard type == UInt8(STT_FUNC) || type == 10, raw.st_shndx != UInt16(SHN_UNDEF), raw.st_value != 0,
                      names.hasName(at: Int(raw.st_name))
                else { continue }
                let binding = raw.st_info >> 4
                let visibility = raw.st_other & 0x3
                if table == UInt32(SHT_DYNSYM) { exportedDynamic.append(binding != 0 && (visibility == 0 || visibility == 3)) }
                symbols.append(FunctionSymbolEntry(
                    address: raw.st_value, order: Int32(clamping: symbols.count), size: raw.st_size, isGlobal: binding != 0,
                    table: UInt8(tables.count - 1), nameOffset: raw.st_name))
            }
        }
        symbols.sort { ($0.address, $0.order) < ($1.address, $1.order) }
        func nameBytes(_ symbol: FunctionSymbolEntry) -> NameBytes? {
            tables[Int(symbol.table)].nameBytes(at: Int(symbol.nameOffset)).map(NameBytes.init)
        }
        var entries: [FunctionTable.Entry] = []
        /// By `order`: the entry a symbol became, -1 for one not taken.
        var entryOfSymbol = [Int32](repeating: -1, count: symbols.count)
        var start = 0
        while start < symbols.count {
            var end = start
            var taken = start
            var size: UInt64 = symbols[start].size
            while end + 1 < symbols.count, symbols[end + 1].address == symbols[start].address {
                end += 1
                if symbols[end].isGlobal {
                    size = max(symbols[end].size, size)
                    taken = end
                }
            }
            let symbol = symbols[taken]
            start = end + 1
            var isExported = Int(symbol.order) < exportedDynamic.count && exportedDynamic[Int(symbol.order)]
            if !isExported {
                guard let name = nameBytes(symbol) else { continue }
                if exported == nil {
                    exported = Set(symbols.compactMap { Int($0.order) < exportedDynamic.count && exportedDynamic[Int($0.order)] ? nameBytes($0) : nil })
                }
                isExported = exported?.contains(name) == true
            }
            entryOfSymbol[Int(symbol.order)] = Int32(entries.count)
            entries.append(FunctionTable.Entry(
                address: symbol.address, size: size, isExported: isExported, nameTable: symbol.table, nameOffset: symbol.nameOffset))
        }
        for index in entries.indices where entries[index].size == 0 {
            entries[index].size = index + 1 < entries.count ? entries[index + 1].address - entries[index].address : 0
        }
        functions = FunctionTable(entries: entries, stringTables: tables, nameOrder: entryOfSymbol.filter { $0 >= 0 }) { table, end in
            if let section = nameSections[table] { file.discardPages(of: section, upTo: end) }
        }
    }

    /// How many symbols ``readFunctions(file:sections:)`` reads between two
    /// page releases (about 100 KB of `Elf64_Sym`s).
    private static let symbolsBetweenReleases = 4096

    /// A name's bytes in a string table, equal and hashed by content.
    private struct NameBytes: Hashable {
        let bytes: UnsafeBufferPointer<UInt8>

        static func == (left: NameBytes, right: NameBytes) -> Bool {
            left.bytes.count == right.bytes.count && left.bytes.elementsEqual(right.bytes)
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
        }
    }

    /// One defined function symbol as ``readFunctions(file:sections:)``
    /// gathers them: no string yet.
    private struct FunctionSymbolEntry {
        var address: UInt64
        /// Its place among the symbols gathered (`.dynsym`'s, then `.symtab`'s).
        var order: Int32
        var size: UInt64
        var isGlobal: Bool
        /// Which of the string tables gathered holds its name.
        var table: UInt8
        var nameOffset: UInt32
    }

    /// GOT slots from the `JUMP_SLOT` and `GLOB_DAT` relocations against
    /// `.dynsym` (`.rela.plt`, `.rela.dyn`; ELF spec "Relocation"): an
    /// undefined symbol's slot holds the import, a defined one's the
    /// function of its name at its address (`st_value`), else the first
    /// function (by address) of its name.
    private mutating func readGOT(file: ELFFile, sections: [Section], architecture: Disassembler.InstructionSet) {
        var slots: [(slot: UInt64, callee: CallSite.Callee?, name: String)] = []
        var unresolved = Set<String>()
        Self.forEachGOTSlot(file: file, sections: sections, architecture: architecture) { slot, name, value, isDefined in
            if !isDefined {
                slots.append((slot, .imported(name), name))
            } else if let function = functions.function(startingAt: value), functions.name(of: function) == name {
                slots.append((slot, .function(function), name))
            } else {
                slots.append((slot, nil, name))
                unresolved.insert(name)
            }
        }
        // A name another symbol's at its address (an alias): the first
        // function of that name, found in one pass for all of them (an ASCII
        // name becomes a string only when its length is one of theirs).
        var byName: [String: Int] = [:]
        if !unresolved.isEmpty {
            let lengths = Set(unresolved.map(\.utf8.count))
            func mayBeOne(_ name: UnsafeBufferPointer<UInt8>) -> Bool { lengths.contains(name.count) || name.contains { $0 >= 0x80 } }
            for index in functions.indices where functions.withName(of: index, mayBeOne) {
                let name = functions.name(of: index)
                if byName[name] == nil && unresolved.contains(name) { byName[name] = index }
            }
        }
        for (slot, callee, name) in slots {
            if let callee = callee ?? byName[name].map(CallSite.Callee.function) { gotSlots[slot] = callee }
        }
    }

    /// Calls `body` with the slot, the symbol's name and value
    /// (`st_value`), and whether `.dynsym` defines it, for each `JUMP_SLOT`
    /// and `GLOB_DAT` relocation with a named symbol, in table order.
    private static func forEachGOTSlot(
        file: ELFFile, sections: [Section], architecture: Disassembler.InstructionSet,
        _ body: (_ slot: UInt64, _ name: String, _ value: UInt64, _ isDefined: Bool) -> Void
    ) {
        let (globalData, jumpSlot): (UInt64, UInt64) = switch architecture {
        case .x86_64: (6, 7)  // R_X86_64_GLOB_DAT, R_X86_64_JUMP_SLOT
        case .aarch64: (1025, 1026)  // R_AARCH64_GLOB_DAT, R_AARCH64_JUMP_SLOT
        }
        let byIndex = Dictionary(sections.map { ($0.index, $0) }, uniquingKeysWith: { first, _ in first })
        for section in sections.filter({ $0.type == UInt32(SHT_RELA) }).withDistinctFileRanges() {
            guard let data = section.data,
                  let symbols = byIndex[Int(section.header.sh_link)], let symbolData = symbols.data,
                  let names = file.stringTable(Int(symbols.header.sh_link))
            else { continue }
            let count = data.pointee.d_size / max(gelf_fsize(file.elf, ELF_T_RELA, 1, UInt32(EV_CURRENT)), 1)
            var relocation = GElf_Rela()
            var symbol = GElf_Sym()
            for index in 0..<count {
                guard gelf_getrela(data, Int32(clamping: index), &relocation) != nil else { break }
                let type = relocation.r_info & 0xffff_ffff
                let symbolIndex = Int32(clamping: relocation.r_info >> 32)
                guard type == globalData || type == jumpSlot, symbolIndex > 0, gelf_getsym(symbolData, symbolIndex, &symbol) != nil,
                      names.hasName(at: Int(symbol.st_name)), let name = names.name(at: Int(symbol.st_name))
                else { continue }
                body(relocation.r_offset, name, symbol.st_value, symbol.st_shndx != UInt16(SHN_UNDEF))
            }
        }
    }

    /// PLT entries: the function reached through the GOT slot each entry jumps through (x86_64
    /// `jmp *slot(%rip)`; aarch64 `adrp x16` + `ldr x17, [x16, #off]`),
    /// keyed by the entry's first instruction.
    private mutating func readPLT(_ bytes: UnsafeRawBufferPointer, at address: UInt64, _ architecture: Disassembler.InstructionSet) {
        guard let disassembler = Disassembler(architecture) else { return }
        var entryStart: UInt64? = address
        var page: [UInt32: (value: UInt64, at: UInt64)] = [:]
        let slots = gotSlots
        var entries: [UInt64: CallSite.Callee] = [:]
        disassembler.decode(bytes, at: address) { instruction in
            let id = instruction.pointee.id
            let next = instruction.pointee.address &+ UInt64(instruction.pointee.size)
            switch architecture {
            case .x86_64:
                // An entry starts at the first instruction after the
                // previous entry's jump that is not padding.
                if entryStart == nil && id != X86_INS_NOP.rawValue { entryStart = instruction.pointee.address }
                guard id == X86_INS_JMP.rawValue else { return }
                if linkcheck_x86_operand_count(instruction) == 1, let operand = linkcheck_x86_operand(instruction, 0),
                   operand.pointee.type == X86_OP_MEM, operand.pointee.mem.base == X86_REG_RIP,
                   let start = entryStart {
                    let slot = UInt64(bitPattern: Int64(bitPattern: next) &+ operand.pointee.mem.disp)
                    if let callee = slots[slot] { entries[start] = callee }
                }
                entryStart = nil
            case .aarch64:
                if id == ARM64_INS_ADRP.rawValue, linkcheck_arm64_operand_count(instruction) == 2 {
                    let register = linkcheck_arm64_operand(instruction, 0).pointee.reg.rawValue
                    page[register] = (UInt64(bitPattern: linkcheck_arm64_operand(instruction, 1).pointee.imm), instruction.pointee.address)
                } else if id == ARM64_INS_LDR.rawValue, linkcheck_arm64_operand_count(instruction) == 2,
                          linkcheck_arm64_operand(instruction, 1).pointee.type == ARM64_OP_MEM {
                    let memory = linkcheck_arm64_operand(instruction, 1).pointee.mem
                    if let base = page[memory.base.rawValue] {
                        let slot = base.value &+ UInt64(bitPattern: Int64(memory.disp))
                        if let callee = slots[slot] { entries[base.at] = callee }
                    }
                } else if id == ARM64_INS_BR.rawValue {
                    page = [:]
                }
            }
        }
        pltEntries.merge(entries) { first, _ in first }
    }
}
