import LinkCheckImage

/// A `__objc_classrefs` slot: code loads the class it refers to from it.
public struct ObjCClassReference: Sendable, Hashable {
    /// The slot's virtual address (what `adrp`/`ldr` or `mov [rip+…]` load).
    public var address: UInt64
    /// The class name (`UIApplication`): the import bound into the slot
    /// less its `_OBJC_CLASS_$_` prefix, or for a class of the image itself
    /// the symbol at the slot's target, else the name in its `class_ro_t`.
    public var className: String
    /// Whether the class comes from another image (the slot is bound to an
    /// import, or in an `MH_OBJECT` file relocated against an undefined
    /// symbol).
    public var isImported: Bool
    /// For an imported class, the import (index into ``MachOImage/imports``)
    /// bound into the slot; `nil` in `MH_OBJECT` files.
    public var importIndex: Int?
    /// For a class of the image itself, its superclasses, nearest first, up
    /// to the first one another image defines (the import bound into a
    /// `class_t`'s `superclass` field) or a root class: `MyApp :
    /// UIApplication` → `[UIApplication]`. Empty for an imported class,
    /// whose superclasses its own image knows.
    public var superclasses: [String]

    public init(address: UInt64, className: String, isImported: Bool, importIndex: Int? = nil, superclasses: [String] = []) {
        self.address = address
        self.className = className
        self.isImported = isImported
        self.importIndex = importIndex
        self.superclasses = superclasses
    }
}

/// A class the image defines: a `__objc_classlist` slot and the `class_t`
/// it points to. Defining a class uses its superclasses even when no code
/// references it (`[self sharedApplication]` in a method of `MyApp :
/// UIApplication` loads no class reference).
public struct ObjCClassDefinition: Sendable, Hashable {
    /// The virtual address of its `class_t`.
    public var address: UInt64
    /// Its name: the `_OBJC_CLASS_$_` symbol at ``address``, else the name
    /// in its `class_ro_t`.
    public var className: String
    /// Its superclasses, nearest first, as ``ObjCClassReference/superclasses``.
    public var superclasses: [String]

    public init(address: UInt64, className: String, superclasses: [String]) {
        self.address = address
        self.className = className
        self.superclasses = superclasses
    }
}

/// A category the image defines: a `__objc_catlist` or `__objc_nlcatlist`
/// slot and the `category_t` it points to. A category on `UIApplication`
/// uses `UIApplication`.
public struct ObjCCategory: Sendable, Hashable {
    /// The virtual address of its `category_t`.
    public var address: UInt64
    /// The name of the class it extends (its `cls` field).
    public var className: String
}

/// A `__objc_selrefs` slot: code loads the selector it refers to from it
/// before `objc_msgSend`.
public struct SelectorReference: Sendable, Hashable {
    /// The slot's virtual address (what `ldr x1, [selref]` loads).
    public var address: UInt64
    /// The selector (`sharedApplication`, `openURL:options:completionHandler:`),
    /// the C string in `__objc_methname` the slot points to.
    public var selector: String

    public init(address: UInt64, selector: String) {
        self.address = address
        self.selector = selector
    }
}

/// An `objc_msgSend$selector` stub of `__TEXT,__objc_stubs` (Xcode 14+):
/// a call to it sends `selector`.
public struct ObjCStub: Sendable, Hashable {
    /// The stub's virtual address.
    public var address: UInt64
    /// The selector it sends.
    public var selector: String

    public init(address: UInt64, selector: String) {
        self.address = address
        self.selector = selector
    }
}

/// Objective-C class references, selector references and message stubs.
enum ObjCReferences {
    static let classPrefix = "_OBJC_CLASS_$_"

    /// Every slot of every `__objc_classrefs` section that names a class.
    static func classReferences(_ context: ReadContext, warnings: inout ReadWarnings) -> [ObjCClassReference] {
        var references: [ObjCClassReference] = []
        forEachSlot(of: ["__objc_classrefs"], context, warnings: &warnings, unnamed: "class references whose class could not be named") {
            address, slot in
            guard let named = namedClass(slot, context) else { return false }
            let importIndex: Int? = if case .bound(let index) = slot { index } else { nil }
            references.append(
                ObjCClassReference(
                    address: address, className: named.name, isImported: named.localAddress == nil, importIndex: importIndex,
                    superclasses: named.localAddress.map { superclasses(context, ofClassAt: $0) } ?? []))
            return true
        }
        return references
    }

    /// The class of every slot of every `__objc_classlist` section (each
    /// slot points to a `class_t` of the image), with its superclasses;
    /// slots whose class cannot be named are counted in a warning.
    static func classDefinitions(_ context: ReadContext, warnings: inout ReadWarnings) -> [ObjCClassDefinition] {
        var definitions: [ObjCClassDefinition] = []
        forEachSlot(of: ["__objc_classlist"], context, warnings: &warnings, unnamed: "classes that could not be named") { _, slot in
            guard case .address(let target) = slot, let name = localClassName(context, at: target) else { return false }
            definitions.append(
                ObjCClassDefinition(address: target, className: name, superclasses: superclasses(context, ofClassAt: target)))
            return true
        }
        return definitions
    }

    /// Every category of every `__objc_catlist` and `__objc_nlcatlist`
    /// section (each slot points to a `category_t`: `name`, `cls`, …,
    /// pointer-sized fields) with the class it extends: `cls` bound to an
    /// import (`_OBJC_CLASS_$_UIApplication`) names it, one pointing to a
    /// class of the image names that; categories whose class cannot be
    /// named are counted in a warning.
    static func categories(_ context: ReadContext, warnings: inout ReadWarnings) -> [ObjCCategory] {
        var categories: [ObjCCategory] = []
        let pointerSize = UInt64(context.header.pointerSize)
        forEachSlot(
            of: ["__objc_catlist", "__objc_nlcatlist"], context, warnings: &warnings, unnamed: "categories whose class could not be named"
        ) { _, slot in
            guard case .address(let category) = slot, let named = namedClass(context.slot(at: category &+ pointerSize), context) else {
                return false
            }
            categories.append(ObjCCategory(address: category, className: named.name))
            return true
        }
        return categories
    }

    /// Calls `body` with the address and content of every pointer slot of
    /// every section named one of `names` (`__DATA,__objc_classrefs` and the
    /// like), in order; the slots for which it returns `false` (what they
    /// point to could not be read) are counted in one warning per section,
    /// "N `unnamed`".
    private static func forEachSlot(
        of names: [String], _ context: ReadContext, warnings: inout ReadWarnings, unnamed: String,
        _ body: (_ address: UInt64, _ slot: SlotContent) -> Bool
    ) {
        let pointerSize = UInt64(context.header.pointerSize)
        for name in names {
            for (number, section) in context.contentSections(named: name) {
                var unresolved = 0
                for index in 0..<(section.size / pointerSize) {
                    let offset = index * pointerSize
                    if !body(section.address &+ offset, context.slot(section: number, offset: offset)) { unresolved += 1 }
                }
                if unresolved > 0 {
                    warnings.add(
                        "section \(section.qualifiedName)", at: context.image.fileOffset &+ Int(section.fileOffset),
                        "\(unresolved) \(unnamed)")
                }
            }
        }
    }

    /// The class a pointer slot names: an import it is bound to
    /// (`_OBJC_CLASS_$_UIApplication`) or a symbol it refers to, by name; a
    /// class of the image it points to, by name and address (`localAddress`);
    /// `nil` when it holds none of these or the class cannot be named.
    static func namedClass(_ slot: SlotContent, _ context: ReadContext) -> (name: String, localAddress: UInt64?)? {
        switch slot {
        case .bound(let index): (className(context.imports[index].name), nil)
        case .symbol(let index): (className(context.symbols[index].name), nil)
        case .address(let target): localClassName(context, at: target).map { ($0, target) }
        case .none: nil
        }
    }

    /// Every slot of every `__objc_selrefs` section whose selector string
    /// could be read.
    static func selectorReferences(_ context: ReadContext, warnings: inout ReadWarnings) -> [SelectorReference] {
        var references: [SelectorReference] = []
        forEachSlot(of: ["__objc_selrefs"], context, warnings: &warnings, unnamed: "selector references whose selector could not be read") {
            address, slot in
            guard case .address(let target) = slot, let selector = context.addressSpace.cString(at: target) else { return false }
            references.append(SelectorReference(address: address, selector: selector))
            return true
        }
        return references
    }

    /// The stubs of `__TEXT,__objc_stubs`: where the symbol table names them
    /// (`_objc_msgSend$sel` symbols in the section), from the names;
    /// otherwise by decoding each stub's selector load (arm64 and arm64_32:
    /// `adrp x1, selref@PAGE; ldr x1|w1, [x1, selref@PAGEOFF]`; x86_64:
    /// `mov rsi, [rip + selref]`) and looking the slot up in
    /// `selectorReferences`.
    static func stubs(_ context: ReadContext, selectorReferences: [SelectorReference], warnings: inout ReadWarnings) -> [ObjCStub] {
        let sections = context.contentSections.filter { $0.section.name == "__objc_stubs" && $0.section.segmentName == "__TEXT" }
        guard !sections.isEmpty else { return [] }
        let prefix = "_objc_msgSend$"
        let numbers = Set(sections.map(\.number))
        let named = context.symbols.filter {
            $0.kind == .section && numbers.contains(Int($0.sectionNumber)) && $0.name.hasPrefix(prefix)
        }
        if !named.isEmpty {
            return named.map { ObjCStub(address: $0.value, selector: String($0.name.dropFirst(prefix.count))) }
                .sorted { $0.address < $1.address }
        }
        let selectors = Dictionary(selectorReferences.map { ($0.address, $0.selector) }, uniquingKeysWith: { first, _ in first })
        var stubs: [ObjCStub] = []
        for (_, section) in sections {
            let bytes = context.bytes(of: section)
            switch context.header.cpu.type {
            case CPUType.arm | CPUType.abi64, CPUType.arm | CPUType.abi64_32:
                let wide = context.header.cpu.type == CPUType.arm | CPUType.abi64
                var offset = 0
                while offset + 8 <= bytes.count {
                    defer { offset += 4 }
                    guard let adrp = bytes.u32(at: offset), let load = bytes.u32(at: offset + 4),
                        adrp & 0x9f00_001f == 0x9000_0001,  // adrp x1, page
                        load & 0xffc0_03ff == (wide ? 0xf940_0021 : 0xb940_0021)  // ldr x1|w1, [x1, #imm]
                    else { continue }
                    let pc = section.address &+ UInt64(offset)
                    let immediate = Int64((adrp >> 29) & 0x3) | Int64((adrp >> 5) & 0x7_ffff) << 2
                    let pageDelta = (immediate << 43) >> 31  // sign-extend 21 bits, times 4096
                    let slot = (pc & ~0xfff) &+ UInt64(bitPattern: pageDelta) &+ UInt64((load >> 10) & 0xfff) * (wide ? 8 : 4)
                    if let selector = selectors[slot] { stubs.append(ObjCStub(address: pc, selector: selector)) }
                }
            case CPUType.x86 | CPUType.abi64:
                var offset = 0
                while offset + 7 <= bytes.count {
                    defer { offset += 1 }
                    guard bytes.u8(at: offset) == 0x48, bytes.u8(at: offset + 1) == 0x8b, bytes.u8(at: offset + 2) == 0x35,
                        let displacement = bytes.u32(at: offset + 3)
                    else { continue }  // mov rsi, [rip + disp32]
                    let pc = section.address &+ UInt64(offset)
                    let slot = pc &+ 7 &+ UInt64(bitPattern: Int64(Int32(bitPattern: displacement)))
                    if let selector = selectors[slot] { stubs.append(ObjCStub(address: pc, selector: selector)) }
                }
            default:
                warnings.add("section __TEXT,__objc_stubs", at: bytes.fileOffset, "stubs of \(context.header.cpu) are not decoded; skipped")
            }
        }
        return stubs
    }

    /// `_OBJC_CLASS_$_Name` → `Name`; other names as they are.
    static func className(_ symbol: String) -> String {
        symbol.hasPrefix(classPrefix) ? String(symbol.dropFirst(classPrefix.count)) : symbol
    }

    /// The name of the image's own class at `address` (its `class_t`): the
    /// `_OBJC_CLASS_$_` symbol there, else the `name` of the `class_ro_t`
    /// its `data` field points to.
    static func localClassName(_ context: ReadContext, at address: UInt64) -> String? {
        if let symbol = context.definedSymbol(at: address), symbol.name.hasPrefix(classPrefix) {
            return className(symbol.name)
        }
        // class_t: isa, superclass, cache, vtable, data (pointer-sized each);
        // class_ro_t: flags, instanceStart, instanceSize, [reserved on
        // 64-bit], ivarLayout, name.
        let size = UInt64(context.header.pointerSize)
        guard let data = target(context, at: address &+ 4 &* size) else { return nil }
        let ro = data & ~UInt64(0x7)  // FAST_DATA_MASK low bits
        guard let name = target(context, at: ro &+ (context.header.is64Bit ? 24 : 16)) else { return nil }
        return context.addressSpace.cString(at: name)
    }

    /// The superclasses of the image's own class whose `class_t` is at
    /// `address`, nearest first: each `superclass` field (the second
    /// pointer) that points to another class of the image names it and is
    /// followed; one bound to an import (`_OBJC_CLASS_$_UIApplication`)
    /// names the last. Stops at a root class (no superclass), a class that
    /// cannot be named, a loop, or 64 levels.
    static func superclasses(_ context: ReadContext, ofClassAt address: UInt64) -> [String] {
        let size = UInt64(context.header.pointerSize)
        var chain: [String] = []
        var seen: Set<UInt64> = [address]
        var current = address
        while chain.count < 64 {
            let slot = context.slot(at: current &+ size)
            // A loop ends the chain before its class is named again.
            if case .address(let target) = slot, !seen.insert(target).inserted { return chain }
            guard let named = namedClass(slot, context) else { return chain }
            chain.append(named.name)
            guard let local = named.localAddress else { return chain }
            current = local
        }
        return chain
    }

    /// The address the pointer at `address` points to: a rebase target, or
    /// in opcode images and object files the value stored there.
    static func target(_ context: ReadContext, at address: UInt64) -> UInt64? {
        if let target = context.rebaseTarget[address] { return target }
        guard context.fixupFormat != .chained else { return nil }
        return context.addressSpace.pointer(at: address)
    }
}
