/// What the code of one image does with the functions it imports and
/// defines: its functions, and every call (and tail call) to an imported or
/// internal function. Built by `CallSiteAnalyzer` (ELF) and
/// `MachOCallSiteAnalyzer` (Mach-O) in LinkCheckCodeIndex, for x86_64 and
/// aarch64/arm64.
public struct CodeAnalysis: Sendable, Equatable {
    /// The image's functions, sorted by address, one per address. ELF:
    /// defined `STT_FUNC` or `STT_GNU_IFUNC` symbols of `.symtab` (else
    /// `.dynsym`). Mach-O: defined symbols of the symbol table in code
    /// sections (`_present_login` as `present_login`, Objective-C methods
    /// as `-[UPUploader retry:]`), the exports it does not name, the
    /// Objective-C methods of the method lists none of those names, and
    /// the other `LC_FUNCTION_STARTS` entries as `sub_<hex address>`.
    public var functions: [FunctionSymbol]
    /// Every call site found, in address order.
    public var callSites: [CallSite]
    /// Bytes of executable code disassembled.
    public var codeSize: Int

    public init(functions: [FunctionSymbol] = [], callSites: [CallSite] = [], codeSize: Int = 0) {
        self.functions = functions
        self.callSites = callSites
        self.codeSize = codeSize
    }
}

/// A function of the image.
public struct FunctionSymbol: Sendable, Equatable {
    /// The raw (mangled) name; for Mach-O without the leading `_`, as the
    /// neutral model's imports are.
    public var name: String
    /// `st_value` or `n_value`: the function's virtual address.
    public var address: UInt64
    /// `st_size` in bytes (0 when the symbol gives none: the function then
    /// runs to the next one). Mach-O records no sizes: a function runs to
    /// the next function's start or the end of its section.
    public var size: UInt64
    /// Whether other images can call it: `.dynsym` exports it (ELF), the
    /// exports trie does (Mach-O).
    public var isExported: Bool

    public init(name: String, address: UInt64, size: UInt64, isExported: Bool) {
        self.name = name
        self.address = address
        self.size = size
        self.isExported = isExported
    }
}

/// One `call`/`jmp` (x86_64) or `bl`/`b`/`blr`/`br` (aarch64) that reaches a
/// function.
///
/// An Objective-C message send is a call to `objc_msgSend` (or a variant:
/// `objc_msgSendSuper2`, `objc_msgSend_stret`, …) with ``selector`` set; a
/// call to an `objc_msgSend$sel` stub (`__TEXT,__objc_stubs`) is one to
/// `objc_msgSend` too.
public struct CallSite: Sendable, Equatable {
    public enum Callee: Sendable, Equatable {
        /// An imported function, through its PLT entry or GOT slot (ELF), or
        /// its `__stubs`/`__auth_stubs` entry or `__got`/`__auth_got`/
        /// `__la_symbol_ptr` slot (Mach-O); by its C-level name (`dlopen`,
        /// not Mach-O's `_dlopen`).
        case imported(String)
        /// A function of the image, by index in ``CodeAnalysis/functions``
        /// (for a call site a `CodeIndex` keeps, in the index's functions).
        case function(Int)
    }

    /// The instruction's virtual address.
    public var address: UInt64
    /// The instruction's offset in the file, in bytes (for a slice of a fat
    /// file, from the start of the whole file).
    public var fileOffset: UInt64
    /// The enclosing function (index in ``CodeAnalysis/functions``; for a
    /// call site a `CodeIndex` keeps, in the index's functions), or `nil` in
    /// code no symbol covers.
    public var caller: Int?
    public var callee: Callee
    /// A jump to the callee rather than a call (the caller returns from it).
    public var isTailCall: Bool
    /// Through the GOT slot rather than the PLT or stub (`-fno-plt`:
    /// `call *sym@GOTPCREL(%rip)`, or `adrp`+`ldr`+`blr`).
    public var throughGOT: Bool
    /// The string literal whose address is in the first argument register
    /// (`rdi`/`x0`) at the call, when it was loaded from read-only data in
    /// the same function; for Mach-O also a constant `CFString`
    /// (`NSClassFromString(@"UIApplication")`: `UIApplication`).
    public var firstArgument: String?
    /// The last string literal (or Mach-O constant `CFString`) the function
    /// referenced before the call, whatever the register (Swift passes
    /// literals through String conversions first).
    public var recentString: String?
    /// For an Objective-C message send, the selector sent
    /// (`sharedApplication`): the `__objc_selrefs` slot loaded into the
    /// selector register (`x1`; x86_64 `rsi`, `rdx` for the `_stret`
    /// variants) earlier in the same function, or the selector of the
    /// `objc_msgSend$sel` stub called; `nil` for every other call, and for
    /// a send whose selector cannot be seen.
    public var selector: String?
    /// For a message send to a class object, the class (`UIApplication`,
    /// for `+[UIApplication sharedApplication]`): the `__objc_classrefs`
    /// slot loaded into the receiver register (`x0`; x86_64 `rdi`, `rsi`
    /// for `_stret`) earlier in the same function, directly or through
    /// `objc_opt_self`/`objc_opt_class`. `nil` for a message to an
    /// instance, to `super`, or to a receiver that cannot be seen.
    public var receiverClass: String?

    public init(
        address: UInt64, fileOffset: UInt64, caller: Int?, callee: Callee, isTailCall: Bool = false, throughGOT: Bool = false,
        firstArgument: String? = nil, recentString: String? = nil, selector: String? = nil, receiverClass: String? = nil
    ) {
        self.address = address
        self.fileOffset = fileOffset
        self.caller = caller
        self.callee = callee
        self.isTailCall = isTailCall
        self.throughGOT = throughGOT
        self.firstArgument = firstArgument
        self.recentString = recentString
        self.selector = selector
        self.receiverClass = receiverClass
    }
}
