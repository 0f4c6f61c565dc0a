/// LLVM's disassembly of an ELF file, the oracle for call sites: the
/// toolchain's `llvm-objdump -d --no-show-raw-insn` (it reads every
/// target), one `ADDRESS <function>:` header per function and one line per
/// instruction.
public enum ELFDisassembly {
    static let objdump = "/opt/swift/usr/bin/llvm-objdump"

    /// What `llvm-objdump -d --no-show-raw-insn PATH` prints.
    ///
    /// - Throws: ``CommandFailure`` when llvm-objdump exits non-zero.
    public static func of(_ path: String) throws -> String {
        try Command.run(objdump, ["-d", "--no-show-raw-insn", path]).standardOutput
    }
}
