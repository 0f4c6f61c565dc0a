/// One architecture slice of a file: the whole of a thin file, or one
/// `fat_arch` of a fat file; an image or a static archive of images.
public struct MachOSlice: Sendable {
    /// The fat header's entry for the slice; `nil` in a thin file.
    public var fatArch: FatArch?
    /// Offset of the slice from the start of the file, in bytes.
    public var fileOffset: Int
    /// The slice's size in bytes.
    public var size: Int
    /// What the slice holds.
    public var contents: Contents

    /// What a slice holds.
    public enum Contents: Sendable {
        /// A Mach-O image.
        case image(MachOImage)
        /// A static archive of `MH_OBJECT` members.
        case archive(StaticArchive)
    }

    /// The slice's architecture: from its fat header entry, else its image,
    /// else its first archive member; `nil` for an archive without Mach-O
    /// members in a thin file.
    public var cpu: CPUType? {
        if let fatArch { return fatArch.cpu }
        switch contents {
        case .image(let image): return image.cpu
        case .archive(let archive): return archive.members.first?.cpu
        }
    }

    /// The slice's images: the image, or the archive's members.
    public var images: [MachOImage] {
        switch contents {
        case .image(let image): [image]
        case .archive(let archive): archive.members
        }
    }
}
