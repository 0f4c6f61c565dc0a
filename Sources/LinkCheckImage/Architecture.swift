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
    /// The machine as the format's loader tells machines apart, spelled by
    /// the reader from the format's own numbers (ELF: `e_machine 62`;
    /// Mach-O: `cputype 0x100000c cpusubtype 0`, without the capability
    /// bits): opaque here, only compared (``canLoad(_:)``).
    public var loaderMachine: String
    /// The ``loaderMachine``s of the libraries a process of this
    /// architecture loads besides those of its own, as the reader knows
    /// its loader: an `x86_64h` process takes `x86_64` libraries, and
    /// arm64's `CPU_SUBTYPE_ARM64_ALL` and `_V8` take each other's (dyld);
    /// none for ELF.
    public var alsoLoads: Set<String>

    public init(name: String, is64Bit: Bool, byteOrder: ByteOrder, loaderMachine: String, alsoLoads: Set<String> = []) {
        self.name = name
        self.is64Bit = is64Bit
        self.byteOrder = byteOrder
        self.loaderMachine = loaderMachine
        self.alsoLoads = alsoLoads
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
    /// process of this one: the same word size and byte order, and the same
    /// ``loaderMachine`` or one the process ``alsoLoads``. For ELF that is
    /// the same `e_machine`, class and data encoding (System V ABI); for
    /// Mach-O the same `cputype` and `cpusubtype` (dyld picks the slice of
    /// its own architecture), with the exceptions dyld makes.
    public func canLoad(_ library: Architecture) -> Bool {
        guard is64Bit == library.is64Bit, byteOrder == library.byteOrder else { return false }
        return loaderMachine == library.loaderMachine || alsoLoads.contains(library.loaderMachine)
    }
}

/// The byte order of an image's data structures.
public enum ByteOrder: String, Sendable, Codable {
    /// Little-endian (`ELFDATA2LSB`, `MH_MAGIC`).
    case little = "lsb"
    /// Big-endian (`ELFDATA2MSB`, `MH_CIGAM`).
    case big = "msb"
}
