/// The machine an image is built for, with its word size and byte order.
public struct Architecture: Sendable, Hashable, CustomStringConvertible {
    /// The standard name: ELF's (`x86_64`, `aarch64`, `armv7`, `riscv64`, …,
    /// from `e_machine`) or Apple's (`arm64`, `arm64e`, `x86_64`, `x86_64h`,
    /// `armv7`, `armv7s`, `armv7k`, `arm64_32`, `i386`, from `cputype` and
    /// `cpusubtype`).
    public var name: String
    /// 64-bit (`ELFCLASS64`, `MH_MAGIC_64`) or 32-bit.
    public var is64Bit: Bool
    public var byteOrder: ByteOrder
    /// The format's own code, which decides what the loader accepts.
    public var code: Code

    /// An architecture's number in its format.
    public enum Code: Sendable, Hashable {
        /// `e_machine` (`EM_X86_64` is 62, `EM_AARCH64` 183).
        case elf(machine: UInt16)
        /// `cputype` and `cpusubtype` without the capability bits (the high
        /// byte, `CPU_SUBTYPE_MASK`).
        case macho(cpuType: Int32, cpuSubtype: Int32)
    }

    public init(name: String, is64Bit: Bool, byteOrder: ByteOrder, code: Code) {
        self.name = name
        self.is64Bit = is64Bit
        self.byteOrder = byteOrder
        self.code = code
    }

    public var description: String { name }

    /// The name `--require-arch` compares: `arm64` is `aarch64` (ELF's name
    /// for it), `x86_64h` is `x86_64`; the others are their own.
    public var family: String { Self.family(of: name) }

    /// The family of an architecture name as a user or a format spells it
    /// (``family``): `arm64` → `aarch64`, `amd64`/`x86-64`/`x86_64h` →
    /// `x86_64`, `i686` → `i386`, `arm`/`armhf` → `armv7`; anything else
    /// lowercased.
    public static func family(of spelling: String) -> String {
        switch spelling.lowercased() {
        case "arm64": "aarch64"
        case "amd64", "x86-64", "x86_64h": "x86_64"
        case "i486", "i586", "i686", "x86": "i386"
        case "arm", "armhf", "armv7l": "armv7"
        default: spelling.lowercased()
        }
    }

    /// Whether the loader can load an image of architecture `library` into a
    /// process of this one: for ELF the same `e_machine`, class and data
    /// encoding (System V ABI); for Mach-O the same `cputype` and
    /// `cpusubtype` (dyld picks the slice of its own architecture), where an
    /// `x86_64h` process also takes `x86_64` and the arm64 subtypes `ALL`
    /// and `V8` are one.
    public func canLoad(_ library: Architecture) -> Bool {
        guard is64Bit == library.is64Bit, byteOrder == library.byteOrder else { return false }
        switch (code, library.code) {
        case (.elf(let own), .elf(let other)):
            return own == other
        case (.macho(let ownType, let ownSubtype), .macho(let otherType, let otherSubtype)):
            guard ownType == otherType else { return false }
            if ownSubtype == otherSubtype { return true }
            // CPU_TYPE_X86_64: x86_64h (8) loads x86_64 (3).
            if ownType == 0x0100_0007 { return ownSubtype == 8 && otherSubtype == 3 }
            // CPU_TYPE_ARM64: CPU_SUBTYPE_ARM64_ALL (0) and _V8 (1).
            if ownType == 0x0100_000C { return Set([ownSubtype, otherSubtype]).isSubset(of: [0, 1]) }
            return false
        default:
            return false
        }
    }
}

/// The byte order of an image's data structures.
public enum ByteOrder: String, Sendable, Codable {
    /// Little-endian (`ELFDATA2LSB`, `MH_MAGIC`).
    case little = "lsb"
    /// Big-endian (`ELFDATA2MSB`, `MH_CIGAM`).
    case big = "msb"
}
