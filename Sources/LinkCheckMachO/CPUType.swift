import LinkCheckImage

/// `cputype` and `cpusubtype` (`<mach/machine.h>`), as in a Mach header or a
/// fat header's `fat_arch`, with Apple's name for the pair.
public struct CPUType: Sendable, Hashable, CustomStringConvertible {
    /// `cputype` (`CPU_TYPE_ARM64` is `0x0100000c`).
    public var type: Int32
    /// `cpusubtype`, including the capability bits in its high byte
    /// (`CPU_SUBTYPE_MASK`, the pointer-authentication ABI on arm64e).
    public var subtype: Int32

    public init(type: Int32, subtype: Int32) {
        self.type = type
        self.subtype = subtype
    }

    static let abi64: Int32 = 0x0100_0000  // CPU_ARCH_ABI64
    static let abi64_32: Int32 = 0x0200_0000  // CPU_ARCH_ABI64_32
    static let x86: Int32 = 7  // CPU_TYPE_X86 / CPU_TYPE_I386
    static let arm: Int32 = 12  // CPU_TYPE_ARM
    static let powerPC: Int32 = 18  // CPU_TYPE_POWERPC

    /// `cpusubtype` without its capability bits (`& ~CPU_SUBTYPE_MASK`).
    public var subtypeWithoutCapabilities: Int32 { subtype & 0x00ff_ffff }

    /// `CPU_ARCH_ABI64` is set: a 64-bit architecture.
    public var is64Bit: Bool { type & Self.abi64 != 0 }

    /// Apple's name for the architecture, as `lipo`, `-arch` and
    /// `llvm-objdump --arch` spell it: `arm64`, `arm64e`, `x86_64`, `x86_64h`,
    /// `armv7`, `armv7s`, `armv7k`, `arm64_32`, `i386`, …; `cputype:N` for a
    /// type it does not know.
    public var name: String {
        let sub = subtypeWithoutCapabilities
        switch type {
        case Self.arm | Self.abi64: return sub == 2 ? "arm64e" : "arm64"
        case Self.arm | Self.abi64_32: return "arm64_32"
        case Self.x86 | Self.abi64: return sub == 8 ? "x86_64h" : "x86_64"
        case Self.x86: return "i386"
        case Self.arm:
            let names: [Int32: String] = [
                5: "armv4t", 6: "armv6", 7: "armv5", 8: "xscale", 9: "armv7", 10: "armv7f", 11: "armv7s",
                12: "armv7k", 13: "armv8", 14: "armv6m", 15: "armv7m", 16: "armv7em", 17: "armv8m",
            ]
            return names[sub] ?? "arm"
        case Self.powerPC: return "ppc"
        case Self.powerPC | Self.abi64: return "ppc64"
        default: return "cputype:\(type)"
        }
    }

    public var description: String { name }

    static let x86_64 = x86 | abi64  // CPU_TYPE_X86_64
    static let arm64 = arm | abi64  // CPU_TYPE_ARM64

    /// How dyld tells this architecture from others: `cputype` and
    /// `cpusubtype` without the capability bits (``Architecture/loaderMachine``).
    var loaderMachine: String { "cputype \(hex(type)) cpusubtype \(subtypeWithoutCapabilities)" }

    /// The architectures whose libraries a process of this one loads besides
    /// its own: `x86_64h` (`CPU_SUBTYPE_X86_64_H`, 8) loads `x86_64`
    /// (`CPU_SUBTYPE_X86_64_ALL`, 3), and arm64's `CPU_SUBTYPE_ARM64_ALL` (0)
    /// and `CPU_SUBTYPE_ARM64_V8` (1) are one.
    var alsoLoads: [CPUType] {
        switch (type, subtypeWithoutCapabilities) {
        case (Self.x86_64, 8): [CPUType(type: type, subtype: 3)]
        case (Self.arm64, 0): [CPUType(type: type, subtype: 1)]
        case (Self.arm64, 1): [CPUType(type: type, subtype: 0)]
        default: []
        }
    }

    /// The neutral architecture of an image of this CPU type, whose Mach
    /// header gives its width and byte order.
    func architecture(is64Bit: Bool, byteOrder: ByteOrder) -> Architecture {
        Architecture(
            name: name, is64Bit: is64Bit, byteOrder: byteOrder == .littleEndian ? .little : .big,
            loaderMachine: loaderMachine, alsoLoads: Set(alsoLoads.map(\.loaderMachine)))
    }
}
