#if canImport(CLibELF)  // the PLT of ELF images, read only in a build with libelf (Package.swift)
import LinkCheckImage

/// The instructions x86_64 linkers write into PLT sections (`.plt`,
/// `.plt.sec`, `.plt.got`, `.iplt`), recognised by their bytes as objdump
/// recognises PLT entries (binutils' `elf_x86_64_get_synthetic_symtab`
/// matches the linkers' entry templates): the lazy and non-lazy entries of
/// GNU ld, gold, lld and mold, with and without IBT (`endbr64`, `bnd`), and
/// the padding between them. A PLT is a few thousand such instructions;
/// recognising them here saves decoding each with Capstone (about 3,400
/// instructions of the host an instruction, as much as a tenth of a
/// check's call-site analysis), and a section holding anything else is
/// decoded with Capstone as before (``ImageLayout``).
enum X86PLTCode {
    /// What an instruction of a PLT does, as the PLT's reading needs it.
    enum Kind: Equatable {
        /// `jmp *disp32(%rip)` (`FF 25`, or `F2 FF 25` with `bnd`): the
        /// entry's jump through its GOT slot, at the address of the next
        /// instruction plus `displacement`.
        case jumpThroughSlot(displacement: Int32)
        /// Another `jmp` (`E9` rel32, with or without `bnd`): a lazy entry's
        /// jump to the PLT's first entry.
        case jump
        /// A `nop` of one of the forms linkers pad with.
        case noOperation
        /// Anything else recognised: `push` (an immediate or `disp32(%rip)`),
        /// `endbr64`, `int3`, and mold's `push %r11` and `mov $imm32, %r11d`.
        case other
    }

    /// One recognised instruction: where it starts in the section's bytes,
    /// its length in bytes, and what it does.
    struct Instruction: Equatable {
        var offset: Int
        var length: Int
        var kind: Kind
    }

    /// The instructions of a PLT section's `bytes` in order, each as
    /// Capstone 4 decodes it (id, length, operands: `X86PLTCodeTests`
    /// compares the two on the PLTs of the system's libraries and of
    /// libraries linked by each linker), or `nil` when some bytes are none
    /// of the templates' instructions.
    static func instructions(in bytes: UnsafeRawBufferPointer) -> [Instruction]? {
        var instructions: [Instruction] = []
        instructions.reserveCapacity(bytes.count / 4)
        var offset = 0
        while offset < bytes.count {
            guard let (length, kind) = instruction(in: bytes, at: offset) else { return nil }
            instructions.append(Instruction(offset: offset, length: length, kind: kind))
            offset += length
        }
        return instructions
    }

    /// The template instruction at `offset` of `bytes`: its length and kind,
    /// or `nil` when the bytes there are not one (or run past the end).
    private static func instruction(in bytes: UnsafeRawBufferPointer, at offset: Int) -> (Int, Kind)? {
        func byte(_ index: Int) -> UInt8? { offset + index < bytes.count ? bytes[offset + index] : nil }
        func matches(_ pattern: [UInt8]) -> Bool {
            offset + pattern.count <= bytes.count && pattern.indices.allSatisfy { bytes[offset + $0] == pattern[$0] }
        }
        func displacement(at index: Int) -> Int32? {
            guard offset + index + 4 <= bytes.count else { return nil }
            return Int32(bitPattern: bytes.loadUnaligned(fromByteOffset: offset + index, as: UInt32.self).littleEndian)
        }
        switch byte(0) {
        case 0xff where byte(1) == 0x25:  // jmp *disp32(%rip)
            return displacement(at: 2).map { (6, .jumpThroughSlot(displacement: $0)) }
        case 0xff where byte(1) == 0x35:  // push disp32(%rip)
            return displacement(at: 2).map { _ in (6, .other) }
        case 0xf2 where byte(1) == 0xff && byte(2) == 0x25:  // bnd jmp *disp32(%rip)
            return displacement(at: 3).map { (7, .jumpThroughSlot(displacement: $0)) }
        case 0xf2 where byte(1) == 0xe9:  // bnd jmp rel32
            return displacement(at: 2).map { _ in (6, .jump) }
        case 0xe9:  // jmp rel32
            return displacement(at: 1).map { _ in (5, .jump) }
        case 0x68:  // push imm32
            return displacement(at: 1).map { _ in (5, .other) }
        case 0xf3 where matches([0xf3, 0x0f, 0x1e, 0xfa]):  // endbr64
            return (4, .other)
        case 0xcc:  // int3
            return (1, .other)
        case 0x41 where byte(1) == 0x53:  // push %r11
            return (2, .other)
        case 0x41 where byte(1) == 0xbb:  // mov $imm32, %r11d
            return displacement(at: 2).map { _ in (6, .other) }
        case 0x90:
            return (1, .noOperation)
        default:
            return noOperations.first(where: matches).map { ($0.count, .noOperation) }
        }
    }

    /// The multi-byte `nop`s linkers pad PLT entries with (Intel's
    /// recommended forms; `66 90` is `xchg %ax,%ax`, which Capstone names
    /// `nop`).
    private static let noOperations: [[UInt8]] = [
        [0x66, 0x90],
        [0x0f, 0x1f, 0x00],
        [0x0f, 0x1f, 0x40, 0x00],
        [0x0f, 0x1f, 0x44, 0x00, 0x00],
        [0x66, 0x0f, 0x1f, 0x44, 0x00, 0x00],
        [0x0f, 0x1f, 0x80, 0x00, 0x00, 0x00, 0x00],
        [0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00],
        [0x66, 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00],
        [0x66, 0x2e, 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00],
    ]
}

/// The entries of an x86_64 PLT as its instructions come, one at a time:
/// an entry starts at the first instruction after the previous entry's
/// jump that is not padding, and reaches what the GOT slot its
/// `jmp *slot(%rip)` goes through holds.
struct X86PLTEntries {
    private var entryStart: UInt64?
    private let slots: [UInt64: CallSite.Callee]
    /// Entry address → the function it reaches.
    private(set) var entries: [UInt64: CallSite.Callee] = [:]

    /// Entries of a PLT whose first instruction is at `start`, through
    /// the GOT slots `slots`.
    init(start: UInt64, slots: [UInt64: CallSite.Callee]) {
        entryStart = start
        self.slots = slots
    }

    /// The instruction at `address`, whose successor is at `next`: a `nop`,
    /// a `jmp`, and for `jmp *disp(%rip)` the displacement.
    mutating func visit(at address: UInt64, next: UInt64, isNoOperation: Bool, isJump: Bool, slotDisplacement: Int64?) {
        if entryStart == nil && !isNoOperation { entryStart = address }
        guard isJump else { return }
        if let slotDisplacement, let start = entryStart,
            let callee = slots[UInt64(bitPattern: Int64(bitPattern: next) &+ slotDisplacement)]
        {
            entries[start] = callee
        }
        entryStart = nil
    }
}
#endif
