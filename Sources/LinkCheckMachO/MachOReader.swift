import LinkCheckImage
import LinkCheckLiterals

/// Turns a Mach-O file into linkcheck's format-neutral ``BinaryImage``
/// values: one per slice of a fat file, one per Mach-O member of a static
/// archive (``MachOFile``).
public enum MachOReader: Sendable {
    /// Reads the Mach-O file at `path`.
    ///
    /// `strings` are the literals to look for in `__TEXT,__cstring` and
    /// `__TEXT,__const`; `symbols` decides which imports and exports are kept
    /// (by their name without Mach-O's leading `_`).
    ///
    /// What could not be read becomes ``BinaryImage/warnings`` (so the image
    /// is never called safe): a malformed part of the image, a problem with
    /// the fat header (which may have lost a slice), encrypted code.
    ///
    /// - Throws: ``InspectionError``: unreadable, not a regular file, not
    ///   Mach-O (or an archive with no Mach-O member), a header that cannot
    ///   be read, or changed while it was read.
    public static func read(
        path: String, strings: LiteralPatterns = [], symbols selection: SymbolSelection = .all
    ) throws(InspectionError) -> [BinaryImage] {
        // A Linux static library: no Mach-O member, so not read whole.
        if StaticArchive.holdsMachOMember(path: path) == false { throw .notAnImage(path: path) }
        let file: MachOFile
        do {
            file = try MachOFile(path: path, strings: strings)
        } catch {
            throw inspectionError(error)
        }
        let images = file.images.map { image in
            neutral(image, slice: slice(of: image, in: file), fileWarnings: file.warnings, selection: selection)
        }
        guard !images.isEmpty else {
            // An `ar` archive of ELF objects (a Linux static library) holds
            // no Mach-O member: not an image of ours. A fat file whose every
            // slice is broken is.
            if file.container == .archive { throw .notAnImage(path: path) }
            throw .malformed(
                path: path, format: .macho, structure: "fat header", reason: file.warnings.first?.description ?? "no slice could be read")
        }
        return images
    }

    /// The format this reader reads.
    public static let format = BinaryFormat.macho

    /// Whether a file starting with `leadingBytes` is one this reader
    /// reads: a thin Mach-O image (`MH_MAGIC(_64)`, `MH_CIGAM(_64)`), a fat
    /// file (`FAT_MAGIC(_64)`, which Java class files share: ``read(path:strings:symbols:)``
    /// tells them apart) or a static archive (`!<arch>\n`, of Mach-O
    /// objects or not: ``read(path:strings:symbols:)`` tells).
    public static func recognises(leadingBytes: ArraySlice<UInt8>) -> Bool {
        if leadingBytes.starts(with: StaticArchive.magic) { return true }
        guard leadingBytes.count >= 4 else { return false }
        let bigEndian = leadingBytes.prefix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        return bigEndian == FatHeader.magic || bigEndian == FatHeader.magic64
            || MachHeader.kind(ofMagic: bigEndian.byteSwapped) != nil
    }

    /// The images of the Mach-O file at `path`, as
    /// ``read(path:strings:symbols:)`` reads them.
    ///
    /// - Throws: as ``read(path:strings:symbols:)``.
    public static func images(
        atPath path: String, strings: LiteralPatterns, symbols: SymbolSelection
    ) throws(InspectionError) -> [BinaryImage] {
        try read(path: path, strings: strings, symbols: symbols)
    }

    /// Reads the image ``read(path:strings:symbols:)`` gave `identity`
    /// again (by path, slice and archive member) and calls `body` with it
    /// and the bytes of its whole file from the same read (not to be used
    /// after `body` returns): for what the neutral model does not keep,
    /// such as the instructions of its code (at ``MachOImage/fileOffset``
    /// plus ``Section/fileOffset``). The model of the largest file
    /// inspection read is not parsed again but handed over, for the same
    /// version of the file (``InspectedModel``).
    ///
    /// - Throws: ``InspectionError`` as ``read(path:strings:symbols:)``, and
    ///   ``InspectionError/changedWhileRead(path:)`` when the file no longer
    ///   holds that image.
    public static func withImage<Value>(
        _ identity: ImageIdentity, _ body: (MachOImage, UnsafeRawBufferPointer) -> Value
    ) throws(InspectionError) -> Value {
        let value: Value?
        do {
            value = try MachOFile.withContents(path: identity.path, handOver: .take) { file, contents in
                file.images.first { $0.archiveMember == identity.member && slice(of: $0, in: file) == identity.slice }.map {
                    body($0, contents)
                }
            }
        } catch {
            throw inspectionError(error)
        }
        guard let value else { throw .changedWhileRead(path: identity.path) }
        return value
    }

    /// The ``ImageIdentity/slice`` of `image`: its architecture's name in a
    /// fat file, `nil` in a thin file or archive.
    static func slice(of image: MachOImage, in file: MachOFile) -> String? {
        file.container == .fat || file.container == .fat64 ? image.cpu.name : nil
    }

    /// The neutral image of one Mach-O image.
    static func neutral(_ image: MachOImage, slice: String?, fileWarnings: [ReadWarning], selection: SymbolSelection) -> BinaryImage {
        var warnings = fileWarnings + image.warnings
        if image.isEncrypted {
            warnings.append(
                .problem(
                    "the code is encrypted (LC_ENCRYPTION_INFO cryptid \(image.encryption?.cryptID ?? 0)): what it calls cannot be read"))
        }
        let dependencies = image.dependencies.map { Dependency(name: $0.installName, kind: kind($0.kind)) }
        var seen = Set<String>()
        var imports: [Symbol] = []
        for entry in image.imports {
            let name = cName(entry.name)
            guard keeps(selection, name), seen.insert("\(name)\u{0}\(entry.library)").inserted else { continue }
            imports.append(
                Symbol(
                    name: name, binding: entry.isWeak ? .weak : .global, type: .notype,
                    library: library(entry.library, in: image)))
        }
        let exports = image.exports.compactMap { entry -> Symbol? in
            let name = cName(entry.name)
            guard keeps(selection, name) else { return nil }
            return Symbol(name: name, binding: entry.isWeakDefinition ? .weak : .global, type: .notype, value: entry.address ?? 0)
        }
        // Functions for the image's own use: local or private-external
        // nlist entries defined in a section of code, less the assembler's
        // temporary labels (`ltmp0`, `L…`: every C-level name starts with `_`).
        let sections = image.sections
        var defined = Set<String>()
        let definitions = image.symbols.compactMap { entry -> Symbol? in
            let number = Int(entry.sectionNumber)
            guard entry.kind == .section, !entry.isExternal || entry.isPrivateExternal,
                number >= 1, number <= sections.count, sections[number - 1].containsInstructions,
                let first = entry.name.utf8.first, first != UInt8(ascii: "l"), first != UInt8(ascii: "L")
            else { return nil }
            let name = cName(entry.name)
            guard !name.isEmpty, keeps(selection, name), defined.insert(name).inserted else { return nil }
            return Symbol(name: name, binding: entry.isExternal ? .global : .local, type: .function, value: entry.value)
        }
        let platform = image.platform.flatMap { version -> LinkCheckImage.PlatformVersion? in
            guard let platform = LinkCheckImage.Platform(buildVersionPlatform: version.platform.rawValue) else { return nil }
            return LinkCheckImage.PlatformVersion(platform: platform, minimumOS: "\(version.minimumOS)", sdk: version.sdk.map { "\($0)" })
        }
        return BinaryImage(
            identity: ImageIdentity(path: image.path, slice: slice, member: image.archiveMember),
            format: .macho,
            architecture: image.cpu.architecture(is64Bit: image.header.is64Bit, byteOrder: image.header.byteOrder),
            platform: platform,
            fileType: fileType(image.fileType),
            declaredName: image.installName,
            dependencies: dependencies,
            searchPaths: image.rpaths.map { SearchPath(path: $0, kind: .lcRpath) },
            imports: imports,
            exports: exports,
            definitions: definitions,
            objcClassReferences: Array(Set(image.classReferences.compactMap(\.className) + image.categories.map(\.className))).sorted(),
            objcSuperclasses: Dictionary(
                (image.classReferences.map { ($0.className, $0.superclasses) }
                    + image.classDefinitions.map { ($0.className, $0.superclasses) })
                    .filter { !$0.1.isEmpty },
                uniquingKeysWith: { first, _ in first }),
            selectorReferences: Array(Set(image.selectorReferences.compactMap(\.selector) + image.objcStubs.map(\.selector))).sorted(),
            stringLiterals: stringLiterals(of: image),
            facts: .macho(
                MachOFacts(
                    fileType: "MH_\(image.fileType)", flags: image.header.flags.rawValue, flagNames: image.header.flags.names,
                    appExtensionSafe: image.appExtensionSafe, encrypted: image.isEncrypted, codeSigned: image.hasCodeSignature,
                    fixups: image.fixupFormat, hasBitcode: image.hasBitcode, uuid: image.uuid?.bytes,
                    hasDebugEntries: image.symbols.contains(where: \.isDebugEntry))),
            warnings: warnings)
    }

    /// The literals found in `__TEXT,__cstring` and `__TEXT,__const`, less
    /// the selector names that are there only as the targets of selector
    /// references (lld merges `__objc_methname` into `__cstring`): a
    /// selector the code sends is a selector reference, not a string. One
    /// that a `CFString` also holds (`NSSelectorFromString(@"…")`) stays.
    static func stringLiterals(of image: MachOImage) -> [String] {
        let selectors = Set(image.selectorReferences.compactMap(\.selector) + image.objcStubs.map(\.selector))
        let constants = Set(image.cfStrings.compactMap(\.value))
        return image.readOnlyStrings.filter { !selectors.contains($0) || constants.contains($0) }
    }

    /// A Mach-O symbol's C-level name: without the leading `_` the compiler
    /// adds (`_dlopen` is `dlopen`, `_$s5UIKit…` is `$s5UIKit…`); names
    /// without one (`-[UPUploader retry:]`) as they are.
    public static func cName(_ name: String) -> String {
        // The UTF-8 view drops the one byte, not the first character
        // (whose grapheme breaking is most of the cost).
        name.utf8.first == UInt8(ascii: "_") ? String(Substring(name.utf8.dropFirst())) : name
    }

    static func keeps(_ selection: SymbolSelection, _ name: String) -> Bool {
        var name = name
        return name.withUTF8 { selection.keeps($0) }
    }

    static func library(_ ordinal: LibraryOrdinal, in image: MachOImage) -> LibraryReference? {
        switch ordinal {
        case .dylib(let number): image.dependencies.firstIndex { $0.ordinal == number }.map(LibraryReference.dependency)
        case .image: .selfImage
        case .mainExecutable: .mainExecutable
        case .flatLookup: .flatLookup
        case .weakLookup: .weakLookup
        case .invalid: nil
        }
    }

    static func kind(_ kind: DependencyKind) -> Dependency.Kind {
        switch kind {
        case .needed: .needed
        case .weak: .weak
        case .reexport: .reexport
        case .upward: .upward
        case .lazy: .lazy
        }
    }

    static func fileType(_ type: FileType) -> ImageFileType {
        switch type {
        case .dylib: .sharedLibrary
        case .execute: .executable
        case .bundle: .bundle
        case .object: .relocatableObject
        case .core: .core
        default: .other
        }
    }

    static func inspectionError(_ error: MachOError) -> InspectionError {
        switch error {
        case .unreadable(let path, let code): .unreadable(path: path, errno: code)
        case .notRegularFile(let path): .notInspectable(path: path, reason: "not a regular file")
        case .notMachO(let path): .notAnImage(path: path)
        case .truncated(let path, let structure, let offset, let needed, let available):
            .malformed(
                path: path, format: .macho, structure: structure,
                reason: "needs \(needed) bytes at offset \(offset), the file has \(available)")
        case .changedWhileRead(let path): .changedWhileRead(path: path)
        }
    }
}
