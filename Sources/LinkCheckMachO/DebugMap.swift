/// An image's debug map: the stabs (`N_STAB` entries of the symbol table,
/// `<mach-o/stab.h>`) the linker writes when its inputs carry DWARF, naming
/// each object file the image was linked from and where that object's
/// functions and static variables landed. The DWARF itself stays in the
/// object files; `dsymutil` follows the map to link it into a dSYM.
///
/// The linker writes, per object file: `N_SO` (the source's directory), `N_SO`
/// (the source file), `N_OSO` (the object's path, `n_value` its modification
/// time), then for each function `N_BNSYM`, `N_FUN` (name, address),
/// `N_FUN` (empty name, `n_value` the size), `N_ENSYM`, and for each static
/// variable `N_STSYM` (name, address), `N_GSYM` for a global (name only),
/// and an empty `N_SO` to close the object.
public struct DebugMap: Sendable, Hashable {
    /// The objects, in symbol-table order.
    public var objects: [Object]

    /// One object file of the map.
    public struct Object: Sendable, Hashable {
        /// `N_OSO`'s name: the object's path as the linker saw it
        /// (absolute), or for a member of a static archive
        /// `/path/libX.a(member.o)`.
        public var name: String
        /// `N_OSO`'s `n_value`: the object's (or archive member's)
        /// modification time when it was linked, in seconds since the epoch;
        /// 0 when the linker did not record it.
        public var modificationTime: UInt64
        /// The functions (`N_FUN`) and static variables (`N_STSYM`) the
        /// object defines, in order.
        public var symbols: [Symbol]

        /// The object file's path: ``name`` without an archive member.
        public var path: String { archiveMember == nil ? name : String(name[..<(name.lastIndex(of: "(") ?? name.endIndex)]) }

        /// The archive member of `libX.a(member.o)`; `nil` for a plain object.
        public var archiveMember: String? {
            guard name.hasSuffix(")"), let open = name.lastIndex(of: "("), open > name.startIndex else { return nil }
            return String(name[name.index(after: open)..<name.index(before: name.endIndex)])
        }
    }

    /// A function or static variable of an object, where it is in the image.
    public struct Symbol: Sendable, Hashable {
        /// The symbol's name (`_present_login`, `-[UPUploader retry:]`), as
        /// in the object's symbol table.
        public var name: String
        /// Its virtual address in the image.
        public var address: UInt64
        /// The function's size in bytes (the second `N_FUN`'s `n_value`);
        /// `nil` for a static variable (`N_STSYM`) or a function whose size
        /// entry is missing.
        public var size: UInt64?
        /// `true` for a function (`N_FUN`), `false` for a static variable
        /// (`N_STSYM`).
        public var isFunction: Bool
    }

    static let so: UInt8 = 0x64  // N_SO
    static let oso: UInt8 = 0x66  // N_OSO
    static let function: UInt8 = 0x24  // N_FUN
    static let staticSymbol: UInt8 = 0x26  // N_STSYM

    /// The debug map of `symbols` (an image's symbol table, every entry in
    /// order, ``MachOImage/symbols``): empty when it holds no `N_OSO`, as
    /// in an image linked from objects without DWARF, or stripped (`-S`).
    /// Entries outside an object (before its `N_OSO`, after the closing
    /// `N_SO`) are ignored.
    public init(symbols: [NlistSymbol]) {
        var objects: [Object] = []
        var current: Object?
        for symbol in symbols where symbol.isDebugEntry {
            switch symbol.type {
            case Self.oso:
                if let current { objects.append(current) }
                current = Object(name: symbol.name, modificationTime: symbol.value, symbols: [])
            case Self.so where symbol.name.isEmpty:
                if let object = current { objects.append(object) }
                current = nil
            case Self.function where current != nil:
                if symbol.name.isEmpty {
                    // The size entry closes the last function.
                    if let last = current?.symbols.indices.last, current?.symbols[last].isFunction == true,
                        current?.symbols[last].size == nil
                    {
                        current?.symbols[last].size = symbol.value
                    }
                } else {
                    current?.symbols.append(Symbol(name: symbol.name, address: symbol.value, size: nil, isFunction: true))
                }
            case Self.staticSymbol where current != nil:
                current?.symbols.append(Symbol(name: symbol.name, address: symbol.value, size: nil, isFunction: false))
            default: break
            }
        }
        if let current { objects.append(current) }
        self.objects = objects
    }

    /// Whether the map names no object.
    public var isEmpty: Bool { objects.isEmpty }

    /// The object whose function holds `address` (a virtual address in the
    /// image: from the `N_FUN`'s address, less than its size past it), with
    /// that function; `nil` when no function of the map holds it.
    public func function(containing address: UInt64) -> (object: Object, function: Symbol)? {
        for object in objects {
            for symbol in object.symbols where symbol.isFunction {
                if let size = symbol.size, address >= symbol.address, address - symbol.address < size { return (object, symbol) }
            }
        }
        return nil
    }
}
