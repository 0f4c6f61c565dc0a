#if canImport(CLibELF)  // read through libelf: a stub in a build without it (Package.swift)
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
        try withCode(path) { $0.analysis() } ?? nil
    }

    /// The call sites of the ELF file at `path` that `interest` asks for,
    /// indexed (``CodeIndex/analyze(_:interest:mode:)``).
    ///
    /// - Returns: `nil` when the machine is not x86_64 or aarch64.
    /// - Throws: as ``analyze(path:)``.
    static func index(path: String, interest: CallSiteInterest, mode: CallSiteMode) throws(InspectionError) -> CodeIndex? {
        try withCode(path) { $0.index(interest: interest, mode: mode) } ?? nil
    }

    /// Opens the ELF file at `path` and calls `body` with its code
    /// (``LaidOutCode``): its layout, its instruction set, its code sections (non-PLT executable
    /// `SHT_PROGBITS` sections with distinct file ranges, in libelf's
    /// buffers) and a pass over each section's bytes in a mapping of its
    /// own whose pages can be given back as the pass moves on
    /// (``ELFFile/withContents(of:_:)``): a large library's code is never
    /// resident all at once.
    ///
    /// - Returns: `nil` when the machine is not x86_64 or aarch64.
    private static func withCode<Value>(
        _ path: String, _ body: (LaidOutCode<ImageLayout>) -> Value
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
                code.append(
                    (
                        section,
                        CodeBytes(
                            address: section.header.sh_addr, fileOffset: section.header.sh_offset,
                            bytes: UnsafeRawBufferPointer(start: base, count: data.pointee.d_size))
                    ))
            }
            let regions = CodeRegions(
                functions: image.functions, sections: code.map(\.bytes), boundaries: file.unwindFunctionStarts(sections: sections),
                giveBackPages: { file.discardPages(of: code.map(\.section)) })
            return body(
                LaidOutCode(layout: image, architecture: architecture, regions: regions) { index, pass in
                    _ = file.withContents(of: code[index].section, pass)
                })
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
        functions = ELFFunctionSymbols(file: file, sections: sections).functionTable(file: file)
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
                let data = section.data, let base = data.pointee.d_buf
            {
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
        // function of that name, found in one pass for all of them. A
        // function's name becomes a string only when it is not ASCII, or
        // when its bytes hash as one of the ASCII names' do (a name of ASCII
        // bytes equals, as a string, only a name of the same bytes or one
        // that is not ASCII).
        var byName: [String: Int] = [:]
        if !unresolved.isEmpty {
            let everyNameIsASCII = unresolved.allSatisfy { $0.utf8.allSatisfy { $0 < 0x80 } }
            let hashes = Set(unresolved.map { Array($0.utf8).withUnsafeBufferPointer { Self.fingerprint($0).hash } })
            func mayBeOne(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
                let (hash, isASCII) = Self.fingerprint(name)
                return !everyNameIsASCII || !isASCII || hashes.contains(hash)
            }
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
        let (globalData, jumpSlot): (UInt64, UInt64) =
            switch architecture {
            case .x86_64: (6, 7)  // R_X86_64_GLOB_DAT, R_X86_64_JUMP_SLOT
            case .aarch64: (1025, 1026)  // R_AARCH64_GLOB_DAT, R_AARCH64_JUMP_SLOT
            }
        let byIndex = Dictionary(sections.map { ($0.index, $0) }, uniquingKeysWith: { first, _ in first })
        let entrySize = MemoryLayout<Elf64_Rela>.size
        for section in sections.filter({ $0.type == UInt32(SHT_RELA) }).withDistinctFileRanges() {
            guard let data = section.data, data.pointee.d_type == ELF_T_RELA, let base = data.pointee.d_buf,
                let symbols = byIndex[Int(section.header.sh_link)], let symbolData = symbols.data,
                let names = file.stringTable(Int(symbols.header.sh_link))
            else { continue }
            // The entries as libelf gives them, in the host's memory
            // representation (an image laid out is 64-bit): r_offset, r_info.
            let relocations = UnsafeRawBufferPointer(start: base, count: data.pointee.d_size / entrySize * entrySize)
            var symbol = GElf_Sym()
            for start in stride(from: 0, to: relocations.count, by: entrySize) {
                let information = relocations.loadUnaligned(fromByteOffset: start + 8, as: UInt64.self)
                let type = information & 0xffff_ffff
                let symbolIndex = Int32(clamping: information >> 32)
                guard type == globalData || type == jumpSlot, symbolIndex > 0, gelf_getsym(symbolData, symbolIndex, &symbol) != nil,
                    names.hasName(at: Int(symbol.st_name)), let name = names.name(at: Int(symbol.st_name))
                else { continue }
                body(
                    relocations.loadUnaligned(fromByteOffset: start, as: UInt64.self), name, symbol.st_value,
                    symbol.st_shndx != UInt16(SHN_UNDEF))
            }
        }
    }

    /// FNV-1a (64-bit) of `bytes`, and whether they are all ASCII.
    private static func fingerprint(_ bytes: UnsafeBufferPointer<UInt8>) -> (hash: UInt64, isASCII: Bool) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        var high: UInt8 = 0
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
            high |= byte
        }
        return (hash, high < 0x80)
    }

    /// PLT entries: the function reached through the GOT slot each entry jumps through (x86_64
    /// `jmp *slot(%rip)`; aarch64 `adrp x16` + `ldr x17, [x16, #off]`),
    /// keyed by the entry's first instruction. An x86_64 PLT made only of
    /// the linkers' template instructions is read from its bytes
    /// (``X86PLTCode``), any other with Capstone.
    private mutating func readPLT(_ bytes: UnsafeRawBufferPointer, at address: UInt64, _ architecture: Disassembler.InstructionSet) {
        var x86 = X86PLTEntries(start: address, slots: gotSlots)
        if architecture == .x86_64, let instructions = X86PLTCode.instructions(in: bytes) {
            for instruction in instructions {
                let start = address &+ UInt64(instruction.offset)
                let next = start &+ UInt64(instruction.length)
                switch instruction.kind {
                case .jumpThroughSlot(let displacement):
                    x86.visit(at: start, next: next, isNoOperation: false, isJump: true, slotDisplacement: Int64(displacement))
                case .jump: x86.visit(at: start, next: next, isNoOperation: false, isJump: true, slotDisplacement: nil)
                case .noOperation: x86.visit(at: start, next: next, isNoOperation: true, isJump: false, slotDisplacement: nil)
                case .other: x86.visit(at: start, next: next, isNoOperation: false, isJump: false, slotDisplacement: nil)
                }
            }
            pltEntries.merge(x86.entries) { first, _ in first }
            return
        }
        guard let disassembler = Disassembler(architecture) else { return }
        var page: [UInt32: (value: UInt64, at: UInt64)] = [:]
        let slots = gotSlots
        var entries: [UInt64: CallSite.Callee] = [:]
        disassembler.decode(bytes, at: address) { instruction in
            let id = instruction.pointee.id
            let next = instruction.pointee.address &+ UInt64(instruction.pointee.size)
            switch architecture {
            case .x86_64:
                var slotDisplacement: Int64?
                if id == X86_INS_JMP.rawValue, linkcheck_x86_operand_count(instruction) == 1,
                    let operand = linkcheck_x86_operand(instruction, 0), operand.pointee.type == X86_OP_MEM,
                    operand.pointee.mem.base == X86_REG_RIP
                {
                    slotDisplacement = operand.pointee.mem.disp
                }
                x86.visit(
                    at: instruction.pointee.address, next: next, isNoOperation: id == X86_INS_NOP.rawValue,
                    isJump: id == X86_INS_JMP.rawValue, slotDisplacement: slotDisplacement)
            case .aarch64:
                if id == ARM64_INS_ADRP.rawValue, linkcheck_arm64_operand_count(instruction) == 2 {
                    let register = linkcheck_arm64_operand(instruction, 0).pointee.reg.rawValue
                    page[register] = (UInt64(bitPattern: linkcheck_arm64_operand(instruction, 1).pointee.imm), instruction.pointee.address)
                } else if id == ARM64_INS_LDR.rawValue, linkcheck_arm64_operand_count(instruction) == 2,
                    linkcheck_arm64_operand(instruction, 1).pointee.type == ARM64_OP_MEM
                {
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
        pltEntries.merge(architecture == .x86_64 ? x86.entries : entries) { first, _ in first }
    }
}
#else
import LinkCheckELF
import LinkCheckImage

/// The ELF call-site analysis of a build without libelf: no ELF image is
/// read (``ELFReader/readsELF``), so none has call sites to analyse.
public enum CallSiteAnalyzer {
    /// No architecture: ELF call sites are not analysed in this build.
    public static func supports(_ architecture: Architecture) -> Bool { false }

    /// Analyses no ELF file.
    ///
    /// - Throws: as ``ELFReader/read(path:strings:symbols:)``, always.
    public static func analyze(path: String) throws(InspectionError) -> CodeAnalysis? {
        _ = try ELFReader.read(path: path)
        return nil
    }

    /// Indexes no ELF file.
    ///
    /// - Throws: as ``analyze(path:)``.
    static func index(path: String, interest: CallSiteInterest, mode: CallSiteMode) throws(InspectionError) -> CodeIndex? {
        _ = try analyze(path: path)
        return nil
    }
}
#endif
