import LinkCheckImage

/// One load command (`load_command`: `cmd`, `cmdsize`) as found after the
/// Mach header. Commands the reader does not use are listed too, so their
/// number and kinds can be reported.
public struct LoadCommand: Sendable, Hashable {
    /// `cmd` (`LC_SEGMENT_64` is `0x19`, `LC_LOAD_WEAK_DYLIB` `0x80000018`).
    public var command: UInt32
    /// Offset of the command from the start of the image's Mach header, in
    /// bytes.
    public var offset: Int
    /// `cmdsize`, in bytes.
    public var size: Int

    /// The command's `LC_*` name, or its hexadecimal value when unknown.
    public var name: String { LoadCommandType.names[command] ?? hex(command) }
}

/// `LC_*` values (`<mach-o/loader.h>`).
enum LoadCommandType {
    static let requiredByDyld: UInt32 = 0x8000_0000  // LC_REQ_DYLD
    static let segment: UInt32 = 0x1
    static let symtab: UInt32 = 0x2
    static let dysymtab: UInt32 = 0xb
    static let loadDylib: UInt32 = 0xc
    static let idDylib: UInt32 = 0xd
    static let loadWeakDylib: UInt32 = 0x18 | requiredByDyld
    static let segment64: UInt32 = 0x19
    static let uuid: UInt32 = 0x1b
    static let rpath: UInt32 = 0x1c | requiredByDyld
    static let codeSignature: UInt32 = 0x1d
    static let reexportDylib: UInt32 = 0x1f | requiredByDyld
    static let lazyLoadDylib: UInt32 = 0x20
    static let encryptionInfo: UInt32 = 0x21
    static let dyldInfo: UInt32 = 0x22
    static let dyldInfoOnly: UInt32 = 0x22 | requiredByDyld
    static let loadUpwardDylib: UInt32 = 0x23 | requiredByDyld
    static let versionMinMacOSX: UInt32 = 0x24
    static let versionMinIPhoneOS: UInt32 = 0x25
    static let functionStarts: UInt32 = 0x26
    static let main: UInt32 = 0x28 | requiredByDyld
    static let encryptionInfo64: UInt32 = 0x2c
    static let versionMinTVOS: UInt32 = 0x2f
    static let versionMinWatchOS: UInt32 = 0x30
    static let buildVersion: UInt32 = 0x32
    static let dyldExportsTrie: UInt32 = 0x33 | requiredByDyld
    static let dyldChainedFixups: UInt32 = 0x34 | requiredByDyld

    static let names: [UInt32: String] = [
        0x1: "LC_SEGMENT", 0x2: "LC_SYMTAB", 0x3: "LC_SYMSEG", 0x4: "LC_THREAD", 0x5: "LC_UNIXTHREAD",
        0x6: "LC_LOADFVMLIB", 0x7: "LC_IDFVMLIB", 0x8: "LC_IDENT", 0x9: "LC_FVMFILE", 0xa: "LC_PREPAGE",
        0xb: "LC_DYSYMTAB", 0xc: "LC_LOAD_DYLIB", 0xd: "LC_ID_DYLIB", 0xe: "LC_LOAD_DYLINKER",
        0xf: "LC_ID_DYLINKER", 0x10: "LC_PREBOUND_DYLIB", 0x11: "LC_ROUTINES", 0x12: "LC_SUB_FRAMEWORK",
        0x13: "LC_SUB_UMBRELLA", 0x14: "LC_SUB_CLIENT", 0x15: "LC_SUB_LIBRARY", 0x16: "LC_TWOLEVEL_HINTS",
        0x17: "LC_PREBIND_CKSUM", 0x8000_0018: "LC_LOAD_WEAK_DYLIB", 0x19: "LC_SEGMENT_64", 0x1a: "LC_ROUTINES_64",
        0x1b: "LC_UUID", 0x8000_001c: "LC_RPATH", 0x1d: "LC_CODE_SIGNATURE", 0x1e: "LC_SEGMENT_SPLIT_INFO",
        0x8000_001f: "LC_REEXPORT_DYLIB", 0x20: "LC_LAZY_LOAD_DYLIB", 0x21: "LC_ENCRYPTION_INFO",
        0x22: "LC_DYLD_INFO", 0x8000_0022: "LC_DYLD_INFO_ONLY", 0x8000_0023: "LC_LOAD_UPWARD_DYLIB",
        0x24: "LC_VERSION_MIN_MACOSX", 0x25: "LC_VERSION_MIN_IPHONEOS", 0x26: "LC_FUNCTION_STARTS",
        0x27: "LC_DYLD_ENVIRONMENT", 0x8000_0028: "LC_MAIN", 0x29: "LC_DATA_IN_CODE", 0x2a: "LC_SOURCE_VERSION",
        0x2b: "LC_DYLIB_CODE_SIGN_DRS", 0x2c: "LC_ENCRYPTION_INFO_64", 0x2d: "LC_LINKER_OPTION",
        0x2e: "LC_LINKER_OPTIMIZATION_HINT", 0x2f: "LC_VERSION_MIN_TVOS", 0x30: "LC_VERSION_MIN_WATCHOS",
        0x31: "LC_NOTE", 0x32: "LC_BUILD_VERSION", 0x8000_0033: "LC_DYLD_EXPORTS_TRIE",
        0x8000_0034: "LC_DYLD_CHAINED_FIXUPS", 0x8000_0035: "LC_FILESET_ENTRY", 0x36: "LC_ATOM_INFO",
    ]
}

extension LoadCommand {
    /// The load commands after the header in `image` (`ncmds` of them in
    /// `sizeofcmds` bytes), up to the first that cannot be read: one that
    /// runs past `sizeofcmds` or the image, or whose `cmdsize` is smaller
    /// than 8 (which would never advance).
    static func readAll(_ image: ByteReader, header: MachHeader, warnings: inout ReadWarnings) -> [LoadCommand] {
        let start = header.size
        var end = start + Int(header.loadCommandsSize)
        if end > image.count {
            warnings.add(
                "load commands", at: image.fileOffset + start,
                "sizeofcmds (\(header.loadCommandsSize)) runs past the end of the image (\(image.count) bytes); reading what is there")
            end = image.count
        }
        var commands: [LoadCommand] = []
        var offset = start
        var index: UInt32 = 0
        while index < header.loadCommandCount {
            guard offset <= end - 8, let command = image.u32(at: offset), let size = image.u32(at: offset + 4) else {
                warnings.add(
                    "load command \(index)", at: image.fileOffset + offset,
                    "runs past the end of the load commands; \(header.loadCommandCount - index) of ncmds \(header.loadCommandCount) not read"
                )
                break
            }
            guard size >= 8 else {
                warnings.add(
                    "load command \(index) (\(LoadCommand(command: command, offset: offset, size: 0).name))",
                    at: image.fileOffset + offset, "cmdsize \(size) is smaller than 8; the rest of the load commands not read")
                break
            }
            guard Int(size) <= end - offset else {
                warnings.add(
                    "load command \(index) (\(LoadCommand(command: command, offset: offset, size: 0).name))",
                    at: image.fileOffset + offset,
                    "cmdsize \(size) runs past the end of the load commands; the rest of the load commands not read")
                break
            }
            commands.append(LoadCommand(command: command, offset: offset, size: Int(size)))
            offset += Int(size)
            index += 1
        }
        return commands
    }

    /// The command's bytes (`cmdsize` of them from its start).
    func bytes(in image: ByteReader) -> ByteReader {
        image.window(offset: offset, size: size) ?? .empty
    }

    /// The `lc_str` at `fieldOffset` in the command: an offset from the
    /// command's start to a NUL-terminated string inside the command.
    /// `nil` when the offset or the string runs past the command.
    func string(atField fieldOffset: Int, in image: ByteReader) -> String? {
        let command = bytes(in: image)
        guard let offset = command.u32(at: fieldOffset), offset >= UInt32(fieldOffset + 4), offset < UInt32(size) else { return nil }
        return command.cString(at: Int(offset))
    }
}
