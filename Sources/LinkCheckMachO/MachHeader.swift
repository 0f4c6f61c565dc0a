/// The Mach header (`mach_header` / `mach_header_64`, `<mach-o/loader.h>`)
/// of one image: what it is built for and what kind of file it is.
public struct MachHeader: Sendable, Hashable {
    /// `magic`: `MH_MAGIC`/`MH_MAGIC_64` as read in the image's own byte
    /// order (`0xfeedface`, `0xfeedfacf`).
    public var magic: UInt32
    /// `cputype` and `cpusubtype`, with Apple's architecture name.
    public var cpu: CPUType
    /// `filetype`: `MH_OBJECT`, `MH_EXECUTE`, `MH_DYLIB`, `MH_BUNDLE`, …
    public var fileType: FileType
    /// `ncmds`: the number of load commands the header declares.
    public var loadCommandCount: UInt32
    /// `sizeofcmds`: their total size in bytes.
    public var loadCommandsSize: UInt32
    /// `flags` (`MH_*` bits).
    public var flags: HeaderFlags
    /// `true` for `mach_header_64` (`MH_MAGIC_64`).
    public var is64Bit: Bool
    /// The image's byte order (`MH_CIGAM*` magic means the opposite of the
    /// reader's, which is little-endian here).
    public var byteOrder: ByteOrder

    /// The header's size in bytes: 32 for 64-bit images, 28 otherwise.
    public var size: Int { is64Bit ? 32 : 28 }

    /// Pointer size in bytes: 8 or 4.
    public var pointerSize: Int { is64Bit ? 8 : 4 }

    /// `MH_APP_EXTENSION_SAFE` (0x02000000): the linker was run with
    /// `-application_extension`.
    public var appExtensionSafe: Bool { flags.contains(.appExtensionSafe) }

    static let magic32: UInt32 = 0xfeed_face
    static let magic64: UInt32 = 0xfeed_facf

    /// The byte order and width an image starting with `magic` (read
    /// little-endian) has, or `nil` when it is not a Mach-O magic.
    static func kind(ofMagic magic: UInt32) -> (is64Bit: Bool, byteOrder: ByteOrder)? {
        switch magic {
        case magic32: (false, .littleEndian)
        case magic64: (true, .littleEndian)
        case magic32.byteSwapped: (false, .bigEndian)
        case magic64.byteSwapped: (true, .bigEndian)
        default: nil
        }
    }

    /// Reads the header at the start of `reader`.
    ///
    /// - Returns: the header and a reader of the same bytes in the image's
    ///   byte order, or `nil` when the magic is not a Mach-O one.
    /// - Throws: ``ReadFailure`` when the header does not fit.
    static func read(_ reader: ByteReader) throws(ReadFailure) -> (MachHeader, ByteReader)? {
        guard let raw = reader.withByteOrder(littleEndian: true).u32(at: 0), let kind = kind(ofMagic: raw) else { return nil }
        let ordered = reader.withByteOrder(littleEndian: kind.byteOrder == .littleEndian)
        let record = try ordered.record(kind.is64Bit ? "mach_header_64" : "mach_header", at: 0, size: kind.is64Bit ? 32 : 28)
        let header = MachHeader(
            magic: record.u32(0), cpu: CPUType(type: record.i32(4), subtype: record.i32(8)),
            fileType: FileType(rawValue: record.u32(12)), loadCommandCount: record.u32(16),
            loadCommandsSize: record.u32(20), flags: HeaderFlags(rawValue: record.u32(24)), is64Bit: kind.is64Bit,
            byteOrder: kind.byteOrder)
        return (header, ordered)
    }
}

/// The byte order of an image or of a fat header.
public enum ByteOrder: String, Sendable, Hashable {
    case littleEndian = "little-endian"
    case bigEndian = "big-endian"
}

/// `filetype` of the Mach header (`MH_OBJECT`, `MH_EXECUTE`, …).
public struct FileType: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public var rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// `MH_OBJECT`: a relocatable object file (`.o`, archive members).
    public static let object = FileType(rawValue: 1)
    /// `MH_EXECUTE`: an executable (apps, extensions).
    public static let execute = FileType(rawValue: 2)
    public static let fixedVMLibrary = FileType(rawValue: 3)
    public static let core = FileType(rawValue: 4)
    public static let preload = FileType(rawValue: 5)
    /// `MH_DYLIB`: a dynamic library (frameworks).
    public static let dylib = FileType(rawValue: 6)
    public static let dylinker = FileType(rawValue: 7)
    /// `MH_BUNDLE`: a bundle loaded with `dlopen` / `NSBundle`.
    public static let bundle = FileType(rawValue: 8)
    public static let dylibStub = FileType(rawValue: 9)
    public static let dsym = FileType(rawValue: 10)
    public static let kextBundle = FileType(rawValue: 11)
    public static let fileset = FileType(rawValue: 12)
    public static let gpuExecute = FileType(rawValue: 13)
    public static let gpuDylib = FileType(rawValue: 14)

    /// The constant's name without `MH_` (`DYLIB`, `EXECUTE`, as
    /// `llvm-objdump --private-header` prints it), or the number.
    public var description: String {
        let names = [
            "OBJECT", "EXECUTE", "FVMLIB", "CORE", "PRELOAD", "DYLIB", "DYLINKER", "BUNDLE", "DYLIB_STUB", "DSYM",
            "KEXT_BUNDLE", "FILESET", "GPU_EXECUTE", "GPU_DYLIB",
        ]
        return rawValue >= 1 && rawValue <= UInt32(names.count) ? names[Int(rawValue) - 1] : "\(rawValue)"
    }
}

/// `flags` of the Mach header (`MH_*`, `<mach-o/loader.h>`).
public struct HeaderFlags: OptionSet, Sendable, Hashable, CustomStringConvertible {
    public var rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let noUndefinedSymbols = HeaderFlags(rawValue: 0x1)  // MH_NOUNDEFS
    public static let incrementalLink = HeaderFlags(rawValue: 0x2)  // MH_INCRLINK
    public static let dyldLink = HeaderFlags(rawValue: 0x4)  // MH_DYLDLINK
    public static let bindAtLoad = HeaderFlags(rawValue: 0x8)  // MH_BINDATLOAD
    public static let prebound = HeaderFlags(rawValue: 0x10)  // MH_PREBOUND
    public static let splitSegments = HeaderFlags(rawValue: 0x20)  // MH_SPLIT_SEGS
    public static let lazyInit = HeaderFlags(rawValue: 0x40)  // MH_LAZY_INIT
    /// `MH_TWOLEVEL`: symbols are bound in the two-level namespace, so an
    /// undefined symbol's `n_desc` names its library.
    public static let twoLevel = HeaderFlags(rawValue: 0x80)
    public static let forceFlat = HeaderFlags(rawValue: 0x100)  // MH_FORCE_FLAT
    public static let noMultipleDefinitions = HeaderFlags(rawValue: 0x200)  // MH_NOMULTIDEFS
    public static let noFixPrebinding = HeaderFlags(rawValue: 0x400)  // MH_NOFIXPREBINDING
    public static let prebindable = HeaderFlags(rawValue: 0x800)  // MH_PREBINDABLE
    public static let allModulesBound = HeaderFlags(rawValue: 0x1000)  // MH_ALLMODSBOUND
    public static let subsectionsViaSymbols = HeaderFlags(rawValue: 0x2000)  // MH_SUBSECTIONS_VIA_SYMBOLS
    public static let canonical = HeaderFlags(rawValue: 0x4000)  // MH_CANONICAL
    public static let weakDefines = HeaderFlags(rawValue: 0x8000)  // MH_WEAK_DEFINES
    public static let bindsToWeak = HeaderFlags(rawValue: 0x10000)  // MH_BINDS_TO_WEAK
    public static let allowStackExecution = HeaderFlags(rawValue: 0x20000)  // MH_ALLOW_STACK_EXECUTION
    public static let rootSafe = HeaderFlags(rawValue: 0x40000)  // MH_ROOT_SAFE
    public static let setuidSafe = HeaderFlags(rawValue: 0x80000)  // MH_SETUID_SAFE
    public static let noReexportedDylibs = HeaderFlags(rawValue: 0x100000)  // MH_NO_REEXPORTED_DYLIBS
    /// `MH_PIE`: the executable is position independent.
    public static let pie = HeaderFlags(rawValue: 0x200000)
    public static let deadStrippableDylib = HeaderFlags(rawValue: 0x400000)  // MH_DEAD_STRIPPABLE_DYLIB
    public static let hasTLVDescriptors = HeaderFlags(rawValue: 0x800000)  // MH_HAS_TLV_DESCRIPTORS
    public static let noHeapExecution = HeaderFlags(rawValue: 0x1000000)  // MH_NO_HEAP_EXECUTION
    /// `MH_APP_EXTENSION_SAFE`: linked with `-application_extension`.
    public static let appExtensionSafe = HeaderFlags(rawValue: 0x0200_0000)
    /// `MH_NLIST_OUTOFSYNC_WITH_DYLDINFO`: the symbol table does not list
    /// everything the bind information binds.
    public static let nlistOutOfSyncWithDyldInfo = HeaderFlags(rawValue: 0x0400_0000)
    public static let simulatorSupport = HeaderFlags(rawValue: 0x0800_0000)  // MH_SIM_SUPPORT
    public static let implicitPageZero = HeaderFlags(rawValue: 0x1000_0000)  // MH_IMPLICIT_PAGEZERO
    public static let dylibInCache = HeaderFlags(rawValue: 0x8000_0000)  // MH_DYLIB_IN_CACHE

    /// The `MH_*` names of the bits set, lowest bit first; a bit without a
    /// name as its hexadecimal value.
    public var names: [String] {
        (0..<32).compactMap { bit -> String? in
            let mask = UInt32(1) << UInt32(bit)
            guard rawValue & mask != 0 else { return nil }
            return Self.bitNames[mask] ?? hex(mask)
        }
    }

    public var description: String { names.joined(separator: " ") }

    private static let bitNames: [UInt32: String] = [
        0x1: "MH_NOUNDEFS", 0x2: "MH_INCRLINK", 0x4: "MH_DYLDLINK", 0x8: "MH_BINDATLOAD", 0x10: "MH_PREBOUND",
        0x20: "MH_SPLIT_SEGS", 0x40: "MH_LAZY_INIT", 0x80: "MH_TWOLEVEL", 0x100: "MH_FORCE_FLAT",
        0x200: "MH_NOMULTIDEFS", 0x400: "MH_NOFIXPREBINDING", 0x800: "MH_PREBINDABLE", 0x1000: "MH_ALLMODSBOUND",
        0x2000: "MH_SUBSECTIONS_VIA_SYMBOLS", 0x4000: "MH_CANONICAL", 0x8000: "MH_WEAK_DEFINES",
        0x10000: "MH_BINDS_TO_WEAK", 0x20000: "MH_ALLOW_STACK_EXECUTION", 0x40000: "MH_ROOT_SAFE",
        0x80000: "MH_SETUID_SAFE", 0x100000: "MH_NO_REEXPORTED_DYLIBS", 0x200000: "MH_PIE",
        0x400000: "MH_DEAD_STRIPPABLE_DYLIB", 0x800000: "MH_HAS_TLV_DESCRIPTORS", 0x1000000: "MH_NO_HEAP_EXECUTION",
        0x0200_0000: "MH_APP_EXTENSION_SAFE", 0x0400_0000: "MH_NLIST_OUTOFSYNC_WITH_DYLDINFO",
        0x0800_0000: "MH_SIM_SUPPORT", 0x1000_0000: "MH_IMPLICIT_PAGEZERO", 0x8000_0000: "MH_DYLIB_IN_CACHE",
    ]
}
