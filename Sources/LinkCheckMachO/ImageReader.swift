import LinkCheckImage
import LinkCheckLiterals

/// Reads one image from its bytes: the header, the load commands, and what
/// they point at. Everything after the header that is malformed becomes a
/// warning and the rest is read.
enum ImageReader {
    /// Reads the image at the start of `bytes`: the load commands that
    /// describe it (``readDescriptions(of:in:warnings:)``), then what the
    /// first command of each kind points at (``LoadCommandIndex``): the
    /// entry point, the symbol table, the fixups, the exports, the function
    /// starts, and what the sections hold.
    ///
    /// - Returns: `nil` when the bytes do not start with a Mach-O magic.
    /// - Throws: ``ReadFailure`` when the Mach header does not fit.
    static func read(
        _ bytes: ByteReader, path: String, member: String?, strings: LiteralPatterns
    ) throws(ReadFailure) -> MachOImage? {
        guard let (header, image) = try MachHeader.read(bytes) else { return nil }
        var warnings = ReadWarnings()
        let commands = LoadCommand.readAll(image, header: header, warnings: &warnings)
        var result = MachOImage(
            path: path, archiveMember: member, fileOffset: image.fileOffset, size: image.count, header: header,
            loadCommands: commands)
        readDescriptions(of: &result, in: image, warnings: &warnings)
        let index = LoadCommandIndex(commands)
        if let main = index.main { result.entryPoint = entryPoint(main, base: result.baseAddress, in: image, warnings: &warnings) }
        if let symtab = index.symtab {
            result.symbols = NlistSymbol.readAll(symtab, in: image, is64Bit: header.is64Bit, warnings: &warnings)
        }
        let addressSpace = AddressSpace(segments: result.segments, fileType: header.fileType, image: image, is64Bit: header.is64Bit)
        readFixups(index, into: &result, in: image, addressSpace: addressSpace, warnings: &warnings)
        result.exports = exports(index, of: result, in: image, warnings: &warnings)
        if let functionStarts = index.functionStarts, let data = linkeditData(functionStarts, in: image, warnings: &warnings) {
            result.functionStarts = FunctionStarts.read(data, textAddress: result.baseAddress, warnings: &warnings)
        }
        readSectionContents(into: &result, in: image, addressSpace: addressSpace, strings: strings, warnings: &warnings)
        result.warnings = warnings.all
        return result
    }

    /// Reads, in load-command order, the commands that describe the image
    /// whatever else it holds: segments, `LC_ID_DYLIB`, the dylib load
    /// commands with their ordinals, `LC_RPATH`, the platform commands,
    /// `LC_DYSYMTAB`, `LC_UUID`, `LC_CODE_SIGNATURE` and `LC_ENCRYPTION_INFO(_64)`.
    private static func readDescriptions(of result: inout MachOImage, in image: ByteReader, warnings: inout ReadWarnings) {
        let header = result.header
        var ordinal = 0
        for command in result.loadCommands {
            switch command.command {
            case LoadCommandType.segment, LoadCommandType.segment64:
                let is64 = command.command == LoadCommandType.segment64
                if is64 != header.is64Bit {
                    warnings.add(
                        command.name, at: image.fileOffset + command.offset, "in a \(header.is64Bit ? 64 : 32)-bit image; read anyway")
                }
                if let segment = Segment.read(command, in: image, is64Bit: is64, warnings: &warnings) {
                    result.segments.append(segment)
                }
            case LoadCommandType.idDylib:
                result.installName = DylibDependency.read(command, kind: nil, ordinal: nil, in: image, warnings: &warnings)?.installName
            case LoadCommandType.loadDylib, LoadCommandType.loadWeakDylib, LoadCommandType.reexportDylib,
                LoadCommandType.loadUpwardDylib, LoadCommandType.lazyLoadDylib:
                let kind = DependencyKind(command: command.command)
                // A malformed command still takes its ordinal, as dyld counts commands.
                var number: Int? = nil
                if kind != .lazy {
                    ordinal += 1
                    number = ordinal
                }
                if let dependency = DylibDependency.read(command, kind: kind, ordinal: number, in: image, warnings: &warnings) {
                    result.dependencies.append(dependency)
                }
            case LoadCommandType.rpath:
                if let path = command.string(atField: 8, in: image) {
                    result.rpaths.append(path)
                } else {
                    warnings.add(
                        "LC_RPATH", at: image.fileOffset + command.offset, "the path offset or string runs past the command; skipped")
                }
            case LoadCommandType.buildVersion, LoadCommandType.versionMinMacOSX, LoadCommandType.versionMinIPhoneOS,
                LoadCommandType.versionMinTVOS, LoadCommandType.versionMinWatchOS:
                if let platform = PlatformVersion.read(command, in: image, warnings: &warnings) {
                    result.platforms.append(platform)
                }
            case LoadCommandType.dysymtab:
                result.dynamicSymbolTable = result.dynamicSymbolTable ?? DynamicSymbolTable.read(command, in: image, warnings: &warnings)
            case LoadCommandType.codeSignature: result.hasCodeSignature = true
            case LoadCommandType.uuid:
                result.uuid = result.uuid ?? ImageUUID.read(command, in: image, warnings: &warnings)
            case LoadCommandType.encryptionInfo, LoadCommandType.encryptionInfo64:
                if let record = try? command.bytes(in: image).record("encryption_info_command", at: 0, size: 20) {
                    result.encryption = EncryptionInfo(offset: record.u32(8), size: record.u32(12), cryptID: record.u32(16))
                } else {
                    warnings.add(command.name, at: image.fileOffset + command.offset, "shorter than encryption_info_command; skipped")
                }
            default: break
            }
        }
    }

    /// `LC_MAIN` (`entry_point_command`), its `entryoff` from `base`; `nil`
    /// with a warning when the command is too short.
    private static func entryPoint(_ main: LoadCommand, base: UInt64, in image: ByteReader, warnings: inout ReadWarnings) -> EntryPoint? {
        guard let record = try? main.bytes(in: image).record("entry_point_command", at: 0, size: 24) else {
            warnings.add("LC_MAIN", at: image.fileOffset + main.offset, "shorter than entry_point_command; skipped")
            return nil
        }
        return EntryPoint(offset: record.u64(8), address: base &+ record.u64(8), stackSize: record.u64(16))
    }

    /// Imports, bindings and rebases: from the chained fixups, else the
    /// opcodes of `LC_DYLD_INFO(_ONLY)`, else the symbol table. No more
    /// fixups are read than the image has 4-byte slots: more would visit
    /// some slot twice.
    private static func readFixups(
        _ index: LoadCommandIndex, into result: inout MachOImage, in image: ByteReader, addressSpace: AddressSpace,
        warnings: inout ReadWarnings
    ) {
        let fixupLimit = image.count / 4 + 1
        if let chainedFixups = index.chainedFixups, let data = linkeditData(chainedFixups, in: image, warnings: &warnings) {
            let fixups = ChainedFixups.read(
                data, image: image, segments: result.segments, base: result.baseAddress, limit: fixupLimit, warnings: &warnings)
            result.fixupFormat = .chained
            result.imports = fixups.imports
            result.bindings = fixups.bindings
            result.rebases = fixups.rebases
            result.chainedPointerFormats = fixups.pointerFormats
        } else if let dyldInfo = index.dyldInfo {
            result.fixupFormat = .opcodes
            readOpcodes(dyldInfo, in: image, into: &result, addressSpace: addressSpace, limit: fixupLimit, warnings: &warnings)
        } else {
            result.imports = symbolTableImports(result.symbols, header: result.header)
        }
    }

    /// The exports: from `LC_DYLD_EXPORTS_TRIE`, else the exports trie of
    /// `LC_DYLD_INFO(_ONLY)`, else the symbol table.
    private static func exports(
        _ index: LoadCommandIndex, of result: MachOImage, in image: ByteReader, warnings: inout ReadWarnings
    ) -> [MachOExport] {
        let base = result.baseAddress
        if let exportsTrie = index.exportsTrie {
            guard let data = linkeditData(exportsTrie, in: image, warnings: &warnings) else { return [] }
            return ExportsTrie.read(data, base: base, structure: "LC_DYLD_EXPORTS_TRIE", warnings: &warnings)
        }
        if let dyldInfo = index.dyldInfo, let trie = dyldInfoPart(dyldInfo, field: 40, name: "export", in: image, warnings: &warnings) {
            return ExportsTrie.read(trie, base: base, structure: "exports trie of \(dyldInfo.name)", warnings: &warnings)
        }
        return symbolTableExports(result.symbols, sections: result.sections)
    }

    /// What the sections hold, read through what the load commands gave:
    /// relocations (`MH_OBJECT`), stubs and symbol pointers, Objective-C
    /// classes, categories, methods, selector references and stubs,
    /// `CFString` constants, and which of `strings` occur as literals.
    private static func readSectionContents(
        into result: inout MachOImage, in image: ByteReader, addressSpace: AddressSpace, strings: LiteralPatterns,
        warnings: inout ReadWarnings
    ) {
        var context = ReadContext(
            image: image, header: result.header, sections: result.sections, addressSpace: addressSpace, symbols: result.symbols,
            indirectSymbols: result.dynamicSymbolTable?.indirectSymbols ?? [], imports: result.imports,
            bindings: result.bindings, rebases: result.rebases, fixupFormat: result.fixupFormat, warnings: &warnings)
        if result.header.fileType == .object {
            context.readRelocations(warnings: &warnings)
            result.relocations = context.relocations
        }
        (result.symbolStubs, result.symbolPointers) = SymbolStubs.read(context, warnings: &warnings)
        result.classReferences = ObjCReferences.classReferences(context, warnings: &warnings)
        result.classDefinitions = ObjCReferences.classDefinitions(context, warnings: &warnings)
        result.categories = ObjCReferences.categories(context, warnings: &warnings)
        result.objcMethods = ObjCMethodLists.methods(context, classes: result.classDefinitions, categories: result.categories)
        result.selectorReferences = ObjCReferences.selectorReferences(context, warnings: &warnings)
        result.objcStubs = ObjCReferences.stubs(context, selectorReferences: result.selectorReferences, warnings: &warnings)
        result.cfStrings = StringLiterals.cfStrings(context, warnings: &warnings)
        let ranges = StringLiterals.ranges(context)
        result.stringLiteralRanges = ranges.map {
            StringLiteralRange(section: $0.section, fileOffset: image.fileOffset + $0.offset, size: $0.size)
        }
        result.readOnlyStrings = StringLiterals.find(strings, in: image, ranges: ranges)
    }

    /// The `dataoff`/`datasize` range of a `linkedit_data_command`, or `nil`
    /// with a warning when it does not lie within the image.
    static func linkeditData(_ command: LoadCommand, in image: ByteReader, warnings: inout ReadWarnings) -> ByteReader? {
        guard let record = try? command.bytes(in: image).record("linkedit_data_command", at: 0, size: 16) else {
            warnings.add(command.name, at: image.fileOffset + command.offset, "shorter than linkedit_data_command; skipped")
            return nil
        }
        return part(of: command, offset: record.u32(8), size: record.u32(12), named: "its data", in: image, warnings: &warnings)
    }

    /// One offset/size pair of `dyld_info_command` (`field` is the offset
    /// field's offset), or `nil` when it is empty or (with a warning) past
    /// the end of the image.
    static func dyldInfoPart(_ command: LoadCommand, field: Int, name: String, in image: ByteReader, warnings: inout ReadWarnings)
        -> ByteReader?
    {
        guard let record = try? command.bytes(in: image).record("dyld_info_command", at: 0, size: 48) else {
            if field == 8 { warnings.add(command.name, at: image.fileOffset + command.offset, "shorter than dyld_info_command; skipped") }
            return nil
        }
        let (offset, size) = (record.u32(field), record.u32(field + 4))
        guard size > 0 else { return nil }
        return part(of: command, offset: offset, size: size, named: "the \(name) information", in: image, warnings: &warnings)
    }

    /// The `size` bytes at `offset` from the image's start that `command`
    /// points at, or `nil` with a warning (naming them `what`) when they
    /// run past the end of the image.
    private static func part(
        of command: LoadCommand, offset: UInt32, size: UInt32, named what: String, in image: ByteReader, warnings: inout ReadWarnings
    ) -> ByteReader? {
        guard let data = image.window(offset: UInt64(offset), size: UInt64(size)) else {
            warnings.add(
                command.name, at: image.fileOffset + command.offset,
                "\(what) (\(size) bytes at \(hex(offset))) runs past the end of the image (\(image.count) bytes); skipped")
            return nil
        }
        return data
    }

    /// Runs the rebase, bind, lazy-bind and weak-bind streams of
    /// `LC_DYLD_INFO(_ONLY)`.
    private static func readOpcodes(
        _ command: LoadCommand, in image: ByteReader, into result: inout MachOImage, addressSpace: AddressSpace,
        limit: Int, warnings: inout ReadWarnings
    ) {
        let pointerSize = result.header.pointerSize
        if let stream = dyldInfoPart(command, field: 8, name: "rebase", in: image, warnings: &warnings) {
            let slots = RebaseOpcodes.read(stream, segments: result.segments, pointerSize: pointerSize, limit: limit, warnings: &warnings)
            result.rebases = slots.map { Rebase(address: $0, target: addressSpace.pointer(at: $0)) }
        }
        var index: [MachOImport: Int] = [:]
        for (field, source, name) in [(16, ImportSource.bind, "bind"), (32, .lazyBind, "lazy bind"), (24, .weakBind, "weak bind")] {
            guard let stream = dyldInfoPart(command, field: field, name: name, in: image, warnings: &warnings) else { continue }
            let binds = BindOpcodes.read(
                stream, source: source, segments: result.segments, pointerSize: pointerSize, limit: limit, warnings: &warnings)
            for bind in binds {
                let entry = MachOImport(name: bind.name, library: bind.library, isWeak: bind.isWeakImport, source: source)
                let number: Int
                if let known = index[entry] {
                    number = known
                } else {
                    number = result.imports.count
                    index[entry] = number
                    result.imports.append(entry)
                }
                if let address = bind.address {
                    result.bindings.append(Binding(address: address, importIndex: number, addend: bind.addend))
                }
            }
        }
    }

    /// The undefined externals of the symbol table as imports: the library
    /// from `GET_LIBRARY_ORDINAL(n_desc)` in `MH_TWOLEVEL` images, flat
    /// lookup otherwise.
    static func symbolTableImports(_ symbols: [NlistSymbol], header: MachHeader) -> [MachOImport] {
        let twoLevel = header.flags.contains(.twoLevel)
        return symbols.filter(\.isUndefinedExternal).map { symbol in
            MachOImport(
                name: symbol.name, library: twoLevel ? LibraryOrdinal(nlist: symbol.libraryOrdinal) : .flatLookup,
                isWeak: symbol.isWeakReference, source: .symbolTable)
        }
    }

    /// The defined externals of the symbol table (`N_SECT` or `N_ABS`,
    /// `N_EXT`, not `N_PEXT`) as exports.
    static func symbolTableExports(_ symbols: [NlistSymbol], sections: [Section]) -> [MachOExport] {
        symbols.compactMap { symbol in
            guard symbol.isExternal, !symbol.isPrivateExternal, symbol.kind == .section || symbol.kind == .absolute else { return nil }
            let number = Int(symbol.sectionNumber)
            let threadLocal =
                symbol.kind == .section && number >= 1 && number <= sections.count
                && sections[number - 1].type == .threadLocalVariables
            return MachOExport(
                name: symbol.name, kind: symbol.kind == .absolute ? .absolute : threadLocal ? .threadLocal : .regular,
                isWeakDefinition: symbol.isWeakDefinition, address: symbol.value, resolverAddress: nil, reexport: nil,
                flags: 0, source: .symbolTable)
        }
    }
}
