import LinkCheckImage
import LinkCheckLiterals

/// # LinkCheckMachO
///
/// A Mach-O reader in pure Swift, for the facts linkcheck needs from Apple
/// platform binaries: what an image is built for, what it links, what it
/// imports and exports, which Objective-C classes and selectors it refers
/// to, and which string literals it holds.
///
/// ``MachOFile`` reads a file (thin image, fat file, or static archive) into
/// memory with `pread(2)` and returns its ``MachOSlice``s; each slice holds a
/// ``MachOImage`` or a ``StaticArchive`` of member images. An image carries
/// the Mach header, load commands, segments and sections, the dependencies
/// (`LC_LOAD_DYLIB` and relatives) with their library ordinals, rpaths,
/// platform versions, imports with their libraries (chained fixups, else bind
/// opcodes, else the symbol table), bindings and rebases by slot address,
/// exports (exports trie, else the symbol table), the symbol table, function
/// starts, stubs and symbol pointers named through the indirect symbol table,
/// Objective-C class and selector references and `objc_msgSend$` stubs, and
/// string-literal ranges.
///
/// Every read goes through one bounds-checked ``ByteReader``; counts and
/// offsets from the file are checked against the bytes there are before
/// use, arithmetic on them is checked or wrapping, and no allocation is
/// sized by an unchecked count. Only a file that cannot be read at all
/// throws (``MachOError``); a malformed part becomes a warning on its slice,
/// archive or image (naming the structure and its file offset) and the rest
/// is read (a ``ReadWarning``, the image model's). One file per Mach-O
/// concept: `FatHeader`, `MachHeader`, `CPUType`, `LoadCommand`,
/// `LoadCommandIndex`, `Segment`, `DylibCommand`, `BuildVersion`,
/// `SymbolTable`, `BindOpcodes`, `ChainedFixups`, `ExportsTrie`,
/// `FunctionStarts`, `SymbolStubs`, `ObjCReferences`, `StringLiterals`,
/// `Relocations`, `StaticArchive`; for debug information, `ImageUUID`
/// (`LC_UUID`), `DWARFSegment` (a dSYM's `__DWARF` sections, read with
/// `FileRanges` without reading the whole file), `DebugMap` (the stabs
/// naming the object files) and `ObjectDWARF` (an object's DWARF with its
/// relocations applied).
///
/// The module knows nothing about rules. Its own types (``MachOFile``,
/// ``MachOImage``) keep every fact it reads, and only ``MachOReader`` (with
/// ``CPUType``, which names the architecture) turns them into linkcheck's
/// format-neutral image model (``BinaryImage``).

/// A Mach-O file as read: its slices, each an image or a static archive.
public struct MachOFile: Sendable {
    /// The path the file was read from.
    public var path: String
    /// The file's size in bytes.
    public var size: Int
    /// What the file starts with.
    public var container: Container
    /// The slices that could be read, in fat-header order (one for a thin
    /// file or archive).
    public var slices: [MachOSlice]
    /// Problems with the file's own structure: fat-header entries skipped
    /// (a slice past the end of the file or overlapping another), slices
    /// that are neither an image nor an archive.
    public var warnings: [ReadWarning]

    /// What a file starts with.
    public enum Container: String, Sendable, Hashable {
        /// A thin image (`MH_MAGIC`, `MH_MAGIC_64`, `MH_CIGAM`, `MH_CIGAM_64`).
        case thin
        /// A fat file (`FAT_MAGIC`).
        case fat
        /// A fat file with 64-bit offsets (`FAT_MAGIC_64`).
        case fat64
        /// A static archive (`!<arch>\n`).
        case archive
    }

    /// Every image of every slice: each thin image, each archive member.
    public var images: [MachOImage] { slices.flatMap(\.images) }

    /// Reads the file at `path`.
    ///
    /// - Parameter strings: string literals to look for in each image's
    ///   ``MachOImage/stringLiteralRanges``; those found are in
    ///   ``MachOImage/readOnlyStrings``.
    /// - Throws: ``MachOError``: unreadable, not a regular file, not Mach-O,
    ///   truncated before its first structure is complete, or changed while
    ///   it was read.
    public init(path: String, strings: LiteralPatterns = []) throws(MachOError) {
        self = try Self.withContents(path: path, strings: strings, handOver: .offer) { file, _ in file }
    }

    /// What a read does with ``InspectedModel``.
    enum HandOver {
        /// Nothing.
        case none
        /// Offers the model it parsed (inspection).
        case offer
        /// Takes the model kept of the same version of the file, if any,
        /// instead of parsing it (a read for what the model does not keep).
        case take
    }

    /// Reads the file at `path` as ``init(path:strings:)`` does (through
    /// ``FileContents/withBytes(path:_:)``) and calls `body` with the model
    /// and the file's bytes (the whole file, from the same read, so they
    /// agree with the model; not to be used after `body` returns): for
    /// readers of what the model does not keep, such as the instructions
    /// of code sections, at the image's ``MachOImage/fileOffset`` plus a
    /// section's ``Section/fileOffset``.
    ///
    /// With `handOver` ``HandOver/take``, the model may be the one
    /// inspection parsed of the same version of the file
    /// (``InspectedModel``), with the literals of its `strings`.
    ///
    /// - Throws: as ``init(path:strings:)``.
    static func withContents<Value>(
        path: String, strings: LiteralPatterns = [], handOver: HandOver = .none,
        _ body: (MachOFile, UnsafeRawBufferPointer) -> Value
    ) throws(MachOError) -> Value {
        // Offered only once the read is over and found nothing changed.
        var parsed: (file: MachOFile, version: FileVersion)?
        let value = try FileContents.withBytes(path: path) { bytes, version in
            Result { () throws(MachOError) -> Value in
                if handOver == .take, let kept = InspectedModel.take(path: path, version: version) { return body(kept, bytes) }
                let file = try MachOFile.read(ByteReader(bytes), path: path, strings: strings)
                if handOver == .offer { parsed = (file, version) }
                return body(file, bytes)
            }
        }.get()
        if let parsed { InspectedModel.offer(parsed.file, path: path, version: parsed.version) }
        return value
    }

    /// Reads a file already in memory; `path` names it in errors and
    /// warnings. The entry point for fuzzing.
    ///
    /// - Throws: ``MachOError/notMachO(path:)`` or
    ///   ``MachOError/truncated(path:structure:offset:needed:available:)``.
    public init(bytes: [UInt8], path: String, strings: LiteralPatterns = []) throws(MachOError) {
        let outcome = bytes.withUnsafeBytes { raw in
            Result { () throws(MachOError) -> MachOFile in
                try MachOFile.read(ByteReader(raw), path: path, strings: strings)
            }
        }
        self = try outcome.get()
    }

    private init(path: String, size: Int, container: Container, slices: [MachOSlice], warnings: [ReadWarning]) {
        self.path = path
        self.size = size
        self.container = container
        self.slices = slices
        self.warnings = warnings
    }

    private static func read(_ file: ByteReader, path: String, strings: LiteralPatterns) throws(MachOError) -> MachOFile {
        func truncated(_ failure: ReadFailure) -> MachOError {
            .truncated(
                path: path, structure: failure.structure, offset: failure.fileOffset, needed: failure.needed, available: failure.available)
        }
        if StaticArchive.isArchive(file) {
            let archive = StaticArchive.read(file, path: path, strings: strings)
            let slice = MachOSlice(fatArch: nil, fileOffset: 0, size: file.count, contents: .archive(archive))
            return MachOFile(path: path, size: file.count, container: .archive, slices: [slice], warnings: [])
        }
        // Fewer than 4 bytes hold no magic number at all.
        guard let magic = file.withByteOrder(littleEndian: false).u32(at: 0) else { throw .notMachO(path: path) }
        if magic == FatHeader.magic || magic == FatHeader.magic64 {
            var warnings = ReadWarnings()
            let archs: [FatArch]
            do { archs = try FatHeader.read(file, warnings: &warnings) } catch { throw truncated(error) }
            var slices: [MachOSlice] = []
            for (index, arch) in archs.enumerated() {
                guard let bytes = file.window(offset: arch.offset, size: arch.size) else { continue }
                let structure = "fat slice \(index) (\(arch.cpu))"
                if StaticArchive.isArchive(bytes) {
                    let archive = StaticArchive.read(bytes, path: path, strings: strings)
                    slices.append(MachOSlice(fatArch: arch, fileOffset: bytes.fileOffset, size: bytes.count, contents: .archive(archive)))
                    continue
                }
                do {
                    guard let image = try ImageReader.read(bytes, path: path, member: nil, strings: strings) else {
                        warnings.add(structure, at: bytes.fileOffset, "neither a Mach-O image nor a static archive; skipped")
                        continue
                    }
                    if image.cpu.type != arch.cpu.type {
                        warnings.add(structure, at: bytes.fileOffset, "the fat header says \(arch.cpu), the image's header \(image.cpu)")
                    }
                    slices.append(MachOSlice(fatArch: arch, fileOffset: bytes.fileOffset, size: bytes.count, contents: .image(image)))
                } catch {
                    warnings.add(structure, at: bytes.fileOffset, "\(error.description); skipped")
                }
            }
            return MachOFile(
                path: path, size: file.count, container: magic == FatHeader.magic64 ? .fat64 : .fat, slices: slices,
                warnings: warnings.all)
        }
        let image: MachOImage?
        do { image = try ImageReader.read(file, path: path, member: nil, strings: strings) } catch { throw truncated(error) }
        guard let image else { throw .notMachO(path: path) }
        let slice = MachOSlice(fatArch: nil, fileOffset: 0, size: file.count, contents: .image(image))
        return MachOFile(path: path, size: file.count, container: .thin, slices: [slice], warnings: [])
    }
}
