import LinkCheckImage
import LinkCheckMachO

/// Addresses the scanner needs in a Mach-O image (``MachOImage``), and the
/// code sections to decode:
///
/// - functions: the defined symbols of the symbol table in code sections,
///   the exports it does not name, the Objective-C methods none of them
///   names (``MachOImage/objcMethods``: `-[Class(Category) selector]` in a
///   stripped image), and the `LC_FUNCTION_STARTS` entries none of these
///   names (as `sub_<hex address>`, never the name before them); each runs
///   to the next one or the end of its section; exported when the exports
///   trie gives its address;
/// - stubs: each `S_SYMBOL_STUBS` entry (`__stubs`, `__auth_stubs`) reaches
///   the symbol the indirect symbol table (or the binding of the slot it
///   jumps through) names; each `__objc_stubs` entry sends its selector
///   through `objc_msgSend`;
/// - pointer slots: `__got`, `__auth_got`, `__la_symbol_ptr` and
///   `__nl_symbol_ptr`, named the same way;
/// - `__objc_selrefs` and `__objc_classrefs` slots, the C strings of
///   `S_CSTRING_LITERALS` sections (`__TEXT,__cstring`), and the constant
///   `CFString`s of `__cfstring` (`@"UIApplication"`, by the address of the
///   object, which is what code passes).
///
/// A stub or slot names an import by its C-level name (`_dlopen` as
/// `dlopen`), or a function of the image when it is not bound and the image
/// defines the name.
struct MachOCodeLayout: CodeLayout {
    private(set) var functions = FunctionTable([])
    /// The sections to decode (instructions, not stubs; no two with
    /// overlapping bytes), in file order.
    private(set) var code: [CodeSection] = []
    private var stubs: [UInt64: Stub] = [:]
    private var slots: [UInt64: CallSite.Callee] = [:]
    private var selectors: [UInt64: String] = [:]
    private var classes: [UInt64: String] = [:]
    private var readOnly = ReadOnlyMemory()
    /// Constant `CFString` object address → its 8-bit characters.
    private var cfStrings: [UInt64: String] = [:]

    /// A section of instructions and its bytes.
    struct CodeSection {
        var section: Section
        /// The section's bytes, within the buffer the layout was made from.
        var bytes: UnsafeRawBufferPointer
        /// Offset of its first byte from the start of the file, in bytes.
        var fileOffset: UInt64
    }

    /// `S_ATTR_PURE_INSTRUCTIONS` and `S_ATTR_SOME_INSTRUCTIONS`.
    private static let instructionAttributes: UInt32 = 0x8000_0000 | 0x0000_0400

    /// Sections of instructions that are stubs the linker made: their
    /// entries are call targets, not callers.
    private static let linkerStubSections: Set<String> = ["__objc_stubs", "__stub_helper"]

    /// The layout of `image`, whose file's bytes are `file` (the whole file:
    /// the image starts at ``MachOImage/fileOffset`` in it). Sections whose
    /// bytes lie outside the image or the buffer are left out.
    init(image: MachOImage, file: UnsafeRawBufferPointer) {
        let numbered = Array(zip(1..., image.sections))
        let codeSections = numbered.filter { Self.isCode($0.1) }
        var decoded: [CodeSection] = []
        var end: UInt64 = 0
        for (_, section) in codeSections.sorted(by: { $0.1.fileOffset < $1.1.fileOffset }) {
            guard UInt64(section.fileOffset) >= end, let bytes = Self.bytes(of: section, in: image, file: file) else { continue }
            decoded.append(CodeSection(section: section, bytes: bytes.buffer, fileOffset: bytes.fileOffset))
            end = UInt64(section.fileOffset) + section.size
        }
        code = decoded
        for (_, section) in numbered where section.type == .cStringLiterals {
            if let bytes = Self.bytes(of: section, in: image, file: file) { readOnly.add(bytes.buffer, at: section.address) }
        }
        for literal in image.cfStrings {
            if let value = literal.value, !value.isEmpty, ReadOnlyMemory.isPrintable(value.utf8) { cfStrings[literal.address] = value }
        }
        let symbols = Self.functions(of: image, codeSections: codeSections)
        functions = FunctionTable(symbols)

        let byName = Dictionary(symbols.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        func callee(_ name: String, importIndex: Int?) -> CallSite.Callee {
            if let importIndex, image.imports.indices.contains(importIndex) {
                return .imported(MachOReader.cName(image.imports[importIndex].name))
            }
            let name = MachOReader.cName(name)
            return byName[name].map(CallSite.Callee.function) ?? .imported(name)
        }
        for stub in image.symbolStubs {
            stubs[stub.address] = Stub(callee: callee(stub.name, importIndex: stub.importIndex))
        }
        for stub in image.objcStubs {
            stubs[stub.address] = Stub(callee: .imported("objc_msgSend"), selector: stub.selector)
        }
        for pointer in image.symbolPointers {
            slots[pointer.address] = callee(pointer.name, importIndex: pointer.importIndex)
        }
        for reference in image.selectorReferences { selectors[reference.address] = reference.selector }
        for reference in image.classReferences { classes[reference.address] = reference.className }
    }

    func stub(at address: UInt64) -> Stub? { stubs[address] }

    var allStubs: [UInt64: Stub] { stubs }

    var allPointerSlots: [UInt64: CallSite.Callee] { slots }

    var allSelectorReferences: [UInt64: String] { selectors }

    func pointerSlot(at address: UInt64) -> CallSite.Callee? { slots[address] }

    func string(at address: UInt64) -> String? { cfStrings[address] ?? readOnly.string(at: address) }

    func selector(referencedAt address: UInt64) -> String? { selectors[address] }

    func addresses(ofLiterals literals: Set<String>) -> [UInt64] {
        readOnly.addresses(of: literals) + cfStrings.compactMap { literals.contains($0.value) ? $0.key : nil }
    }

    func className(referencedAt address: UInt64) -> String? { classes[address] }

    /// A section of instructions that is not a stub section.
    private static func isCode(_ section: Section) -> Bool {
        section.flags & instructionAttributes != 0 && section.type != .symbolStubs && section.hasFileContents
            && !linkerStubSections.contains(section.name)
    }

    /// The bytes of `section` in `file`, and their offset from the start of
    /// the file; `nil` when they run past the image or the buffer.
    private static func bytes(
        of section: Section, in image: MachOImage, file: UnsafeRawBufferPointer
    ) -> (buffer: UnsafeRawBufferPointer, fileOffset: UInt64)? {
        guard section.hasFileContents else { return nil }
        let (end, overflow) = UInt64(section.fileOffset).addingReportingOverflow(section.size)
        guard !overflow, end <= UInt64(image.size) else { return nil }
        let start = UInt64(image.fileOffset) + UInt64(section.fileOffset)
        guard start + section.size <= UInt64(file.count) else { return nil }
        return (UnsafeRawBufferPointer(rebasing: file[Int(start)..<Int(start + section.size)]), start)
    }

    /// Functions from the symbol table's defined symbols in code sections
    /// (an external name wins over a local one at the same address), then
    /// the exports the symbol table does not name (a stripped image), then
    /// the Objective-C methods and function starts none of those names.
    private static func functions(of image: MachOImage, codeSections: [(Int, Section)]) -> [FunctionSymbol] {
        let sections = Dictionary(codeSections, uniquingKeysWith: { first, _ in first })
        let ranges = codeSections.map(\.1).sorted { $0.address < $1.address }
        /// The code section that holds `address` (of overlapping ones, the
        /// one that starts last before it).
        func section(holding address: UInt64) -> Section? {
            ranges.lastIndex(atOrBefore: address, address: \.address).map { ranges[$0] }.flatMap {
                address - $0.address < $0.size ? $0 : nil
            }
        }
        var named: [UInt64: (name: String, isExternal: Bool)] = [:]
        named.reserveCapacity(image.symbols.count)
        for symbol in image.symbols where symbol.kind == .section && !symbol.name.isEmpty {
            guard let section = sections[Int(symbol.sectionNumber)], symbol.value >= section.address,
                symbol.value - section.address < section.size
            else { continue }
            if let known = named[symbol.value], known.isExternal || !symbol.isExternal { continue }
            named[symbol.value] = (MachOReader.cName(symbol.name), symbol.isExternal)
        }
        // A stripped image keeps the names of its exports in the trie.
        // (By index: the loop copies no export.)
        var exported = Set<UInt64>(minimumCapacity: image.exports.count)
        for index in image.exports.indices where image.exports[index].kind == .regular && image.exports[index].reexport == nil {
            guard let address = image.exports[index].address else { continue }
            exported.insert(address)
            guard named[address] == nil, section(holding: address) != nil else { continue }
            named[address] = (MachOReader.cName(image.exports[index].name), true)
        }
        for method in image.objcMethods where named[method.address] == nil && section(holding: method.address) != nil {
            named[method.address] = (method.name, false)
        }
        for start in image.functionStarts where named[start] == nil && section(holding: start) != nil {
            named[start] = ("sub_" + String(start, radix: 16), false)
        }
        let addresses = named.keys.sorted()
        return addresses.indices.map { index in
            let address = addresses[index]
            // Every address lies in a code section (checked above), so
            // neither difference can overflow.
            var size = section(holding: address).map { $0.size - (address - $0.address) } ?? 0
            if index + 1 < addresses.count { size = min(size, addresses[index + 1] - address) }
            return FunctionSymbol(name: named[address]!.name, address: address, size: size, isExported: exported.contains(address))
        }
    }
}
