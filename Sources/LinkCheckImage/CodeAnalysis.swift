/// What the code of one image does with the functions it imports and
/// defines: its functions, and every call (and tail call) to an imported or
/// internal function. Built by ``CallSiteAnalyzer`` for x86_64 and aarch64.
public struct CodeAnalysis: Sendable, Equatable {
    /// Functions from `.symtab` (else `.dynsym`): defined `STT_FUNC` or
    /// `STT_GNU_IFUNC` symbols, sorted by address, one per address.
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
    /// The raw (mangled) name.
    public var name: String
    /// `st_value`: the function's virtual address.
    public var address: UInt64
    /// `st_size` in bytes (0 when the symbol gives none: the function then
    /// runs to the next one).
    public var size: UInt64
    /// Whether `.dynsym` exports it (other images can call it).
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
public struct CallSite: Sendable, Equatable {
    public enum Callee: Sendable, Equatable {
        /// An imported function, through its PLT entry or GOT slot.
        case imported(String)
        /// A function of the image, by index in ``CodeAnalysis/functions``.
        case function(Int)
    }

    /// The instruction's virtual address.
    public var address: UInt64
    /// The instruction's offset in the file, in bytes.
    public var fileOffset: UInt64
    /// The enclosing function (index in ``CodeAnalysis/functions``), or
    /// `nil` in code no symbol covers.
    public var caller: Int?
    public var callee: Callee
    /// A jump to the callee rather than a call (the caller returns from it).
    public var isTailCall: Bool
    /// Through the GOT slot rather than the PLT (`-fno-plt`:
    /// `call *sym@GOTPCREL(%rip)`, or `adrp`+`ldr`+`blr`).
    public var throughGOT: Bool
    /// The string literal whose address is in the first argument register
    /// (`rdi`/`x0`) at the call, when it was loaded from read-only data in
    /// the same function.
    public var firstArgument: String?
    /// The last string literal the function referenced before the call,
    /// whatever the register (Swift passes literals through String
    /// conversions first).
    public var recentString: String?

    public init(
        address: UInt64, fileOffset: UInt64, caller: Int?, callee: Callee, isTailCall: Bool = false, throughGOT: Bool = false,
        firstArgument: String? = nil, recentString: String? = nil
    ) {
        self.address = address
        self.fileOffset = fileOffset
        self.caller = caller
        self.callee = callee
        self.isTailCall = isTailCall
        self.throughGOT = throughGOT
        self.firstArgument = firstArgument
        self.recentString = recentString
    }
}
