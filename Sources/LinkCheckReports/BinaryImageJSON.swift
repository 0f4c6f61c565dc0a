import LinkCheckImage

/// What the JSON documents of `check` and `inspect` both say of an image
/// (``BinaryImage``), the same keys in both: the file (`path`, and for a
/// file of an archive `archive` and `entry`), `format`, `machine`, `class`
/// (32 or 64), `data` (byte order), `type`, `needed` and `warnings`; then
/// each format's own: ELF `soname` and `symbolTable`; Mach-O
/// `installName`, `platform`, `minOS`, `sdk`, `dependencies` (`name`,
/// `kind`), `rpaths` and `appExtensionSafe`. Each document adds its own
/// keys beside these (``CheckJSON``, ``InspectRenderer``).
struct BinaryImageJSON: Encodable {
    var path: String
    /// For a file unpacked from an archive: the archive and the entry.
    var archive, entry: String?
    var format, machine: String
    var `class`: Int
    var data, type: String
    var needed: [String]
    var warnings: [String]
    // ELF
    var soname, symbolTable: String?
    // Mach-O
    var installName, platform, minOS, sdk: String?
    var dependencies: [Dependency]?
    var rpaths: [String]?
    var appExtensionSafe: Bool?

    struct Dependency: Encodable {
        var name, kind: String
    }

    init(_ image: BinaryImage) {
        path = image.identity.displayPath
        archive = image.identity.unpackedFrom?.archive
        entry = image.identity.unpackedFrom?.entry
        format = image.format.rawValue
        machine = image.architecture.name
        `class` = image.architecture.is64Bit ? 64 : 32
        data = image.architecture.byteOrder.rawValue
        type = image.facts.fileTypeName
        needed = image.dependencyNames
        warnings = image.warnings.map(\.description)
        switch image.facts {
        case .elf(let facts):
            soname = image.declaredName
            symbolTable = facts.symbolTable.rawValue
        case .macho(let facts):
            installName = image.declaredName
            platform = image.platform?.platform.rawValue
            minOS = image.platform?.minimumOS
            sdk = image.platform?.sdk
            dependencies = image.dependencies.map { Dependency(name: $0.name, kind: $0.kind.rawValue) }
            rpaths = image.searchPaths.map(\.path)
            appExtensionSafe = facts.appExtensionSafe
        }
    }
}

/// One JSON object with the keys of both parts: an image's common keys
/// (``BinaryImageJSON``), when there is an image, and a document's own.
/// (The keyed containers one encoder is asked for are one object.)
struct MergedJSON<First: Encodable, Second: Encodable>: Encodable {
    var first: First?
    var second: Second

    func encode(to encoder: any Encoder) throws {
        try first?.encode(to: encoder)
        try second.encode(to: encoder)
    }
}
