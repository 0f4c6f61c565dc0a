import CCapstone
import LinkCheckImage

/// Walks the decoded instructions of one region of code at a time
/// (``CodeRegion``) and records call sites, for either format
/// (``CodeLayout``). It tracks, through a region and without following
/// branches, what each register holds (``RegisterFile``): enough for calls
/// through a pointer slot (`adrp`+`ldr`+`blr`, `call *slot(%rip)`,
/// `mov reg, [slot]` then `call reg`), the string literal in the first
/// argument register, and the selector and class reference of an
/// Objective-C message send. A call keeps only the registers the callee
/// preserves. A jump or branch to a stub or to another function's start,
/// unconditional or conditional (x86_64 `jcc`; aarch64 `b.cond`,
/// `cbz`/`cbnz`, `tbz`/`tbnz`), is a tail call. Besides calls it notes
/// the names code takes into registers (``CodeReference``): the selector
/// references it loads, the string literals whose addresses it makes, and
/// its `respondsToSelector:` sends.
struct CallScanner<Layout: CodeLayout> {
    let image: Layout
    let architecture: Disassembler.InstructionSet
    /// Receives each call site, in address order within a region.
    let record: (CallSite) -> Void
    /// Receives each reference, in address order within a region.
    let reference: (CodeReference) -> Void

    /// The function of the current region.
    private var function: Int?
    private var registers: RegisterFile
    /// The last string the current region referenced.
    private var recentString: String?

    init(
        image: Layout, architecture: Disassembler.InstructionSet, record: @escaping (CallSite) -> Void,
        reference: @escaping (CodeReference) -> Void = { _ in }
    ) {
        self.image = image
        self.architecture = architecture
        self.record = record
        self.reference = reference
        registers = RegisterFile(architecture)
    }

    /// Starts a region: its function, and no register knowledge.
    mutating func begin(_ region: CodeRegion) {
        function = region.function
        recentString = nil
        registers.clearAll()
    }

    /// Scans one instruction of the current region, in a section whose
    /// bytes start at file offset `sectionOffset` (from the start of the
    /// file) and virtual address `sectionAddress`.
    mutating func visit(_ instruction: UnsafeMutablePointer<cs_insn>, sectionOffset: UInt64, sectionAddress: UInt64) {
        let address = instruction.pointee.address
        let site = Site(
            address: address, next: address &+ UInt64(instruction.pointee.size),
            fileOffset: sectionOffset &+ (address &- sectionAddress))
        switch architecture {
        case .x86_64: visitX86(instruction, site)
        case .aarch64: visitARM64(instruction, site)
        }
    }

    private struct Site {
        let address: UInt64
        let next: UInt64
        let fileOffset: UInt64
    }

    /// Whether a direct transfer in `function` to the start of function
    /// `callee` is a call the scanner records: a call always, a jump (a
    /// tail call) unless `callee` is `function` or starts inside it (a loop,
    /// a branch within the function).
    static func recordsTransfer(in function: Int?, toStartOf callee: Int, tail: Bool, functions: FunctionTable) -> Bool {
        guard tail, let function else { return true }
        let symbol = functions[function]
        let target = functions[callee].address
        return callee != function && !(target > symbol.address && target - symbol.address < max(symbol.size, 1))
    }

    /// Records a call; the strings only for calls to imports (what a loader
    /// loads), which keeps the many internal calls of a large image small.
    /// A call to a message-send function gets its selector (the stub's,
    /// else the selector reference in the selector register) and the class
    /// reference in the receiver register.
    private func recordCall(_ callee: CallSite.Callee, _ site: Site, tail: Bool, throughGOT: Bool, stubSelector: String? = nil) {
        var firstArgument: String?
        var selector: String?
        var receiverClass: String?
        if case .imported(let name) = callee {
            if case .address(let address) = registers[registers.argument(0)] { firstArgument = image.string(at: address) }
            if let send = MessageSend.arguments(of: name, on: architecture) {
                selector = stubSelector ?? slot(in: registers.argument(send.selector)).flatMap(image.selector(referencedAt:))
                if !send.toSuper { receiverClass = slot(in: registers.argument(send.receiver)).flatMap(image.className(referencedAt:)) }
                if selector == "respondsToSelector:" || selector == "instancesRespondToSelector:" {
                    note(.respondsToSelector(self.selector(in: registers.argument(send.selector + 1))), site)
                }
            }
        }
        record(
            CallSite(
                address: site.address, fileOffset: site.fileOffset, caller: function, callee: callee,
                isTailCall: tail, throughGOT: throughGOT, firstArgument: firstArgument,
                recentString: callee.isImported ? recentString : nil,
                selector: selector, receiverClass: receiverClass))
    }

    /// The slot `register` was loaded from.
    private func slot(in register: UInt32) -> UInt64? {
        if case .loaded(let slot) = registers[register] { return slot }
        return nil
    }

    /// The selector `register` holds: one loaded from a selector reference,
    /// or one a selector maker made from a literal.
    private func selector(in register: UInt32) -> String? {
        switch registers[register] {
        case .loaded(let slot): image.selector(referencedAt: slot)
        case .selector(let name): name
        default: nil
        }
    }

    /// A direct transfer to `target`: a stub or a function start. Returns
    /// the callee when the transfer is recorded.
    @discardableResult
    private func direct(_ target: UInt64, _ site: Site, tail: Bool) -> CallSite.Callee? {
        if let stub = image.stub(at: target) {
            recordCall(stub.callee, site, tail: tail, throughGOT: false, stubSelector: stub.selector)
            return stub.callee
        }
        if let callee = image.function(startingAt: target),
            Self.recordsTransfer(in: function, toStartOf: callee, tail: tail, functions: image.functions)
        {
            recordCall(.function(callee), site, tail: tail, throughGOT: false)
            return .function(callee)
        }
        return nil
    }

    /// A transfer through the pointer slot at `slot`; returns the callee
    /// when it is known.
    @discardableResult
    private func indirect(through slot: UInt64?, _ site: Site, tail: Bool) -> CallSite.Callee? {
        guard let slot, let callee = image.pointerSlot(at: slot) else { return nil }
        recordCall(callee, site, tail: tail, throughGOT: true)
        return callee
    }

    /// After a call returns: only the preserved registers keep their
    /// values, except that `objc_opt_self` and `objc_opt_class` return the
    /// class reference they were given, and a selector maker the selector
    /// of the literal it was given.
    private mutating func returned(from callee: CallSite.Callee?) {
        let receiver = registers[registers.argument(0)]
        registers.clearCallerSaved()
        guard case .imported(let name) = callee else { return }
        if MessageSend.returnsClassArgument(name), case .loaded = receiver {
            registers[registers.result] = receiver
        } else if MessageSend.selectorMakers.contains(name), case .address(let address) = receiver, let text = image.string(at: address) {
            registers[registers.result] = .selector(named: text)
        }
    }

    /// Notes a register that now holds `address`, when it is a string.
    private mutating func noteString(at address: UInt64, _ site: Site) {
        guard let text = image.string(at: address) else { return }
        recentString = text
        note(.literal(text), site)
    }

    /// Notes a register that now holds the pointer loaded from `slot`,
    /// when that is a selector reference.
    private func noteLoad(from slot: UInt64, _ site: Site) {
        if let selector = image.selector(referencedAt: slot) { note(.selector(selector), site) }
    }

    private func note(_ target: CodeReference.Target, _ site: Site) {
        reference(CodeReference(address: site.address, fileOffset: site.fileOffset, caller: function, target: target))
    }

    // MARK: - x86_64

    private mutating func visitX86(_ instruction: UnsafeMutablePointer<cs_insn>, _ site: Site) {
        let id = instruction.pointee.id
        let count = linkcheck_x86_operand_count(instruction)
        func operand(_ index: UInt32) -> cs_x86_op { linkcheck_x86_operand(instruction, index)!.pointee }
        if id == X86_INS_CALL.rawValue || id == X86_INS_JMP.rawValue, count == 1 {
            let tail = id == X86_INS_JMP.rawValue
            let target = operand(0)
            var callee: CallSite.Callee?
            if target.type == X86_OP_IMM {
                callee = direct(UInt64(bitPattern: target.imm), site, tail: tail)
            } else if target.type == X86_OP_MEM, target.mem.base == X86_REG_RIP {
                callee = indirect(through: UInt64(bitPattern: Int64(bitPattern: site.next) &+ target.mem.disp), site, tail: tail)
            } else if target.type == X86_OP_REG {
                callee = indirect(through: slot(in: target.reg.rawValue), site, tail: tail)
            }
            if !tail { returned(from: callee) }
            return
        }
        // A conditional jump to a stub or another function is a tail call
        // taken on one path (`jge forbidden_api`, `jne foo@plt`).
        if x86ConditionalJumps.contains(id), count == 1, operand(0).type == X86_OP_IMM {
            direct(UInt64(bitPattern: operand(0).imm), site, tail: true)
            return
        }
        // mov/lea into a register: what it now holds.
        var assignment: (register: UInt32, value: RegisterValue?)?
        if id == X86_INS_MOV.rawValue || id == X86_INS_LEA.rawValue, count == 2, operand(0).type == X86_OP_REG {
            let destination = operand(0).reg.rawValue
            let source = operand(1)
            var value: RegisterValue?
            if source.type == X86_OP_MEM, source.mem.base == X86_REG_RIP, source.mem.index == X86_REG_INVALID {
                let address = UInt64(bitPattern: Int64(bitPattern: site.next) &+ source.mem.disp)
                if id == X86_INS_LEA.rawValue {
                    value = .address(address)
                    noteString(at: address, site)
                } else if registers.isWide(destination) {
                    value = .loaded(from: address)
                    noteLoad(from: address, site)
                }
            } else if id == X86_INS_MOV.rawValue, source.type == X86_OP_IMM {
                value = .address(UInt64(bitPattern: source.imm))
            } else if id == X86_INS_MOV.rawValue, source.type == X86_OP_REG, registers.isWide(destination),
                registers.isWide(source.reg.rawValue)
            {
                value = registers[source.reg.rawValue]
            }
            assignment = (destination, value)
        }
        forgetWritten(instruction, operands: count) { index in
            let operand = operand(index)
            return operand.type == X86_OP_REG ? (operand.reg.rawValue, operand.access) : nil
        }
        if let assignment { registers[assignment.register] = assignment.value }
    }

    // MARK: - aarch64

    private mutating func visitARM64(_ instruction: UnsafeMutablePointer<cs_insn>, _ site: Site) {
        let id = instruction.pointee.id
        let count = linkcheck_arm64_operand_count(instruction)
        func operand(_ index: UInt32) -> cs_arm64_op { linkcheck_arm64_operand(instruction, index)!.pointee }
        switch id {
        case ARM64_INS_BL.rawValue where count == 1 && operand(0).type == ARM64_OP_IMM:
            returned(from: direct(UInt64(bitPattern: operand(0).imm), site, tail: false))
            return
        // `b`, and the conditional branches `b.cond`, `cbz`/`cbnz`,
        // `tbz`/`tbnz` (their target the last operand): a tail call, taken
        // on one path for the conditional ones, to a stub or another function.
        case ARM64_INS_B.rawValue, ARM64_INS_CBZ.rawValue, ARM64_INS_CBNZ.rawValue, ARM64_INS_TBZ.rawValue, ARM64_INS_TBNZ.rawValue:
            guard count >= 1, operand(UInt32(count) - 1).type == ARM64_OP_IMM else { break }
            direct(UInt64(bitPattern: operand(UInt32(count) - 1).imm), site, tail: true)
            return
        case ARM64_INS_BLR.rawValue, ARM64_INS_BR.rawValue:
            guard count == 1, operand(0).type == ARM64_OP_REG else { return }
            let callee = indirect(through: slot(in: operand(0).reg.rawValue), site, tail: id == ARM64_INS_BR.rawValue)
            if id == ARM64_INS_BLR.rawValue { returned(from: callee) }
            return
        default:
            break
        }
        var assignment: (register: UInt32, value: RegisterValue?)?
        if count >= 2, operand(0).type == ARM64_OP_REG {
            let destination = operand(0).reg.rawValue
            let wide = registers.isWide(destination)
            switch id {
            case ARM64_INS_ADRP.rawValue where operand(1).type == ARM64_OP_IMM:
                assignment = (destination, .page(UInt64(bitPattern: operand(1).imm)))
            case ARM64_INS_ADR.rawValue where operand(1).type == ARM64_OP_IMM:
                let address = UInt64(bitPattern: operand(1).imm)
                noteString(at: address, site)
                assignment = (destination, .address(address))
            case ARM64_INS_ADD.rawValue where wide && count == 3 && operand(1).type == ARM64_OP_REG && operand(2).type == ARM64_OP_IMM:
                var value: RegisterValue?
                switch registers[operand(1).reg.rawValue] {
                case .page(let base), .address(let base):
                    let address = base &+ UInt64(bitPattern: operand(2).imm)
                    noteString(at: address, site)
                    value = .address(address)
                default:
                    break
                }
                assignment = (destination, value)
            case ARM64_INS_LDR.rawValue where count == 2, ARM64_INS_LDUR.rawValue where count == 2:
                var value: RegisterValue?
                let source = operand(1)
                if wide, source.type == ARM64_OP_IMM {
                    value = .loaded(from: UInt64(bitPattern: source.imm))
                } else if wide, source.type == ARM64_OP_MEM, source.mem.index == ARM64_REG_INVALID {
                    switch registers[source.mem.base.rawValue] {
                    case .page(let base), .address(let base):
                        value = .loaded(from: base &+ UInt64(bitPattern: Int64(source.mem.disp)))
                    default:
                        break
                    }
                }
                if case .loaded(let slot) = value { noteLoad(from: slot, site) }
                assignment = (destination, value)
            case ARM64_INS_MOV.rawValue where count == 2 && operand(1).type == ARM64_OP_REG:
                assignment = (destination, wide && registers.isWide(operand(1).reg.rawValue) ? registers[operand(1).reg.rawValue] : nil)
            default:
                break
            }
        }
        forgetWritten(instruction, operands: count) { index in
            let operand = operand(index)
            if operand.type == ARM64_OP_REG { return (operand.reg.rawValue, operand.access) }
            // A pre- or post-indexed address writes its base register back.
            if operand.type == ARM64_OP_MEM, linkcheck_arm64_writeback(instruction) {
                return (operand.mem.base.rawValue, UInt8(CS_AC_WRITE.rawValue))
            }
            return nil
        }
        if let assignment { registers[assignment.register] = assignment.value }
    }

    /// Forgets every register the instruction writes: its register operands
    /// that Capstone marks written (the first one also when it gives no
    /// access at all, as for some aliases), and those it writes implicitly
    /// (`regs_write`).
    private mutating func forgetWritten(
        _ instruction: UnsafeMutablePointer<cs_insn>, operands count: UInt8, register: (UInt32) -> (UInt32, UInt8)?
    ) {
        for index in 0..<UInt32(count) {
            guard let (written, access) = register(index) else { continue }
            if access & UInt8(CS_AC_WRITE.rawValue) != 0 || index == 0 && access == 0 { registers[written] = nil }
        }
        for index in 0..<UInt32(linkcheck_registers_written_count(instruction)) {
            registers[UInt32(linkcheck_register_written(instruction, index))] = nil
        }
    }
}

/// The x86_64 conditional jumps (`jcc`: `0F 80`–`8F` rel32, `70`–`7F` rel8).
private let x86ConditionalJumps: Set<UInt32> = Set(
    [
        X86_INS_JO, X86_INS_JNO, X86_INS_JB, X86_INS_JAE, X86_INS_JE, X86_INS_JNE, X86_INS_JBE, X86_INS_JA,
        X86_INS_JS, X86_INS_JNS, X86_INS_JP, X86_INS_JNP, X86_INS_JL, X86_INS_JGE, X86_INS_JLE, X86_INS_JG,
    ].map(\.rawValue))

extension CallSite.Callee {
    /// An imported function.
    var isImported: Bool {
        if case .imported = self { true } else { false }
    }
}
