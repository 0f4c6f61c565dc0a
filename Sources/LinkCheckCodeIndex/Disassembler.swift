import CCapstone
import LinkCheckImage

/// The Capstone disassembler (`cs_open`, `cs_disasm_iter`), with operand
/// details on and data skipped, for the machines linkcheck finds call sites
/// on: x86_64 and little-endian aarch64.
final class Disassembler {
    /// The instruction sets call sites are found in.
    enum InstructionSet {
        case x86_64, aarch64

        /// The instruction set of `architecture` when call sites are
        /// analysed for it (64-bit, little-endian x86_64 or arm64/aarch64),
        /// else `nil`, by the architecture's name: ELF's `x86_64` and
        /// `aarch64`; Apple's `x86_64` and `x86_64h` (`CPU_TYPE_X86_64`),
        /// `arm64` and `arm64e` (`CPU_TYPE_ARM64`; not the 32-bit
        /// `arm64_32`).
        init?(_ architecture: LinkCheckImage.Architecture) {
            guard architecture.is64Bit, architecture.byteOrder == .little else { return nil }
            switch architecture.name {
            case "x86_64", "x86_64h": self = .x86_64
            case "aarch64", "arm64", "arm64e": self = .aarch64
            default: return nil
            }
        }
    }

    private var handle: csh = 0
    private let instruction: UnsafeMutablePointer<cs_insn>

    /// `nil` when Capstone cannot open the architecture (`cs_open` fails).
    init?(_ architecture: InstructionSet) {
        let status =
            switch architecture {
            case .x86_64: cs_open(CS_ARCH_X86, CS_MODE_64, &handle)
            case .aarch64: cs_open(CS_ARCH_ARM64, CS_MODE_ARM, &handle)
            }
        guard status == CS_ERR_OK else { return nil }
        cs_option(handle, CS_OPT_DETAIL, Int(CS_OPT_ON.rawValue))
        cs_option(handle, CS_OPT_SKIPDATA, Int(CS_OPT_ON.rawValue))
        guard let buffer = cs_malloc(handle) else {
            cs_close(&handle)
            return nil
        }
        instruction = buffer
    }

    deinit {
        cs_free(instruction, 1)
        cs_close(&handle)
    }

    /// Decodes `bytes`, whose first byte is at virtual address `address`,
    /// calling `visit` for each instruction in order (`cs_disasm_iter`).
    /// Bytes that are not an instruction are skipped (Capstone's skipdata
    /// mode reports them with id 0).
    func decode(_ bytes: UnsafeRawBufferPointer, at address: UInt64, visit: (UnsafeMutablePointer<cs_insn>) -> Void) {
        decode(bytes, at: address, until: .max, visit: visit)
    }

    /// Decodes the instructions of `region`, a region of `section`: from
    /// its start until the first instruction at or after its end (the last
    /// one may run past it, up to the end of the section).
    func decode(_ region: CodeRegion, of section: CodeBytes, visit: (UnsafeMutablePointer<cs_insn>) -> Void) {
        guard region.start >= section.address, region.start < section.end else { return }
        let skipped = Int(region.start - section.address)
        decode(UnsafeRawBufferPointer(rebasing: section.bytes[skipped...]), at: region.start, until: region.end, visit: visit)
    }

    private func decode(
        _ bytes: UnsafeRawBufferPointer, at address: UInt64, until end: UInt64, visit: (UnsafeMutablePointer<cs_insn>) -> Void
    ) {
        guard let base = bytes.baseAddress else { return }
        var cursor: UnsafePointer<UInt8>? = UnsafePointer(base.assumingMemoryBound(to: UInt8.self))
        var remaining = bytes.count
        var current = address
        while remaining > 0, current < end, cs_disasm_iter(handle, &cursor, &remaining, &current, instruction) {
            visit(instruction)
        }
    }
}
