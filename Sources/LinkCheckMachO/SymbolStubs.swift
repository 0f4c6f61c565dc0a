import LinkCheckImage

/// A stub of an `S_SYMBOL_STUBS` section (`__stubs`, `__auth_stubs`,
/// `__symbol_stub`, `__picsymbolstub4`): code that jumps to an imported
/// symbol, so a call to the stub is a call to the symbol.
public struct SymbolStub: Sendable, Hashable {
    /// The stub's virtual address.
    public var address: UInt64
    /// Its size in bytes (`reserved2` of the section).
    public var size: UInt32
    /// The symbol it jumps to: from the indirect symbol table entry
    /// `reserved1` + the stub's index, or where that entry names no symbol
    /// (`INDIRECT_SYMBOL_ABS` in images whose symbol table was stripped), the
    /// import bound into ``pointerAddress``.
    public var name: String
    /// The symbol-pointer slot the stub jumps through, decoded from its
    /// instructions (x86_64 and i386 `jmp *`, arm64 `adrp`/`ldr`, arm64e
    /// `adrp`/`add`/`ldr`/`braa`, armv7 `ldr pc`); `nil` for other stubs.
    public var pointerAddress: UInt64?
    /// The import bound into ``pointerAddress`` (index into
    /// ``MachOImage/imports``).
    public var importIndex: Int?
    /// The section, as `segname,sectname`.
    public var section: String
}

/// A pointer slot of a symbol-pointer section (`S_NON_LAZY_SYMBOL_POINTERS`:
/// `__got`, `__auth_got`, `__nl_symbol_ptr`; `S_LAZY_SYMBOL_POINTERS`:
/// `__la_symbol_ptr`), which holds the address of a symbol.
public struct SymbolPointer: Sendable, Hashable {
    /// The slot's virtual address.
    public var address: UInt64
    /// The symbol: from the indirect symbol table, or the import a binding
    /// of the slot names where the table has no entry for it.
    public var name: String
    /// The import bound into the slot (index into ``MachOImage/imports``),
    /// when there is a binding of it.
    public var importIndex: Int?
    /// `S_LAZY_SYMBOL_POINTERS` (bound on first call).
    public var isLazy: Bool
    /// The section, as `segname,sectname`.
    public var section: String
}

/// Stubs and symbol pointers, named through the indirect symbol table
/// (`LC_DYSYMTAB`): entry `reserved1 + i` of the table names the symbol of
/// stub or slot `i` of a section.
enum SymbolStubs {
    static func read(_ context: ReadContext, warnings: inout ReadWarnings) -> ([SymbolStub], [SymbolPointer]) {
        var stubs: [SymbolStub] = []
        var pointers: [SymbolPointer] = []
        let indirect = context.indirectSymbols
        /// The name of indirect entry `index`, or `nil` for local and absolute
        /// entries and indexes out of range.
        func name(indirect index: UInt64) -> String? {
            guard index < UInt64(indirect.count) else { return nil }
            let entry = indirect[Int(index)]
            guard entry & (DynamicSymbolTable.indirectSymbolLocal | DynamicSymbolTable.indirectSymbolAbsolute) == 0,
                Int(entry) < context.symbols.count
            else { return nil }
            return context.symbols[Int(entry)].name
        }
        let pointerSize = UInt64(context.header.pointerSize)
        for (_, section) in context.contentSections {
            let location = context.image.fileOffset &+ Int(section.fileOffset)
            switch section.type {
            case .symbolStubs:
                let size = UInt64(section.reserved2)
                guard size > 0 else {
                    warnings.add(
                        "section \(section.qualifiedName)", at: location, "S_SYMBOL_STUBS with a stub size (reserved2) of 0; stubs not read"
                    )
                    continue
                }
                let count = section.size / size
                if UInt64(section.reserved1) + count > UInt64(indirect.count) {
                    warnings.add(
                        "section \(section.qualifiedName)", at: location,
                        "its \(count) stubs from indirect symbol \(section.reserved1) run past the \(indirect.count) indirect symbols")
                }
                let bytes = context.bytes(of: section)
                for index in 0..<count {
                    guard UInt64(section.reserved1) + index < UInt64(indirect.count) else { break }
                    let address = section.address &+ index &* size
                    let pointer = pointerSlot(
                        ofStub: bytes, at: Int(index * size), size: Int(size), address: address, cpu: context.header.cpu)
                    let bound = pointer.flatMap { context.boundImport[$0] }
                    guard let symbol = name(indirect: UInt64(section.reserved1) + index) ?? bound.map({ context.imports[$0].name })
                    else { continue }
                    stubs.append(
                        SymbolStub(
                            address: address, size: section.reserved2, name: symbol, pointerAddress: pointer,
                            importIndex: bound, section: section.qualifiedName))
                }
            case .nonLazySymbolPointers, .lazySymbolPointers, .lazyDylibSymbolPointers:
                let count = section.size / pointerSize
                for index in 0..<count {
                    let address = section.address &+ index &* pointerSize
                    let bound = context.boundImport[address]
                    guard let symbol = name(indirect: UInt64(section.reserved1) + index) ?? bound.map({ context.imports[$0].name })
                    else { continue }
                    pointers.append(
                        SymbolPointer(
                            address: address, name: symbol, importIndex: bound, isLazy: section.type != .nonLazySymbolPointers,
                            section: section.qualifiedName))
                }
            default:
                continue
            }
        }
        return (stubs, pointers)
    }

    /// The slot a stub of `size` bytes at `offset` in `bytes` (virtual
    /// address `address`) loads its target from, decoded from the forms the
    /// linkers emit; `nil` for any other code.
    static func pointerSlot(ofStub bytes: ByteReader, at offset: Int, size: Int, address: UInt64, cpu: CPUType) -> UInt64? {
        func word(_ index: Int) -> UInt32? { bytes.u32(at: offset + index * 4) }
        /// `adrp xN, page` at `pc` → the page address, for register `register`.
        func adrp(_ instruction: UInt32, register: UInt32, pc: UInt64) -> UInt64? {
            guard instruction & 0x9f00_001f == 0x9000_0000 | register else { return nil }
            let immediate = Int64((instruction >> 29) & 0x3) | Int64((instruction >> 5) & 0x7_ffff) << 2
            return (pc & ~0xfff) &+ UInt64(bitPattern: (immediate << 43) >> 31)
        }
        switch cpu.type {
        case CPUType.x86 | CPUType.abi64, CPUType.x86:
            // jmp *disp32(%rip) / jmp *abs32
            guard size >= 6, bytes.u8(at: offset) == 0xff, bytes.u8(at: offset + 1) == 0x25,
                let operand = bytes.u32(at: offset + 2)
            else { return nil }
            return cpu.type == CPUType.x86 ? UInt64(operand) : address &+ 6 &+ UInt64(bitPattern: Int64(Int32(bitPattern: operand)))
        case CPUType.arm | CPUType.abi64, CPUType.arm | CPUType.abi64_32:
            guard let first = word(0), let second = word(1) else { return nil }
            let wide = cpu.type == CPUType.arm | CPUType.abi64
            // adrp x16, slot@PAGE; ldr x16|w16, [x16, slot@PAGEOFF]; br x16
            if let page = adrp(first, register: 16, pc: address), second & 0xffc0_03ff == (wide ? 0xf940_0210 : 0xb940_0210) {
                return page &+ UInt64((second >> 10) & 0xfff) * (wide ? 8 : 4)
            }
            // [nop;] ldr x16|w16, slot (literal, ±1 MB); br x16: what ld64 made
            // of the adrp/ldr pair when the slot was near.
            for (index, instruction) in (first == 0xd503_201f ? [(1, second)] : [(0, first)])
            where instruction & 0xff00_001f == (wide ? 0x5800_0010 : 0x1800_0010) {
                let delta = Int64(Int32(bitPattern: (instruction >> 5) << 13)) >> 11  // imm19 × 4, sign-extended
                return address &+ UInt64(index * 4) &+ UInt64(bitPattern: delta)
            }
            // adrp x17, slot@PAGE; add x17, x17, slot@PAGEOFF; ldr x16, [x17]; braa x16, x17
            if let page = adrp(first, register: 17, pc: address), second & 0xffc0_03ff == 0x9100_0231, word(2) == 0xf940_0230 {
                return page &+ UInt64((second >> 10) & 0xfff)
            }
            return nil
        case CPUType.arm:
            guard let first = word(0) else { return nil }
            // ldr pc, [pc, #±imm12] (ARM): the slot is at the stub + 8 ± imm12.
            if first & 0xff7f_f000 == 0xe51f_f000 {
                let immediate = UInt64(first & 0xfff)
                return first & 0x0080_0000 != 0 ? address &+ 8 &+ immediate : address &+ 8 &- immediate
            }
            // ldr ip, [pc, #4]; add ip, pc, ip; ldr pc, [ip]; .long slot - (stub + 12)
            if size >= 16, first == 0xe59f_c004, word(1) == 0xe08f_c00c, word(2) == 0xe59c_f000, let delta = word(3) {
                return address &+ 12 &+ UInt64(bitPattern: Int64(Int32(bitPattern: delta)))
            }
            return nil
        default:
            return nil
        }
    }
}
