import LinkCheckImage

/// `EI_CLASS` (ELF spec, "ELF Identification").
public enum ELFClass: Int, Sendable, Codable {
    /// `ELFCLASS32`.
    case elf32 = 32
    /// `ELFCLASS64`.
    case elf64 = 64
}

/// `EI_DATA`: the byte order of the file's data structures.
public enum ELFDataEncoding: String, Sendable, Codable {
    /// `ELFDATA2LSB`, little-endian.
    case lsb
    /// `ELFDATA2MSB`, big-endian.
    case msb
}

/// `e_type` (ELF spec, "ELF Header").
public enum ELFFileType: Sendable, Equatable, CustomStringConvertible {
    /// `ET_REL`: a relocatable object (`.o`).
    case relocatable
    /// `ET_EXEC`: a position-dependent executable.
    case executable
    /// `ET_DYN`: a shared object, or a position-independent executable.
    case sharedObject
    /// `ET_CORE`: a core dump.
    case core
    /// Any other value (`ET_NONE`, OS- or processor-specific).
    case other(UInt16)

    init(_ raw: UInt16) {
        switch raw {
        case 1: self = .relocatable
        case 2: self = .executable
        case 3: self = .sharedObject
        case 4: self = .core
        default: self = .other(raw)
        }
    }

    /// The spec's name: `ET_REL`, `ET_EXEC`, `ET_DYN`, `ET_CORE`, or `ET_<n>`.
    public var description: String {
        switch self {
        case .relocatable: "ET_REL"
        case .executable: "ET_EXEC"
        case .sharedObject: "ET_DYN"
        case .core: "ET_CORE"
        case .other(let raw): "ET_\(raw)"
        }
    }
}

extension ELFFileType {
    /// The neutral file type: `ET_DYN` is a shared library unless DT_FLAGS_1
    /// has `DF_1_PIE` (a position-independent executable).
    func neutral(positionIndependentExecutable: Bool) -> ImageFileType {
        switch self {
        case .relocatable: .relocatableObject
        case .executable: .executable
        case .sharedObject: positionIndependentExecutable ? .executable : .sharedLibrary
        case .core: .core
        case .other: .other
        }
    }
}

/// `EI_OSABI` as a short name (`SYSV`, `GNU`, `FreeBSD`, …; `OSABI(n)` for
/// values without one).
func osABIName(_ raw: UInt8) -> String {
    switch raw {
    case 0: "SYSV"
    case 1: "HPUX"
    case 2: "NetBSD"
    case 3: "GNU"
    case 6: "Solaris"
    case 7: "AIX"
    case 8: "IRIX"
    case 9: "FreeBSD"
    case 10: "Tru64"
    case 11: "Modesto"
    case 12: "OpenBSD"
    case 64: "ARM-AEABI"
    case 97: "ARM"
    case 255: "Standalone"
    default: "OSABI(\(raw))"
    }
}
