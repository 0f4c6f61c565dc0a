import Foundation

/// The calls to imports in a Mach-O image's `__TEXT,__text` as LLVM reads
/// them, from the toolchain's tools only:
///
/// - the instructions: `llvm-objdump --macho -d` (with its `literal pool
///   for: "…"` annotation naming a C string whose address is formed, and
///   its `Objc cfstring ref: @"…"` one naming a constant `CFString`);
/// - the symbol of each stub and pointer slot: `llvm-objdump --macho
///   --indirect-symbols`;
/// - the selector of each `__objc_selrefs` slot and the class of each
///   `__objc_classrefs` slot: with bind opcodes, `--section` (objdump
///   resolves selector references itself; a class reference holds its
///   class's address, named by its `_OBJC_CLASS_$_` symbol in `llvm-nm`)
///   and `--bind`; with chained fixups, `--dyld-info` (a selector
///   reference's rebase target in `__TEXT,__objc_methname`, a class
///   reference's bind, or its rebase target's `_OBJC_CLASS_$_` symbol).
///
/// Which slot a call uses is followed through each function in address
/// order, as the calling convention has it: a register holds what the last
/// instruction that wrote it put there (`adrp`+`ldr`, `ldr` of a literal,
/// `adr`/`add`, `movq disp(%rip)`, `leaq`, or a `mov` from another
/// register), and a call keeps only the registers it preserves (arm64
/// `x19`–`x29`; x86_64 `rbx`, `rbp`, `r12`–`r15`). A call to `objc_msgSend`
/// (or a variant) sends the selector in `x1`/`rsi` (`rdx` for x86_64
/// `_stret`) to the receiver in `x0`/`rdi` (`rsi`); `objc_opt_self` and
/// `objc_opt_class` return the class they are given; a call to an
/// `objc_msgSend$selector` stub (named by its symbol) sends its selector.
/// (objdump's own `Objc
/// message:` annotations are not used: they take the last selector and
/// class references seen, whatever the register.)
public enum MachOCallOracle {
    /// A call to an import.
    public struct Call: Hashable, Sendable, CustomStringConvertible {
        public var address: UInt64
        /// The label objdump prints above the instruction, without
        /// Mach-O's leading `_` (`cs_load_plugin`, `-[CSPanel frame]`).
        public var function: String?
        /// The import, without the leading `_`.
        public var callee: String
        /// `b`/`br`/`jmp`, or a conditional branch or jump, rather than
        /// `bl`/`blr`/`call`.
        public var isTailCall: Bool
        /// For a message send, the selector of the reference in the
        /// selector register.
        public var selector: String?
        /// For a message send, the class of the reference in the receiver
        /// register.
        public var receiverClass: String?
        /// The C string whose address is in the first argument register.
        public var firstArgument: String?

        public init(
            address: UInt64, function: String?, callee: String, isTailCall: Bool, selector: String? = nil,
            receiverClass: String? = nil, firstArgument: String? = nil
        ) {
            self.address = address
            self.function = function
            self.callee = callee
            self.isTailCall = isTailCall
            self.selector = selector
            self.receiverClass = receiverClass
            self.firstArgument = firstArgument
        }

        public var description: String {
            "0x\(String(address, radix: 16)) in \(function ?? "?"): \(isTailCall ? "jump" : "call") \(callee)"
                + (selector.map { " [\(receiverClass ?? "_") \($0)]" } ?? "") + (firstArgument.map { " \"\($0)\"" } ?? "")
        }
    }

    /// What objdump shows of one image's `__TEXT,__text`.
    public struct Reading: Sendable {
        /// The calls to imports, by address.
        public var calls: [UInt64: Call] = [:]
        /// The encoding of each of those calls, by address.
        public var encodings: [UInt64: [UInt8]] = [:]
        /// Calls and jumps to stubs the indirect symbol table does not name
        /// (`LOCAL ABSOLUTE`: the symbol table was stripped of them), by
        /// address.
        public var unnamedStubCalls: Set<UInt64> = []
        /// The labels objdump prints (the symbol table's symbols), in order,
        /// by the address they label: several for one address where symbols
        /// were folded (`Foo.getter` and `Foo.setter`); a call's
        /// ``Call/function`` is the last.
        public var labels: [UInt64: [String]] = [:]
    }

    /// The calls to imports in `__TEXT,__text` of `path` (the slice `arch`
    /// of a fat file).
    ///
    /// - Throws: ``CommandFailure`` when llvm-objdump or llvm-nm fails.
    public static func read(_ path: URL, arch: String? = nil) throws -> Reading {
        let (named, unnamed) = try indirectSymbols(path, arch: arch)
        let names = Names(stubsAndSlots: named, unnamed: unnamed, references: try objcReferences(path, arch: arch))
        let isX86 = try MachOOracle.header(path, arch: arch).cpuType == "X86_64"
        let output = try MachOOracle.objdump(["-d"], path, arch: arch)
        var reading = Reading()
        var function: String?
        var registers = Registers(x86: isX86, names: names)
        var inText = false
        var labels: [String] = []
        for line in output.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasSuffix(" section") {
                inText = line.hasPrefix("(__TEXT,__text)")
                continue
            }
            guard inText else { continue }
            guard line.hasPrefix(" ") else {
                // A label: `_cs_load_plugin:`, `-[CSPanel frame]:`.
                if line.hasSuffix(":") {
                    function = cName(String(line.dropLast()))
                    labels.append(function ?? "")
                    registers = Registers(x86: isX86, names: names)
                }
                continue
            }
            guard let instruction = Instruction(line) else { continue }
            if !labels.isEmpty { reading.labels[instruction.address] = labels }
            labels = []
            let transfer = isX86 ? registers.x86(instruction) : registers.arm64(instruction)
            switch transfer {
            case .some((let callee?, let tail)):
                reading.calls[instruction.address] = registers.call(to: callee, at: instruction.address, in: function, tail: tail)
                reading.encodings[instruction.address] = instruction.bytes
            case .some((nil, let tail)):
                reading.unnamedStubCalls.insert(instruction.address)
                if !tail { registers.clearCallerSaved() }
            case nil:
                break
            }
        }
        return reading
    }

    /// The functions of `__TEXT,__text` as LLVM lists them.
    public struct Functions: Sendable {
        /// `llvm-nm -m --defined-only`: the symbols in `(__TEXT,__text)` by
        /// address, without the leading `_`; with the exports trie's symbols
        /// the symbol table lacks, which llvm-nm adds (not the function
        /// starts it adds as `<redacted function N>`).
        public var symbols: [UInt64: Set<String>] = [:]
        /// `llvm-objdump --macho --function-starts`.
        public var starts: Set<UInt64> = []
        /// The addresses `llvm-objdump --macho --exports-trie` lists (the
        /// image base is 0 in the images this reads).
        public var exported: Set<UInt64> = []
    }

    /// The functions of `path` (the slice `arch` of a fat file).
    ///
    /// - Throws: ``CommandFailure`` when llvm-nm or llvm-objdump fails.
    public static func functions(_ path: URL, arch: String? = nil) throws -> Functions {
        var functions = Functions()
        for line in try MachOOracle.nm(["-m", "--defined-only"], path, arch: arch).split(separator: "\n") {
            // "00000000000040d4 (__TEXT,__text) non-external +[CSPanel sharedApplication]"
            guard let section = line.range(of: " (__TEXT,__text) "), let address = UInt64(line[..<section.lowerBound], radix: 16) else {
                continue
            }
            var rest = line[section.upperBound...]
            for kind in ["non-external (was a private external) ", "non-external ", "weak external ", "external "]
            where rest.hasPrefix(kind) {
                rest = rest.dropFirst(kind.count)
                break
            }
            guard !rest.hasPrefix("<redacted function ") else { continue }
            functions.symbols[address, default: []].insert(cName(String(rest)))
        }
        let objdump = { (option: String) in
            try MachOOracle.objdump([option], path, arch: arch).split(separator: "\n")
        }
        functions.starts = Set(try objdump("--function-starts").compactMap { UInt64($0, radix: 16) })
        // "0x00004058  _cs_can_open"
        functions.exported = Set(try objdump("--exports-trie").compactMap { hex($0.prefix { $0 != " " }) })
        return functions
    }

    /// `--indirect-symbols`: stub and pointer-slot address → symbol, for
    /// the entries that name one, and the addresses of those that do not
    /// (`LOCAL`, `ABSOLUTE`).
    static func indirectSymbols(_ path: URL, arch: String?) throws -> (named: [UInt64: String], unnamed: Set<UInt64>) {
        var symbols: [UInt64: String] = [:]
        var unnamed = Set<UInt64>()
        let output = try MachOOracle.objdump(["--indirect-symbols"], path, arch: arch)
        for line in output.split(separator: "\n") {
            // "0x0000000000004170    38 _dlopen", "0x0000000000003342 LOCAL ABSOLUTE"
            let fields = line.split(separator: " ")
            guard fields.count >= 2, let address = hex(fields[0]) else { continue }
            if fields.count == 3, Int(fields[1]) != nil {
                symbols[address] = String(fields[2])
            } else if fields.dropFirst().allSatisfy({ $0 == "LOCAL" || $0 == "ABSOLUTE" }) {
                unnamed.insert(address)
            }
        }
        return (symbols, unnamed)
    }

    /// Selector and class references by slot address.
    struct References {
        var selectors: [UInt64: String] = [:]
        var classes: [UInt64: String] = [:]
    }

    /// The names a transfer or a load can be given.
    struct Names {
        var stubsAndSlots: [UInt64: String]
        var unnamed: Set<UInt64>
        var references: References

        /// A transfer to `target`: `(symbol, tail)` through a named stub
        /// or slot, `(nil, tail)` through an unnamed one, else `nil`.
        func transfer(to target: UInt64?, tail: Bool) -> (String?, Bool)? {
            guard let target else { return nil }
            if let name = stubsAndSlots[target] { return (name, tail) }
            return unnamed.contains(target) ? (nil, tail) : nil
        }
    }

    static func objcReferences(_ path: URL, arch: String?) throws -> References {
        func objdump(_ options: [String]) throws -> [Substring] {
            try MachOOracle.objdump(options, path, arch: arch).split(separator: "\n")
        }
        let classPrefix = "_OBJC_CLASS_$_"
        var classes: [UInt64: String] = [:]
        for line in try MachOOracle.nm(["-m"], path, arch: arch).split(separator: "\n") {
            // "000000000000c080 (__DATA,__objc_data) external _OBJC_CLASS_$_CSPanel"
            let fields = line.split(separator: " ")
            if let name = fields.last, name.hasPrefix(classPrefix), let address = UInt64(fields[0], radix: 16) {
                classes[address] = String(name.dropFirst(classPrefix.count))
            }
        }
        var references = References()
        let sections = try MachOOracle.sections(path, arch: arch)
        if try MachOOracle.usesChainedFixups(path, arch: arch) {
            let methodNames =
                sections.contains("__objc_methname")
                ? try MachOOracle.cStrings(path, arch: arch, section: "__TEXT,__objc_methname") : [:]
            for line in try objdump(["--dyld-info"]) {
                // "__DATA  __objc_selrefs   0xC000  0x001000000000427E rebase   0x427E"
                // "__DATA  __objc_classrefs 0xC060  0x8010000000000004 bind   0x0  UIKit  _OBJC_CLASS_$_UIApplication"
                let fields = line.split(separator: " ")
                guard fields.count >= 6, let slot = hex(fields[2]) else { continue }
                switch (fields[1], fields[4]) {
                case ("__objc_selrefs", "rebase"): references.selectors[slot] = hex(fields[5]).flatMap { methodNames[$0] }
                case ("__objc_classrefs", "rebase"): references.classes[slot] = hex(fields[5]).flatMap { classes[$0] }
                case ("__objc_classrefs", "bind") where fields.count >= 8 && fields[7].hasPrefix(classPrefix):
                    references.classes[slot] = String(fields[7].dropFirst(classPrefix.count))
                default: continue
                }
            }
            return references
        }
        for segment in ["__DATA", "__DATA_CONST"] {
            for line in try objdump(["--section=\(segment),__objc_selrefs"]) {
                // "000000000000c028  __TEXT:__cstring:openURL:"
                guard let slot = UInt64(line.prefix { $0 != " " }, radix: 16), let text = line.range(of: "  __TEXT:"),
                    let colon = line[text.upperBound...].firstIndex(of: ":")
                else { continue }
                references.selectors[slot] = String(line[line.index(after: colon)...])
            }
            for line in try objdump(["--section=\(segment),__objc_classrefs"]) {
                // "000000000000c060\t00000000 00000000 0000c078 00000000" (arm64: 32-bit
                // words) or "000000000000b9c8\t00 00 00 00 00 00 00 00 28 bb 00 00 …"
                // (x86_64: bytes), little-endian, 8 bytes to a slot; a bound slot
                // holds 0 until dyld binds it.
                let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
                guard let start = UInt64(fields.first ?? "", radix: 16), fields.count > 1 else { continue }
                var bytes: [UInt8] = []
                for field in fields.dropFirst() {
                    guard let value = UInt32(field, radix: 16) else { continue }
                    bytes +=
                        field.count == 8 ? (0..<4).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) } : [UInt8(truncatingIfNeeded: value)]
                }
                for offset in stride(from: 0, to: bytes.count - 7, by: 8) {
                    let pointer = bytes[offset..<offset + 8].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                    if let name = classes[pointer] { references.classes[start + UInt64(offset)] = name }
                }
            }
        }
        for line in try objdump(["--bind"]) {
            // "__DATA   __objc_classrefs   0x0000C060 pointer         0 UIKit            _OBJC_CLASS_$_UIApplication"
            let fields = line.split(separator: " ")
            guard fields.count >= 7, fields[1] == "__objc_classrefs", let slot = hex(fields[2]), fields[6].hasPrefix(classPrefix) else {
                continue
            }
            references.classes[slot] = String(fields[6].dropFirst(classPrefix.count))
        }
        return references
    }

    static func hex(_ text: Substring) -> UInt64? {
        text.hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : nil
    }

    static func cName(_ symbol: String) -> String {
        symbol.hasPrefix("_") ? String(symbol.dropFirst()) : symbol
    }

    /// One line of `llvm-objdump --macho -d`:
    /// `    4030:\t01 15 40 f9\tldr\tx1, [x8, #0x28] ; Objc selector ref: openURL:`.
    struct Instruction {
        var address: UInt64
        /// Its encoding.
        var bytes: [UInt8]
        var mnemonic: String
        /// The operands, split at top-level commas.
        var operands: [String]
        var comment: String?

        init?(_ line: Substring) {
            let columns = line.split(separator: "\t", maxSplits: 3, omittingEmptySubsequences: false)
            guard columns.count >= 3, columns[0].hasSuffix(":"),
                let address = UInt64(columns[0].dropLast().trimmingCharacters(in: .whitespaces), radix: 16)
            else { return nil }
            self.address = address
            bytes = columns[1].split(separator: " ").compactMap { UInt8($0, radix: 16) }
            mnemonic = String(columns[2])
            var rest = columns.count > 3 ? String(columns[3]) : ""
            for marker in [" ; ", " ## "] {
                if let range = rest.range(of: marker) {
                    comment = String(rest[range.upperBound...])
                    rest = String(rest[..<range.lowerBound])
                }
            }
            var parts: [String] = []
            var depth = 0
            var current = ""
            for character in rest {
                if character == "[" || character == "(" { depth += 1 }
                if character == "]" || character == ")" { depth -= 1 }
                if character == ",", depth == 0 {
                    parts.append(current.trimmingCharacters(in: .whitespaces))
                    current = ""
                } else {
                    current.append(character)
                }
            }
            if !current.trimmingCharacters(in: .whitespaces).isEmpty { parts.append(current.trimmingCharacters(in: .whitespaces)) }
            operands = parts
        }

        /// The C string objdump names in its `literal pool for: "…"` note,
        /// or the constant `CFString` in its `Objc cfstring ref: @"…"` one.
        var literal: String? {
            guard let comment, comment.hasSuffix("\"") else { return nil }
            for prefix in ["literal pool for: \"", "Objc cfstring ref: @\""] where comment.hasPrefix(prefix) {
                return String(comment.dropFirst(prefix.count).dropLast())
            }
            return nil
        }
    }

    /// What a register holds.
    enum Value: Equatable {
        /// An `adrp` page.
        case page(UInt64)
        /// An address formed (`adr`, `add` to a page, `leaq`), with the C
        /// string objdump names there.
        case address(UInt64, literal: String?)
        /// The pointer loaded from the slot at this address.
        case slot(UInt64)
    }

    /// The registers of one function, by 64-bit name (`x1`, `rsi`).
    struct Registers {
        let x86: Bool
        let names: Names
        var values: [String: Value] = [:]

        init(x86: Bool, names: Names) {
            self.x86 = x86
            self.names = names
        }

        static let arm64Preserved: Set<String> = Set((19...29).map { "x\($0)" } + ["sp"])
        static let x86Preserved: Set<String> = ["rbx", "rbp", "r12", "r13", "r14", "r15", "rsp"]
        static let x86Legacy: [String: String] = [
            "eax": "rax", "ax": "rax", "al": "rax", "ebx": "rbx", "bx": "rbx", "bl": "rbx", "ecx": "rcx", "cx": "rcx",
            "cl": "rcx", "edx": "rdx", "dx": "rdx", "dl": "rdx", "esi": "rsi", "si": "rsi", "sil": "rsi", "edi": "rdi",
            "di": "rdi", "dil": "rdi", "ebp": "rbp", "bp": "rbp", "bpl": "rbp", "esp": "rsp",
        ]

        /// `w5` → `x5`; `%esi`, `%si`, `%sil` → `rsi`; `%r8d` → `r8`.
        static func canonical(_ register: String) -> String {
            let name = register.hasPrefix("%") ? String(register.dropFirst()) : register
            if name.hasPrefix("w"), Int(name.dropFirst()) != nil { return "x" + name.dropFirst() }
            if name.hasPrefix("r"), let last = name.last, "dwb".contains(last), Int(name.dropFirst().dropLast()) != nil {
                return String(name.dropLast())
            }
            return x86Legacy[name] ?? name
        }

        static func isRegister(_ operand: String) -> Bool {
            operand.hasPrefix("%") || (operand.first == "x" || operand.first == "w") && Int(operand.dropFirst()) != nil
                || ["sp", "xzr", "wzr"].contains(operand)
        }

        /// A 64-bit general-purpose register as written (`x1`, `%rsi`,
        /// `%r14`), which alone holds a pointer.
        static func isWide(_ operand: String) -> Bool {
            let name = operand.hasPrefix("%") ? String(operand.dropFirst()) : operand
            if name.hasPrefix("x"), Int(name.dropFirst()) != nil { return true }
            return ["rax", "rbx", "rcx", "rdx", "rsi", "rdi", "rbp", "rsp"].contains(name)
                || name.hasPrefix("r") && Int(name.dropFirst()) != nil
        }

        subscript(_ register: String) -> Value? {
            get { values[Self.canonical(register)] }
            set { values[Self.canonical(register)] = newValue }
        }

        /// `#0x28`, `#-0x10`, `#18272`, `0x4170`.
        static func immediate(_ text: String) -> UInt64? {
            var digits = Substring(text)
            if digits.hasPrefix("#") { digits = digits.dropFirst() }
            let negative = digits.hasPrefix("-")
            if negative { digits = digits.dropFirst() }
            let value = digits.hasPrefix("0x") ? UInt64(digits.dropFirst(2), radix: 16) : UInt64(digits)
            return value.map { negative ? 0 &- $0 : $0 }
        }

        func slot(_ register: String) -> UInt64? {
            if case .slot(let slot) = self[register] { return slot }
            return nil
        }

        /// Follows one arm64 instruction; returns the symbol (`nil` when the
        /// table names none) and tail-ness of a transfer through a stub or
        /// a loaded slot.
        mutating func arm64(_ instruction: Instruction) -> (String?, Bool)? {
            let operands = instruction.operands
            let mnemonic = instruction.mnemonic
            switch mnemonic {
            case "bl", "b", "blr", "br":
                let tail = mnemonic.hasPrefix("b") && !mnemonic.hasPrefix("bl")
                if let stub = Self.selectorStub(operands) { return (stub, tail) }
                let target = operands.count != 1 ? nil : mnemonic.hasSuffix("r") ? slot(operands[0]) : Self.immediate(operands[0])
                guard let transfer = names.transfer(to: target, tail: tail) else {
                    if !tail { clearCallerSaved() }
                    return nil
                }
                return transfer
            case "cbz", "cbnz", "tbz", "tbnz",
                _ where mnemonic.hasPrefix("b."):
                // A conditional branch: a tail call on one path; its target
                // is the last operand.
                guard let target = operands.last else { return nil }
                if let stub = Self.selectorStub([target]) { return (stub, true) }
                return names.transfer(to: Self.immediate(target), tail: true)
            default:
                break
            }
            var assigned: Value?
            if let destination = operands.first, Self.isWide(destination) {
                switch mnemonic {
                case "adrp":
                    // "adrp x8, 8 ; 0xc000"
                    assigned = instruction.comment.flatMap(Self.immediate).map(Value.page)
                case "adr" where operands.count == 2:
                    // "adr x2, #18272": relative, in decimal.
                    assigned = Self.immediate(operands[1]).map { .address(instruction.address &+ $0, literal: instruction.literal) }
                case "add" where operands.count == 3:
                    switch self[operands[1]] {
                    case .page(let base), .address(let base, _):
                        assigned = Self.immediate(operands[2]).map { .address(base &+ $0, literal: instruction.literal) }
                    default: break
                    }
                case "ldr" where operands.count == 2, "ldur" where operands.count == 2:
                    let source = operands[1]
                    if source.hasPrefix("#") {
                        // "ldr x1, #0x7098": a literal, relative.
                        assigned = Self.immediate(source).map { .slot(instruction.address &+ $0) }
                    } else if source.hasPrefix("["), source.hasSuffix("]") {
                        let parts = source.dropFirst().dropLast().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                        switch self[parts[0]] {
                        case .page(let base), .address(let base, _):
                            assigned = .slot(base &+ (parts.count > 1 ? Self.immediate(parts[1]) ?? 0 : 0))
                        default: break
                        }
                    }
                case "mov" where operands.count == 2 && Self.isWide(operands[1]):
                    assigned = self[operands[1]]
                default:
                    break
                }
            }
            let readsOnly =
                mnemonic.hasPrefix("st") || mnemonic.hasPrefix("b.") || mnemonic.hasPrefix("cb") || mnemonic.hasPrefix("tb")
                || ["cmp", "cmn", "tst", "ccmp", "ccmn", "fcmp", "ret", "nop", "prfm", "brk"].contains(mnemonic)
            guard !readsOnly else { return nil }
            if let destination = operands.first, Self.isRegister(destination) { self[destination] = nil }
            if mnemonic == "ldp" || mnemonic == "ldpsw", operands.count > 1 { self[operands[1]] = nil }
            // Pre-indexed (`[sp, #-0x10]!`) and post-indexed (`[sp], #0x20`)
            // addresses write their base back.
            for (index, memory) in operands.enumerated()
            where memory.hasPrefix("[")
                && (memory.hasSuffix("!") || index + 1 < operands.count && operands[index + 1].hasPrefix("#"))
            {
                self[memory.dropFirst().split(separator: ",")[0].trimmingCharacters(in: CharacterSet(charactersIn: " ]!"))] = nil
            }
            if let destination = operands.first, Self.isWide(destination) { self[destination] = assigned }
            return nil
        }

        /// Follows one x86_64 instruction (AT&T syntax: the destination
        /// last); returns what ``arm64(_:)`` does.
        mutating func x86(_ instruction: Instruction) -> (String?, Bool)? {
            let operands = instruction.operands
            let mnemonic = instruction.mnemonic
            let next = instruction.address &+ UInt64(instruction.bytes.count)
            /// The slot of `disp(%rip)`; where objdump prints a symbol for
            /// the displacement, the instruction's last four bytes hold it
            /// (no immediate follows in these loads and calls).
            func ripSlot(_ operand: String) -> UInt64? {
                guard operand.hasSuffix("(%rip)") else { return nil }
                if let displacement = Self.immediate(String(operand.dropLast("(%rip)".count))) { return next &+ displacement }
                guard instruction.bytes.count >= 4 else { return nil }
                let displacement = instruction.bytes.suffix(4).reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
                return next &+ UInt64(bitPattern: Int64(Int32(bitPattern: displacement)))
            }
            switch mnemonic {
            case _ where Self.x86ConditionalJumps.contains(mnemonic):
                // A tail call on one path.
                if let stub = Self.selectorStub(operands) { return (stub, true) }
                return names.transfer(to: operands.count == 1 ? Self.immediate(operands[0]) : nil, tail: true)
            case "callq", "jmp", "jmpq":
                let tail = mnemonic != "callq"
                if let stub = Self.selectorStub(operands) { return (stub, tail) }
                var address: UInt64?
                if operands.count == 1 {
                    let target = operands[0]
                    address =
                        target.hasPrefix("*%")
                        ? slot(String(target.dropFirst()))
                        : target.hasPrefix("*") ? ripSlot(String(target.dropFirst())) : Self.immediate(target)
                }
                guard let transfer = names.transfer(to: address, tail: tail) else {
                    if !tail { clearCallerSaved() }
                    return nil
                }
                return transfer
            default:
                break
            }
            guard let destination = operands.last, destination.hasPrefix("%") else { return nil }
            if ["cmp", "test", "push", "bt", "ucomis", "comis"].contains(where: mnemonic.hasPrefix) { return nil }
            var assigned: Value?
            if Self.isWide(destination), operands.count == 2 {
                let source = operands[0]
                switch mnemonic {
                case "movq" where source.hasSuffix("(%rip)"): assigned = ripSlot(source).map(Value.slot)
                case "movq" where source.hasPrefix("%") && Self.isWide(source): assigned = self[source]
                case "leaq": assigned = ripSlot(source).map { .address($0, literal: instruction.literal) }
                default: break
                }
            }
            if mnemonic.hasPrefix("xchg"), let first = operands.first { self[first] = nil }
            self[destination] = assigned
            return nil
        }

        /// The `objc_msgSend$selector` stub objdump names as the target
        /// (`b "_objc_msgSend$openURL:"`).
        /// The x86_64 conditional jumps, as objdump names them.
        static let x86ConditionalJumps: Set<String> = [
            "jo", "jno", "jb", "jae", "je", "jne", "jbe", "ja", "js", "jns", "jp", "jnp", "jl", "jge", "jle", "jg",
        ]

        static func selectorStub(_ operands: [String]) -> String? {
            guard operands.count == 1 else { return nil }
            let target = operands[0].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            return target.hasPrefix("_objc_msgSend$") ? target : nil
        }

        mutating func clearCallerSaved() {
            let kept = x86 ? Self.x86Preserved : Self.arm64Preserved
            values = values.filter { kept.contains($0.key) }
        }

        /// The call to `symbol` at `address`, with the message it sends;
        /// then what the call leaves in the registers.
        mutating func call(to symbol: String, at address: UInt64, in function: String?, tail: Bool) -> Call {
            let stubSelector = symbol.hasPrefix("_objc_msgSend$") ? String(symbol.dropFirst("_objc_msgSend$".count)) : nil
            let callee = stubSelector == nil ? MachOCallOracle.cName(symbol) : "objc_msgSend"
            let first = x86 ? "rdi" : "x0"
            var call = Call(address: address, function: function, callee: callee, isTailCall: tail)
            if case .address(_, let literal) = self[first] { call.firstArgument = literal }
            let sends = [
                "objc_msgSend", "objc_msgSend_stret", "objc_msgSend_fpret", "objc_msgSend_fp2ret", "objc_msgSendSuper",
                "objc_msgSendSuper_stret", "objc_msgSendSuper2", "objc_msgSendSuper2_stret",
            ]
            if sends.contains(callee) {
                let stret = x86 && callee.hasSuffix("_stret")
                let (receiver, selector) = x86 ? (stret ? ("rsi", "rdx") : ("rdi", "rsi")) : ("x0", "x1")
                call.selector = stubSelector ?? slot(selector).flatMap { names.references.selectors[$0] }
                if !callee.hasPrefix("objc_msgSendSuper") { call.receiverClass = slot(receiver).flatMap { names.references.classes[$0] } }
            }
            if !tail {
                let receiver = self[first]
                clearCallerSaved()
                if callee == "objc_opt_self" || callee == "objc_opt_class", case .slot = receiver {
                    self[x86 ? "rax" : "x0"] = receiver
                }
            }
            return call
        }
    }
}
