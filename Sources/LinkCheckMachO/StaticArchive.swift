import LinkCheckImage
import LinkCheckLiterals
import SystemInterface

/// A static archive (`!<arch>\n`, `ar(5)`): a thin file or a fat slice
/// whose members are `MH_OBJECT` images.
public struct StaticArchive: Sendable {
    /// One image per Mach-O member, in archive order, each with its member
    /// name (``MachOImage/archiveMember``) and `ar_date`
    /// (``MachOImage/archiveMemberDate``).
    public var members: [MachOImage]
    /// Problems with the archive's own structure (member headers, names,
    /// members that are not Mach-O), each naming the member and its file
    /// offset.
    public var warnings: [ReadWarning]

    /// `!<arch>\n`.
    static let magic: [UInt8] = Array("!<arch>\n".utf8)

    /// Whether `bytes` start with the archive magic.
    static func isArchive(_ bytes: ByteReader) -> Bool {
        guard bytes.count >= magic.count else { return false }
        return magic.indices.allSatisfy { bytes.u8(at: $0) == magic[$0] }
    }

    /// Reads the archive in `bytes`: walks the 60-byte member headers
    /// (`ar_hdr`), takes BSD long names (`#1/NN`, the name in the first NN
    /// bytes of the member) and GNU ones (`/N` into the `//` member), skips
    /// the symbol tables (`__.SYMDEF`, `__.SYMDEF SORTED`, `__.SYMDEF_64`,
    /// `/`, `/SYM64/`) and reads each Mach-O member as an image. A member
    /// header that cannot be read ends the walk with a warning.
    static func read(_ bytes: ByteReader, path: String, strings: LiteralPatterns) -> StaticArchive {
        var archive = StaticArchive(members: [], warnings: [])
        var warnings = ReadWarnings()
        var gnuNames: ByteReader? = nil
        var gnuNameCache: [Int: String] = [:]
        var instances: [String: Int] = [:]
        var offset = magic.count
        while offset < bytes.count {
            if offset % 2 == 1 && bytes.u8(at: offset) == 0x0a { offset += 1 }  // padding to an even offset
            guard offset < bytes.count else { break }
            let headerAt = bytes.fileOffset + offset
            guard let header = try? bytes.record("ar_hdr", at: offset, size: 60) else {
                warnings.add("ar_hdr", at: headerAt, "a member header runs past the end of the archive; the rest not read")
                break
            }
            guard header.u8(58) == 0x60, header.u8(59) == 0x0a else {
                warnings.add("ar_hdr", at: headerAt, "a member header without its \"`\\n\" terminator; the rest not read")
                break
            }
            let rawName = Self.unpadded(header.name(0, length: 16))
            guard let size = Self.decimal(header.name(48, length: 10).utf8), size >= 0,
                size <= bytes.count - offset - 60
            else {
                warnings.add(
                    "ar_hdr \(rawName)", at: headerAt, "its size field is not a number that fits in the archive; the rest not read")
                break
            }
            let dataStart = offset + 60
            offset = dataStart + size
            var contentStart = dataStart
            var name = rawName
            if rawName.hasPrefix("#1/") {
                guard let length = Int(rawName.dropFirst(3)), length >= 0, length <= size else {
                    warnings.add(
                        "ar_hdr \(rawName)", at: headerAt, "a BSD long name whose length is not a number within the member; member skipped")
                    continue
                }
                name = bytes.fixedString(at: dataStart, length: length) ?? ""
                contentStart = dataStart + length
            } else if rawName == "//" {
                gnuNames = bytes.window(offset: dataStart, size: size)
                gnuNameCache = [:]
                continue
            } else if rawName.hasPrefix("/"), let index = Int(rawName.dropFirst()) {
                guard let names = gnuNames, index >= 0, index < names.count else {
                    warnings.add("ar_hdr \(rawName)", at: headerAt, "a GNU long name outside the // member; member skipped")
                    continue
                }
                if let known = gnuNameCache[index] {
                    name = known
                } else {
                    // `name/\n` entries.
                    var end = index
                    while end < names.count, let byte = names.u8(at: end), byte != 0x0a, byte != 0 { end += 1 }
                    name = names.fixedString(at: index, length: end - index) ?? ""
                    if name.hasSuffix("/") { name.removeLast() }
                    gnuNameCache[index] = name
                }
            } else if rawName.hasSuffix("/") && rawName != "/" {
                name = String(rawName.dropLast())
            }
            if ["__.SYMDEF", "__.SYMDEF SORTED", "__.SYMDEF_64", "__.SYMDEF_64 SORTED", "/", "/SYM64/"].contains(name) { continue }
            guard let member = bytes.window(offset: contentStart, size: dataStart + size - contentStart) else { continue }
            // An archive may hold several members of one name (objects of
            // one file name from two folders, `ar q`): the second is
            // `util.o#2`, as `ar -N 2` counts them, so no two images share
            // an identity.
            instances[name, default: 0] += 1
            if let count = instances[name], count > 1 { name += "#\(count)" }
            do {
                if var image = try ImageReader.read(member, path: path, member: name, strings: strings) {
                    image.archiveMemberDate = Self.decimal(header.name(16, length: 12).utf8).flatMap { UInt64(exactly: $0) }
                    archive.members.append(image)
                } else {
                    warnings.add("archive member \(name)", at: member.fileOffset, "not a Mach-O object; skipped")
                }
            } catch {
                warnings.add("archive member \(name)", at: member.fileOffset, "\(error.description); skipped")
            }
        }
        archive.warnings = warnings.all
        return archive
    }
}

extension StaticArchive {
    /// Whether the file at `path`, when it is an archive, has a member whose
    /// bytes start with a Mach-O magic, found by walking its member headers
    /// with `pread(2)` as ``read(_:path:strings:)`` walks them, without
    /// reading the members: an archive of ELF objects (a Linux static
    /// library) is then known to hold no image of ours without reading it
    /// whole. `nil` when the file is not an archive or the walk cannot tell
    /// (a header the reader would warn about: the full read decides).
    static func holdsMachOMember(path: String) -> Bool? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, let size = Int(exactly: info.st_size) else { return nil }
        func bytes(at offset: Int, count: Int) -> [UInt8]? {
            var buffer = [UInt8](repeating: 0, count: count)
            let got = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, count, off_t(offset)) }
            return got == count ? buffer : nil
        }
        guard bytes(at: 0, count: magic.count) == magic else { return nil }
        var offset = magic.count
        while offset < size {
            if offset % 2 == 1 {
                guard let padding = bytes(at: offset, count: 1) else { return nil }
                if padding[0] == 0x0a { offset += 1 }
            }
            guard offset < size else { break }
            guard offset + 60 <= size, let header = bytes(at: offset, count: 60), header[58] == 0x60, header[59] == 0x0a,
                let length = decimal(header[48..<58]), length >= 0, length <= size - offset - 60
            else { return nil }
            let dataStart = offset + 60
            offset = dataStart + length
            var starts = [dataStart]
            let name = unpadded(header[0..<16])
            if name.starts(with: bsdLongNamePrefix), let nameLength = decimal(name.dropFirst(bsdLongNamePrefix.count)),
                nameLength >= 0, nameLength <= length
            {
                starts.append(dataStart + nameLength)
            }
            for start in starts where start + 4 <= offset {
                guard let first = bytes(at: start, count: 4) else { return nil }
                if MachHeader.kind(ofMagic: UInt32(first[0]) | UInt32(first[1]) << 8 | UInt32(first[2]) << 16 | UInt32(first[3]) << 24)
                    != nil
                {
                    return true
                }
            }
        }
        return false
    }
}

extension StaticArchive {
    /// `#1/`, which starts a BSD long name (`#1/NN`: the name is the first
    /// NN bytes of the member).
    static let bsdLongNamePrefix: [UInt8] = Array("#1/".utf8)

    /// The bytes of an `ar_hdr` field less the spaces (0x20) that pad it on
    /// the right. Bytes, not characters: the padding is bytes, and a
    /// field of spaces only is empty.
    static func unpadded<Field: BidirectionalCollection<UInt8>>(_ field: Field) -> Field.SubSequence {
        var end = field.endIndex
        while end > field.startIndex, field[field.index(before: end)] == 0x20 { field.formIndex(before: &end) }
        return field[..<end]
    }

    /// The text of an `ar_hdr` field (`ar_name`) less the spaces that pad
    /// it, trimmed as its bytes are.
    static func unpadded(_ field: String) -> String {
        String(decoding: unpadded(field.utf8), as: UTF8.self)
    }

    /// A decimal `ar_hdr` number (`ar_size`, the NN of a BSD `#1/NN` name)
    /// less its padding, read as `Int(_:)` reads text: an optional sign and
    /// decimal digits; `nil` for anything else (an empty field, a NUL) or a
    /// value that does not fit in an `Int`.
    static func decimal<Field: BidirectionalCollection<UInt8>>(_ field: Field) -> Int? {
        Int(String(decoding: unpadded(field), as: UTF8.self))
    }
}
