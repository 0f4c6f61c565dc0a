import LinkCheckImage

/// The processor an image is built for: `e_machine` together with the class
/// and data encoding that some names depend on (`ppc64le` vs `ppc64`,
/// `mipsel` vs `mips`, `riscv64` vs `riscv32`).
public struct Machine: Sendable, Hashable, CustomStringConvertible {
    /// The raw `e_machine` value (`EM_X86_64` is 62, `EM_AARCH64` 183).
    public var code: UInt16
    /// The standard name: `x86_64`, `aarch64`, `i386`, `armv7`, `riscv64`,
    /// `ppc64le`, `s390x`, `mipsel`, …, or `unknown(N)`.
    public var name: String

    /// Maps `e_machine` to its standard name (values from the ELF spec's
    /// `EM_*` list and `<elf.h>`).
    public init(code: UInt16, elfClass: ELFClass, dataEncoding: ELFDataEncoding) {
        self.code = code
        let is64 = elfClass == .elf64
        let little = dataEncoding == .lsb
        switch code {
        case 0: name = "none"
        case 2: name = "sparc"
        case 3: name = "i386"
        case 8: name = is64 ? (little ? "mips64el" : "mips64") : (little ? "mipsel" : "mips")
        case 10: name = "mipsel"  // EM_MIPS_RS3_LE
        case 15: name = "hppa"
        case 18: name = "sparc32plus"
        case 20: name = little ? "ppcle" : "ppc"
        case 21: name = little ? "ppc64le" : "ppc64"
        case 22: name = is64 ? "s390x" : "s390"
        case 40: name = little ? "armv7" : "armv7eb"
        case 42: name = "sh"
        case 43: name = "sparcv9"
        case 50: name = "ia64"
        case 62: name = is64 ? "x86_64" : "x32"
        case 164: name = "hexagon"
        case 183: name = little ? "aarch64" : "aarch64_be"
        case 243: name = is64 ? "riscv64" : "riscv32"
        case 247: name = "bpf"
        case 258: name = is64 ? "loongarch64" : "loongarch32"
        default: name = "unknown(\(code))"
        }
    }

    public var description: String { name }

    /// Every standard name ``init(code:elfClass:dataEncoding:)`` gives, for
    /// checking a user's spelling.
    public static let standardNames: Set<String> = [
        "none", "sparc", "i386", "mips", "mipsel", "mips64", "mips64el", "hppa", "sparc32plus", "ppc", "ppcle",
        "ppc64", "ppc64le", "s390", "s390x", "armv7", "armv7eb", "sh", "sparcv9", "ia64", "x86_64", "x32",
        "hexagon", "aarch64", "aarch64_be", "riscv32", "riscv64", "bpf", "loongarch32", "loongarch64",
    ]

    /// The neutral architecture: this machine with its class and byte order.
    public func architecture(elfClass: ELFClass, dataEncoding: ELFDataEncoding) -> Architecture {
        Architecture(
            name: name, is64Bit: elfClass == .elf64, byteOrder: dataEncoding == .lsb ? .little : .big,
            loaderMachine: "e_machine \(code)")
    }
}
