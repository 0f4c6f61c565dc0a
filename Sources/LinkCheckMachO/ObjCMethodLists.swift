/// A method an Objective-C class or category of the image defines: where
/// its implementation starts and its name as clang names its symbol, which
/// a stripped image no longer has.
public struct ObjCMethod: Sendable, Hashable {
    /// The implementation's virtual address (`method_t.imp`).
    public var address: UInt64
    /// `-[Class selector]` or `+[Class selector]`; for a method of a
    /// category `-[Class(Category) selector]`, as clang names it and
    /// `llvm-objdump --objc-meta-data` prints it.
    public var name: String

    public init(address: UInt64, name: String) {
        self.address = address
        self.name = name
    }
}

/// The method lists of the classes (`__objc_classlist`) and categories
/// (`__objc_catlist`, `__objc_nlcatlist`) of a 64-bit image, as the
/// Objective-C runtime's `objc-runtime-new.h` lays them out:
///
/// - `class_t`: `isa` (the metaclass), `superclass`, `cache`, `vtable`,
///   `data` (the `class_ro_t`, low 3 bits flags); the class's instance
///   methods are its `class_ro_t`'s, its class methods its metaclass's;
/// - `class_ro_t`: `flags`, `instanceStart`, `instanceSize`, `reserved`
///   (4 bytes each), then `ivarLayout`, `name`, `baseMethods`, …;
/// - `category_t`: `name`, `cls`, `instanceMethods`, `classMethods`, …;
/// - `method_list_t`: `entsizeAndFlags` (bit 31: relative), `count`, then
///   the methods: `name` (the selector's string), `types`, `imp` pointers,
///   or in a relative list three 32-bit offsets from each field's own
///   address, `name`'s to the selector reference that holds the string.
///
/// Only names are taken from them (to name functions): a list that cannot
/// be read is passed over without a warning, and its methods keep the
/// names the symbol table or `LC_FUNCTION_STARTS` give.
enum ObjCMethodLists {
    /// The methods of the image's `classes` (``ObjCReferences/classDefinitions(_:warnings:)``)
    /// and `categories` (``ObjCReferences/categories(_:warnings:)``) whose
    /// method lists can be read, classes first, each in section order.
    /// Empty for 32-bit images.
    static func methods(_ context: ReadContext, classes: [ObjCClassDefinition], categories: [ObjCCategory]) -> [ObjCMethod] {
        guard context.header.is64Bit else { return [] }
        var methods: [ObjCMethod] = []
        for definition in classes {
            methods += list(
                context, of: readOnlyField(context, classAt: definition.address, offset: 32), prefix: "-[\(definition.className) ")
            if let metaclass = ObjCReferences.target(context, at: definition.address) {
                methods += list(context, of: readOnlyField(context, classAt: metaclass, offset: 32), prefix: "+[\(definition.className) ")
            }
        }
        for category in categories {
            guard let categoryName = ObjCReferences.target(context, at: category.address).flatMap(context.addressSpace.cString(at:))
            else { continue }
            let owner = "\(category.className)(\(categoryName))"
            methods += list(context, of: ObjCReferences.target(context, at: category.address &+ 16), prefix: "-[\(owner) ")
            methods += list(context, of: ObjCReferences.target(context, at: category.address &+ 24), prefix: "+[\(owner) ")
        }
        return methods
    }

    /// The pointer at `offset` bytes into the `class_ro_t` of the class
    /// whose `class_t` is at `classAddress`.
    private static func readOnlyField(_ context: ReadContext, classAt classAddress: UInt64, offset: UInt64) -> UInt64? {
        guard let data = ObjCReferences.target(context, at: classAddress &+ 32) else { return nil }
        return ObjCReferences.target(context, at: (data & ~0x7) &+ offset)
    }

    /// The methods of the `method_list_t` at `address`, named `prefix` +
    /// selector + `]`.
    private static func list(_ context: ReadContext, of address: UInt64?, prefix: String) -> [ObjCMethod] {
        guard let address, let offset = context.addressSpace.fileOffset(of: address, size: 8),
            let flags = context.image.u32(at: offset), let count = context.image.u32(at: offset + 4)
        else { return [] }
        let relative = flags & 0x8000_0000 != 0
        let size = UInt64(flags & 0xfffc)
        // Every entry lies in the file (a malformed count ends here).
        guard size >= (relative ? 12 : 24), context.addressSpace.fileOffset(of: address, size: 8 + Int(count) * Int(size)) != nil
        else { return [] }
        var methods: [ObjCMethod] = []
        for index in 0..<UInt64(count) {
            let method = address &+ 8 &+ index &* size
            let selector: String?
            let implementation: UInt64?
            if relative {
                guard let nameField = relativeTarget(context, at: method), let impField = relativeTarget(context, at: method &+ 8) else {
                    break
                }
                selector = ObjCReferences.target(context, at: nameField).flatMap(context.addressSpace.cString(at:))
                implementation = impField
            } else {
                selector = ObjCReferences.target(context, at: method).flatMap(context.addressSpace.cString(at:))
                implementation = ObjCReferences.target(context, at: method &+ 16)
            }
            guard let selector, let implementation, implementation != 0 else { continue }
            methods.append(ObjCMethod(address: implementation, name: prefix + selector + "]"))
        }
        return methods
    }

    /// The address a 32-bit offset at `address` points to, relative to
    /// `address` itself.
    private static func relativeTarget(_ context: ReadContext, at address: UInt64) -> UInt64? {
        guard let offset = context.addressSpace.fileOffset(of: address, size: 4), let raw = context.image.u32(at: offset) else {
            return nil
        }
        return address &+ UInt64(bitPattern: Int64(Int32(bitPattern: raw)))
    }
}
