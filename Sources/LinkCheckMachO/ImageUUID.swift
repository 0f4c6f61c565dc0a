import LinkCheckImage

/// `LC_UUID` (`uuid_command`, `<mach-o/loader.h>`): the 16 bytes the linker
/// writes to identify one build of one image, per architecture slice. A
/// dSYM's slice carries the same value as the slice of the image it was made
/// from (`dsymutil` copies it), which is how the two are matched.
public struct ImageUUID: Sendable, Hashable, CustomStringConvertible {
    /// The 16 bytes of `uuid`, in file order.
    public var bytes: [UInt8]

    /// Wraps 16 bytes; `nil` for any other count.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    /// Upper-case hexadecimal in the 8-4-4-4-12 groups `dwarfdump --uuid`
    /// and `llvm-dwarfdump --uuid` print (`4C4C445A-5555-3144-A182-0FEA0527ADDF`).
    public var description: String {
        let digits = bytes.map { byte in
            let text = String(byte, radix: 16, uppercase: true)
            return byte < 16 ? "0" + text : text
        }
        return [0..<4, 4..<6, 6..<8, 8..<10, 10..<16].map { digits[$0].joined() }.joined(separator: "-")
    }

    /// The `uuid_command` `command` of `image`: its 16 bytes after `cmd` and
    /// `cmdsize`; `nil` with a warning when the command is shorter than 24
    /// bytes.
    static func read(_ command: LoadCommand, in image: ByteReader, warnings: inout ReadWarnings) -> ImageUUID? {
        guard let field = command.bytes(in: image).window(offset: 8, size: 16) else {
            warnings.add("LC_UUID", at: image.fileOffset + command.offset, "shorter than uuid_command (24 bytes); skipped")
            return nil
        }
        return ImageUUID(bytes: Array(field.bytes))
    }
}
