import CCapstone

/// What the scanner knows a general-purpose register holds.
enum RegisterValue: Equatable {
    /// The start of a 4 KB page (aarch64 `adrp`): the first half of an
    /// address, not the address of anything yet.
    case page(UInt64)
    /// A virtual address: aarch64 `adr`, or `add` to a page or address;
    /// x86_64 `lea reg, [rip + disp]`, or `mov reg, imm`.
    case address(UInt64)
    /// The pointer loaded from the slot at this virtual address: aarch64
    /// `ldr xN, [page or address + imm]` or `ldr xN, literal`; x86_64
    /// `mov reg, [rip + disp]`.
    case loaded(from: UInt64)
}

/// The general-purpose registers of one instruction set as the scanner
/// tracks them through a function in address order, by their 64-bit names
/// (a write to `w1`/`esi` is a write to `x1`/`rsi`), with the calling
/// convention's argument registers and the registers a call preserves
/// (AAPCS64: `x19`–`x29`; System V and Apple x86_64: `rbx`, `rbp`,
/// `r12`–`r15`).
struct RegisterFile {
    let instructionSet: Disassembler.InstructionSet
    private var values: [UInt32: RegisterValue] = [:]

    init(_ instructionSet: Disassembler.InstructionSet) {
        self.instructionSet = instructionSet
    }

    /// The value of `register` (any of its widths).
    subscript(register: UInt32) -> RegisterValue? {
        get { values[canonical(register)] }
        set { values[canonical(register)] = newValue }
    }

    /// Forgets every register (a new function starts).
    mutating func clearAll() { values = [:] }

    /// What a call leaves: the registers it preserves.
    mutating func clearCallerSaved() {
        let preserved = instructionSet == .aarch64 ? Self.arm64CalleeSaved : Self.x86CalleeSaved
        values = values.filter { preserved.contains($0.key) }
    }

    /// Argument register `index` (0-based): `x0`… or `rdi`, `rsi`, `rdx`, `rcx`.
    func argument(_ index: Int) -> UInt32 {
        switch instructionSet {
        case .aarch64: ARM64_REG_X0.rawValue + UInt32(index)
        case .x86_64: [X86_REG_RDI, X86_REG_RSI, X86_REG_RDX, X86_REG_RCX][index].rawValue
        }
    }

    /// The register a call returns its result in: `x0` or `rax`.
    var result: UInt32 {
        instructionSet == .aarch64 ? ARM64_REG_X0.rawValue : X86_REG_RAX.rawValue
    }

    /// Whether `register` is a whole 64-bit general-purpose register
    /// (`x1`, `rsi`), which alone can hold an address.
    func isWide(_ register: UInt32) -> Bool {
        switch instructionSet {
        case .aarch64:
            (ARM64_REG_X0.rawValue...ARM64_REG_X28.rawValue).contains(register)
                || register == ARM64_REG_X29.rawValue || register == ARM64_REG_X30.rawValue
        case .x86_64: Self.x86Wide.contains(register)
        }
    }

    /// The 64-bit name of `register`: `w5` → `x5`, `esi`/`si`/`sil` → `rsi`;
    /// others as they are.
    private func canonical(_ register: UInt32) -> UInt32 {
        switch instructionSet {
        case .aarch64:
            let (w0, w28) = (ARM64_REG_W0.rawValue, ARM64_REG_W28.rawValue)
            if register >= w0 && register <= w28 { return ARM64_REG_X0.rawValue + (register - w0) }
            if register == ARM64_REG_W29.rawValue { return ARM64_REG_X29.rawValue }
            if register == ARM64_REG_W30.rawValue { return ARM64_REG_X30.rawValue }
            return register
        case .x86_64:
            return Self.x86Canonical[register] ?? register
        }
    }

    private static let arm64CalleeSaved = Set(
        (ARM64_REG_X19.rawValue...ARM64_REG_X28.rawValue) + [ARM64_REG_X29.rawValue, ARM64_REG_SP.rawValue])

    private static let x86CalleeSaved = Set(
        [X86_REG_RBX, X86_REG_RBP, X86_REG_R12, X86_REG_R13, X86_REG_R14, X86_REG_R15, X86_REG_RSP].map(\.rawValue))

    /// Each x86_64 general-purpose register, 64-bit name first, then its
    /// narrower names.
    private static let x86Families: [[x86_reg]] = [
        [X86_REG_RAX, X86_REG_EAX, X86_REG_AX, X86_REG_AL, X86_REG_AH],
        [X86_REG_RBX, X86_REG_EBX, X86_REG_BX, X86_REG_BL, X86_REG_BH],
        [X86_REG_RCX, X86_REG_ECX, X86_REG_CX, X86_REG_CL, X86_REG_CH],
        [X86_REG_RDX, X86_REG_EDX, X86_REG_DX, X86_REG_DL, X86_REG_DH],
        [X86_REG_RSI, X86_REG_ESI, X86_REG_SI, X86_REG_SIL],
        [X86_REG_RDI, X86_REG_EDI, X86_REG_DI, X86_REG_DIL],
        [X86_REG_RBP, X86_REG_EBP, X86_REG_BP, X86_REG_BPL],
        [X86_REG_RSP, X86_REG_ESP, X86_REG_SP, X86_REG_SPL],
        [X86_REG_R8, X86_REG_R8D, X86_REG_R8W, X86_REG_R8B],
        [X86_REG_R9, X86_REG_R9D, X86_REG_R9W, X86_REG_R9B],
        [X86_REG_R10, X86_REG_R10D, X86_REG_R10W, X86_REG_R10B],
        [X86_REG_R11, X86_REG_R11D, X86_REG_R11W, X86_REG_R11B],
        [X86_REG_R12, X86_REG_R12D, X86_REG_R12W, X86_REG_R12B],
        [X86_REG_R13, X86_REG_R13D, X86_REG_R13W, X86_REG_R13B],
        [X86_REG_R14, X86_REG_R14D, X86_REG_R14W, X86_REG_R14B],
        [X86_REG_R15, X86_REG_R15D, X86_REG_R15W, X86_REG_R15B],
    ]

    private static let x86Wide = Set(x86Families.map { $0[0].rawValue })

    private static let x86Canonical: [UInt32: UInt32] = Dictionary(
        x86Families.flatMap { family in family.map { ($0.rawValue, family[0].rawValue) } }, uniquingKeysWith: { first, _ in first })
}
