import CZydis

/// The x86-64 direct branches of a region, found from instruction lengths
/// alone: Zydis's decoder in its minimal mode, which formats no text
/// (Capstone 4 prints every instruction it decodes, several times the
/// cost), walking the region as ``Disassembler/decode(_:of:visit:)`` does:
/// from its start until the first instruction at or after its end. A branch is taken in its plain encodings only: `E8`/`E9`
/// rel32 (call, jmp), `EB` and `70`–`7F` rel8 (jmp, jcc), `0F 80`–`8F`
/// rel32 (jcc), with no prefix: what Capstone decodes as `call`, `jmp` or
/// a conditional jump with an immediate target.
///
/// The lengths are Capstone's only where Capstone 4 knows the instructions:
/// it skips the bytes of AVX-512's (EVEX, and the VEX-encoded mask
/// instructions) and of the newer system instructions of the `0F 01` group
/// (`rdpkru`, `wrpkru`), which Zydis decodes, and the two walks part there.
/// A region with an instruction in an encoding other than the legacy one,
/// one of the `0F 01` group, or a byte Zydis cannot decode, is not walked:
/// its branches are for Capstone to find.
struct X86DirectBranches {
    /// What a branch does: a call, or a jump (a tail call when it leaves
    /// the function).
    enum Kind { case call, jump }

    private var decoder = ZydisDecoder()

    init() {
        ZydisDecoderInit(&decoder, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64)
        ZydisDecoderEnableMode(&decoder, ZYDIS_DECODER_MODE_MINIMAL, ZyanBool(ZYAN_TRUE))
    }

    /// The kinds of the branches in `region` (of `section`) whose target is
    /// `target`; `nil` when the region holds an instruction Capstone may
    /// walk differently (``forEachInstruction(in:of:_:)``).
    func kinds(in region: CodeRegion, of section: CodeBytes, to target: UInt64) -> Set<Kind>? {
        var found = Set<Kind>()
        let walked = forEachInstruction(in: region, of: section) { address, bytes in
            if let (kind, to) = Self.branch(bytes, at: address), to == target { found.insert(kind) }
        }
        return walked ? found : nil
    }

    /// Calls `body` with the address and bytes of each instruction of
    /// `region` while they are legacy-encoded instructions Zydis decodes;
    /// `false` when one is not (the walk stops there).
    @discardableResult
    func forEachInstruction(in region: CodeRegion, of section: CodeBytes, _ body: (UInt64, UnsafeRawBufferPointer) -> Void) -> Bool {
        guard region.start >= section.address, region.start < section.end, let base = section.bytes.baseAddress else { return true }
        var offset = Int(region.start - section.address)
        var instruction = ZydisDecodedInstruction()
        return withUnsafePointer(to: decoder) { decoder in
            while offset < section.bytes.count, section.address + UInt64(offset) < region.end {
                let remaining = section.bytes.count - offset
                // ZYAN_SUCCESS: the status's error bit is clear.
                guard ZydisDecoderDecodeInstruction(decoder, nil, base + offset, remaining, &instruction) & 0x8000_0000 == 0,
                    instruction.encoding == ZYDIS_INSTRUCTION_ENCODING_LEGACY,
                    instruction.opcode_map != ZYDIS_OPCODE_MAP_0F || instruction.opcode != 0x01
                else { return false }
                let length = Int(instruction.length)
                body(section.address + UInt64(offset), UnsafeRawBufferPointer(start: base + offset, count: length))
                offset += length
            }
            return true
        }
    }

    /// The kind and target of the instruction `bytes` at `address` when it
    /// is a direct branch in a plain encoding.
    static func branch(_ bytes: UnsafeRawBufferPointer, at address: UInt64) -> (Kind, UInt64)? {
        func relative(_ from: Int, _ count: Int) -> Int64 {
            count == 1
                ? Int64(Int8(bitPattern: bytes[from]))
                : Int64(Int32(littleEndian: bytes.loadUnaligned(fromByteOffset: from, as: Int32.self)))
        }
        let next = address &+ UInt64(bytes.count)
        switch (bytes.count, bytes.first ?? 0) {
        case (5, 0xe8): return (.call, next &+ UInt64(bitPattern: relative(1, 4)))
        case (5, 0xe9): return (.jump, next &+ UInt64(bitPattern: relative(1, 4)))
        case (2, 0xeb), (2, 0x70...0x7f): return (.jump, next &+ UInt64(bitPattern: relative(1, 1)))
        case (6, 0x0f) where (0x80...0x8f).contains(bytes[1]): return (.jump, next &+ UInt64(bitPattern: relative(2, 4)))
        default: return nil
        }
    }
}
