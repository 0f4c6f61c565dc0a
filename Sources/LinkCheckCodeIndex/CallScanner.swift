import CCapstone
import LinkCheckELF
import LinkCheckImage

/// Walks decoded instructions in address order and records call sites,
/// tracking just enough register state for PLT/GOT targets and for the
/// string literal in the first argument register.
struct CallScanner {
    let image: ImageLayout
    let architecture: Disassembler.InstructionSet
    /// Receives each call site, in address order.
    let record: (CallSite) -> Void

    /// The function the current instruction is in.
    private var function: Int?
    /// First function that starts after the current instruction.
    private var cursor = 0
    private var lastAddress: UInt64 = 0
    /// The string whose address is in `rdi`/`x0`.
    private var firstArgument: String?
    /// The last string the current function referenced.
    private var recentString: String?
    /// aarch64: register → address it holds (`adrp`, `add`, `adr`).
    private var addresses: [UInt32: UInt64] = [:]
    /// aarch64: register → GOT slot it was loaded from (`ldr`).
    private var loadedSlots: [UInt32: UInt64] = [:]

    init(image: ImageLayout, architecture: Disassembler.InstructionSet, record: @escaping (CallSite) -> Void) {
        self.image = image
        self.architecture = architecture
        self.record = record
    }

    mutating func visit(_ instruction: UnsafeMutablePointer<cs_insn>, sectionOffset: UInt64, sectionAddress: UInt64) {
        let address = instruction.pointee.address
        enterFunction(at: address)
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

    /// Updates ``function`` for `address`; a new function starts with no
    /// register knowledge.
    private mutating func enterFunction(at address: UInt64) {
        let functions = image.functions
        if address < lastAddress { cursor = 0 }
        lastAddress = address
        while cursor < functions.count && functions[cursor].address <= address { cursor += 1 }
        let candidate = cursor - 1
        let current: Int? = candidate >= 0 && address - functions[candidate].address < max(functions[candidate].size, 1)
            ? candidate : nil
        if current != function {
            function = current
            firstArgument = nil
            recentString = nil
            addresses = [:]
            loadedSlots = [:]
        }
    }

    /// Whether `target` lies inside the current function (a loop, not a
    /// tail call).
    private func isInsideCurrentFunction(_ target: UInt64) -> Bool {
        guard let function else { return false }
        let symbol = image.functions[function]
        return target > symbol.address && target - symbol.address < max(symbol.size, 1)
    }

    /// Records a call; the strings only for calls to imports (what a loader
    /// loads), which keeps the many internal calls of a large image small.
    private mutating func recordCall(_ callee: CallSite.Callee, _ site: Site, tail: Bool, throughGOT: Bool) {
        let isImport = if case .imported = callee { true } else { false }
        record(CallSite(
            address: site.address, fileOffset: site.fileOffset, caller: function, callee: callee,
            isTailCall: tail, throughGOT: throughGOT, firstArgument: isImport ? firstArgument : nil,
            recentString: isImport ? recentString : nil))
    }

    /// A direct transfer to `target`: a PLT entry or a function start.
    private mutating func direct(_ target: UInt64, _ site: Site, tail: Bool) {
        if let callee = image.pltEntries[target] {
            recordCall(callee, site, tail: tail, throughGOT: false)
        } else if let callee = image.functionStarts[target], !(tail && isInsideCurrentFunction(target)), !(tail && callee == function) {
            recordCall(.function(callee), site, tail: tail, throughGOT: false)
        }
    }

    // MARK: - x86_64

    private mutating func visitX86(_ instruction: UnsafeMutablePointer<cs_insn>, _ site: Site) {
        let id = instruction.pointee.id
        let count = linkcheck_x86_operand_count(instruction)
        if id == X86_INS_CALL.rawValue || id == X86_INS_JMP.rawValue, count == 1 {
            let operand = linkcheck_x86_operand(instruction, 0)!.pointee
            let tail = id == X86_INS_JMP.rawValue
            if operand.type == X86_OP_IMM {
                direct(UInt64(bitPattern: operand.imm), site, tail: tail)
            } else if operand.type == X86_OP_MEM, operand.mem.base == X86_REG_RIP {
                let slot = UInt64(bitPattern: Int64(bitPattern: site.next) &+ operand.mem.disp)
                if let callee = image.gotSlots[slot] { recordCall(callee, site, tail: tail, throughGOT: true) }
            }
            if !tail { firstArgument = nil }
            return
        }
        guard count == 2 else { return }
        let destination = linkcheck_x86_operand(instruction, 0)!.pointee
        guard destination.type == X86_OP_REG else { return }
        let writesFirstArgument = destination.reg == X86_REG_RDI || destination.reg == X86_REG_EDI
        let source = linkcheck_x86_operand(instruction, 1)!.pointee
        if id == X86_INS_LEA.rawValue, source.type == X86_OP_MEM, source.mem.base == X86_REG_RIP {
            let text = image.string(at: UInt64(bitPattern: Int64(bitPattern: site.next) &+ source.mem.disp))
            if let text { recentString = text }
            if writesFirstArgument { firstArgument = text }
        } else if writesFirstArgument {
            firstArgument = id == X86_INS_MOV.rawValue && source.type == X86_OP_IMM
                ? image.string(at: UInt64(bitPattern: source.imm)) : nil
        }
    }

    // MARK: - aarch64

    private mutating func visitARM64(_ instruction: UnsafeMutablePointer<cs_insn>, _ site: Site) {
        let id = instruction.pointee.id
        let count = linkcheck_arm64_operand_count(instruction)
        func operand(_ index: UInt32) -> cs_arm64_op { linkcheck_arm64_operand(instruction, index)!.pointee }
        let x0 = ARM64_REG_X0.rawValue
        switch id {
        case ARM64_INS_BL.rawValue where count == 1 && operand(0).type == ARM64_OP_IMM:
            direct(UInt64(bitPattern: operand(0).imm), site, tail: false)
            forgetCallerSavedRegisters()
        case ARM64_INS_B.rawValue where count == 1 && operand(0).type == ARM64_OP_IMM
            && linkcheck_arm64_condition(instruction) == ARM64_CC_INVALID:
            direct(UInt64(bitPattern: operand(0).imm), site, tail: true)
        case ARM64_INS_BLR.rawValue, ARM64_INS_BR.rawValue:
            guard count == 1, operand(0).type == ARM64_OP_REG else { return }
            if let slot = loadedSlots[operand(0).reg.rawValue], let callee = image.gotSlots[slot] {
                recordCall(callee, site, tail: id == ARM64_INS_BR.rawValue, throughGOT: true)
            }
            if id == ARM64_INS_BLR.rawValue { forgetCallerSavedRegisters() }
        case ARM64_INS_ADRP.rawValue, ARM64_INS_ADR.rawValue:
            guard count == 2, operand(0).type == ARM64_OP_REG, operand(1).type == ARM64_OP_IMM else { return }
            let register = operand(0).reg.rawValue
            let value = UInt64(bitPattern: operand(1).imm)
            addresses[register] = value
            loadedSlots[register] = nil
            if id == ARM64_INS_ADR.rawValue { noteString(at: value, in: register, x0: x0) }
        case ARM64_INS_ADD.rawValue:
            guard count == 3, operand(0).type == ARM64_OP_REG, operand(1).type == ARM64_OP_REG, operand(2).type == ARM64_OP_IMM,
                  let base = addresses[operand(1).reg.rawValue]
            else {
                if count >= 1, operand(0).type == ARM64_OP_REG { clear(operand(0).reg.rawValue, x0: x0) }
                return
            }
            let value = base &+ UInt64(bitPattern: operand(2).imm)
            addresses[operand(0).reg.rawValue] = value
            noteString(at: value, in: operand(0).reg.rawValue, x0: x0)
        case ARM64_INS_LDR.rawValue:
            guard count == 2, operand(0).type == ARM64_OP_REG else { return }
            let register = operand(0).reg.rawValue
            if operand(1).type == ARM64_OP_MEM, let base = addresses[operand(1).mem.base.rawValue] {
                loadedSlots[register] = base &+ UInt64(bitPattern: Int64(operand(1).mem.disp))
            } else {
                loadedSlots[register] = nil
            }
            addresses[register] = nil
            if register == x0 { firstArgument = nil }
        default:
            if count >= 1, operand(0).type == ARM64_OP_REG, operand(0).reg.rawValue == x0 { firstArgument = nil }
        }
    }

    private mutating func noteString(at address: UInt64, in register: UInt32, x0: UInt32) {
        let text = image.string(at: address)
        if let text { recentString = text }
        if register == x0 { firstArgument = text }
    }

    private mutating func clear(_ register: UInt32, x0: UInt32) {
        addresses[register] = nil
        loadedSlots[register] = nil
        if register == x0 { firstArgument = nil }
    }

    /// After a call, only the callee-saved registers keep their values; the
    /// scanner keeps none.
    private mutating func forgetCallerSavedRegisters() {
        addresses = [:]
        loadedSlots = [:]
        firstArgument = nil
    }
}
