import LinkCheckImage

/// Where code is, for a finding: an instruction's virtual address, its
/// offset in the file and the function it is in. Call sites
/// (``CallSite``) and the loads of names (``CodeReference``) both are.
public protocol CodeLocation: Sendable {
    /// The instruction's virtual address.
    var address: UInt64 { get }
    /// Its offset in the file, in bytes (for a slice of a fat file, from
    /// the start of the whole file).
    var fileOffset: UInt64 { get }
    /// The enclosing function (for a location a ``CodeIndex`` keeps, an
    /// index into its ``CodeIndex/functions``), or `nil` in code no function
    /// covers.
    var caller: Int? { get }
}

extension CallSite: CodeLocation {}

/// An instruction that takes a name into a register without calling
/// anything: what code does with a selector or a string before it sends,
/// passes or checks it.
public struct CodeReference: CodeLocation, Equatable {
    /// What the instruction takes.
    public enum Target: Sendable, Hashable {
        /// The selector of the `__objc_selrefs` slot it loads (aarch64
        /// `ldr` from an `adrp` page, or `ldr` (literal) where the linker
        /// relaxed the pair; x86_64 `mov reg, [rip + slot]`).
        case selector(String)
        /// The string literal whose address it makes (aarch64 `adrp`+`add`
        /// or `adr`; x86_64 `lea reg, [rip + literal]`): a C string of
        /// `__cstring`, or a constant `CFString`'s characters.
        case literal(String)
        /// A `respondsToSelector:` (or `instancesRespondToSelector:`)
        /// message send, with the selector it asks about when the code
        /// shows it in the argument register (`x2`; x86_64 `rdx`): a
        /// selector reference loaded, or the selector a selector maker made
        /// from a literal, in the same function; `nil` otherwise.
        case respondsToSelector(String?)
    }

    public var address: UInt64
    public var fileOffset: UInt64
    public var caller: Int?
    public var target: Target

    public init(address: UInt64, fileOffset: UInt64, caller: Int?, target: Target) {
        self.address = address
        self.fileOffset = fileOffset
        self.caller = caller
        self.target = target
    }
}
