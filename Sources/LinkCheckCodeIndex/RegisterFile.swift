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
    /// The selector a selector maker (``MessageSend/selectorMakers``:
    /// `NSSelectorFromString(@"openURL:")`) returned for the literal name it
    /// was passed.
    case selector(named: String)
}

/// The general-purpose registers of one instruction set as the scanner
/// tracks them through a function in address order, by their 64-bit names
/// (a write to `w1`/`esi` is a write to `x1`/`rsi`), with the calling
/// convention's argument registers and the registers a call preserves
/// (AAPCS64: `x19`–`x29`; System V and Apple x86_64: `rbx`, `rbp`,
/// `r12`–`r15`). Other registers (vector, flags, `sp`) are not tracked:
/// they read as holding nothing.
struct RegisterFile {
    let instructionSet: Disassembler.InstructionSet
    /// By general-purpose register number: `x0`–`x30`, or x86_64's 16 in
    /// ``x86Families`` order.
    private var values = [RegisterValue?](repeating: nil, count: 31)
    /// Whether a register number survives a call.
    private let preserved: [Bool]

    init(_ instructionSet: Disassembler.InstructionSet) {
        self.instructionSet = instructionSet
        switch instructionSet {
        case .aarch64: preserved = (0..<31).map { (19...29).contains($0) }
        case .x86_64:
            let kept: Set<x86_reg> = [X86_REG_RBX, X86_REG_RBP, X86_REG_R12, X86_REG_R13, X86_REG_R14, X86_REG_R15]
            preserved = (0..<31).map { $0 < Self.x86Families.count && kept.contains(Self.x86Families[$0][0]) }
        }
    }

    /// The value of `register` (any of its widths).
    subscript(register: UInt32) -> RegisterValue? {
        get { number(register).flatMap { values[$0] } }
        set { if let number = number(register) { values[number] = newValue } }
    }

    /// Forgets every register (a new function starts).
    mutating func clearAll() {
        for number in values.indices { values[number] = nil }
    }

    /// What a call leaves: the registers it preserves.
    mutating func clearCallerSaved() {
        for number in values.indices where !preserved[number] { values[number] = nil }
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
        case .x86_64: Int(register) < Self.x86Wide.count && Self.x86Wide[Int(register)]
        }
    }

    /// The number of the general-purpose register `register` is (a width
    /// of): `w5` and `x5` → 5; `esi`, `si`, `sil` → `rsi`'s; `nil` for
    /// others.
    private func number(_ register: UInt32) -> Int? {
        switch instructionSet {
        case .aarch64:
            if register >= ARM64_REG_X0.rawValue && register <= ARM64_REG_X28.rawValue { return Int(register - ARM64_REG_X0.rawValue) }
            if register >= ARM64_REG_W0.rawValue && register <= ARM64_REG_W28.rawValue { return Int(register - ARM64_REG_W0.rawValue) }
            if register == ARM64_REG_X29.rawValue || register == ARM64_REG_W29.rawValue { return 29 }
            if register == ARM64_REG_X30.rawValue || register == ARM64_REG_W30.rawValue { return 30 }
            return nil
        case .x86_64:
            guard Int(register) < Self.x86Numbers.count else { return nil }
            let number = Self.x86Numbers[Int(register)]
            return number >= 0 ? Int(number) : nil
        }
    }

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
        [X86_REG_R8, X86_REG_R8D, X86_REG_R8W, X86_REG_R8B],
        [X86_REG_R9, X86_REG_R9D, X86_REG_R9W, X86_REG_R9B],
        [X86_REG_R10, X86_REG_R10D, X86_REG_R10W, X86_REG_R10B],
        [X86_REG_R11, X86_REG_R11D, X86_REG_R11W, X86_REG_R11B],
        [X86_REG_R12, X86_REG_R12D, X86_REG_R12W, X86_REG_R12B],
        [X86_REG_R13, X86_REG_R13D, X86_REG_R13W, X86_REG_R13B],
        [X86_REG_R14, X86_REG_R14D, X86_REG_R14W, X86_REG_R14B],
        [X86_REG_R15, X86_REG_R15D, X86_REG_R15W, X86_REG_R15B],
    ]

    /// Capstone's x86 register id → its family's number in ``x86Families``
    /// (-1: not a tracked register).
    private static let x86Numbers: [Int8] = {
        var numbers = [Int8](repeating: -1, count: Int(X86_REG_ENDING.rawValue))
        for (number, family) in x86Families.enumerated() {
            for register in family { numbers[Int(register.rawValue)] = Int8(number) }
        }
        return numbers
    }()

    /// Capstone's x86 register id → whether it is a 64-bit one.
    private static let x86Wide: [Bool] = {
        var wide = [Bool](repeating: false, count: Int(X86_REG_ENDING.rawValue))
        for family in x86Families { wide[Int(family[0].rawValue)] = true }
        return wide
    }()
}
