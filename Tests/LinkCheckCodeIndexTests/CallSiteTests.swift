#if canImport(CLibELF)  // ELF read through libelf: not in a build without it (Package.swift)
import CByteScan
import Foundation
import LinkCheckCodeIndex
import LinkCheckELF
import LinkCheckImage
import LinkCheckTestSupport
import Testing

/// Call sites found with Capstone, checked against llvm-objdump (the
/// toolchain's, which reads every target) on Tests/Fixtures/callsites.c.
@Suite struct CallSiteTests {
    /// Builds callsites.c into `directory` (which the caller keeps alive).
    static func build(_ target: String, _ flags: [String] = [], in directory: TemporaryDirectory) throws -> URL {
        try Fixtures.compile("callsites.c", to: directory.path("libcallsites.so"), target: target, flags: ["-shared", "-O2"] + flags)
    }

    /// `address → imported name` for every call site objdump shows going to a
    /// `<name@plt>` entry: calls, jumps and conditional jumps (x86_64 `jcc`;
    /// aarch64 `b.cond`, `cbz`/`cbnz`, `tbz`/`tbnz`).
    static func objdumpPLTCalls(_ library: URL) throws -> [UInt64: String] {
        let output = try ELFDisassembly.of(library.path)
        var calls: [UInt64: String] = [:]
        let transfer = #"(?:callq?|j[a-z]+|bl|b(?:\.[a-z]+)?|cbn?z\s+[wx]\d+,|tbn?z\s+[wx]\d+, #0x[0-9a-f]+,)"#
        for match in try Browser.captures(#"\n\s*([0-9a-f]+):\s+"# + transfer + #"\s+0x[0-9a-f]+ <([^>@]+)@plt>"#, in: output) {
            calls[UInt64(match[0], radix: 16)!] = match[1]
        }
        return calls
    }

    static func imported(_ analysis: CodeAnalysis) -> [UInt64: String] {
        var calls: [UInt64: String] = [:]
        for site in analysis.callSites {
            if case .imported(let name) = site.callee { calls[site.address] = name }
        }
        return calls
    }

    static func site(_ analysis: CodeAnalysis, calling name: String) -> CallSite? {
        analysis.callSites.first { $0.callee == .imported(name) }
    }

    static func caller(_ analysis: CodeAnalysis, _ site: CallSite?) -> String? {
        site?.caller.map { analysis.functions[$0].name }
    }

    @Test(arguments: ["x86_64-linux-gnu", "aarch64-linux-gnu"])
    func pltCallsEqualObjdumps(target: String) throws {
        let directory = try Fixtures.temporaryDirectory()
        let library = try Self.build(target, in: directory)
        let analysis = try #require(try CallSiteAnalyzer.analyze(path: library.path))
        let expected = try Self.objdumpPLTCalls(library)
        #expect(Set(expected.values) == ["kit_shared", "kit_open", "dlopen", "uname"])
        #expect(Self.imported(analysis) == expected)
    }

    /// Conditional jumps to PLT entries are calls to the import, as objdump
    /// shows them.
    @Test(arguments: ["x86_64-linux-gnu", "aarch64-linux-gnu"])
    func conditionalTailCallsToPLTEqualObjdumps(target: String) throws {
        let directory = try Fixtures.temporaryDirectory()
        let library = try Fixtures.compile(
            "conditional-tail-calls.c", to: directory.path("libcond.so"), target: target, flags: ["-shared", "-O2"])
        let analysis = try #require(try CallSiteAnalyzer.analyze(path: library.path))
        let expected = try Self.objdumpPLTCalls(library)
        #expect(expected.values.sorted() == ["dlopen", "kit_open", "kit_open"])
        #expect(Self.imported(analysis) == expected)
        let open = analysis.callSites.filter { $0.callee == .imported("kit_open") }
        #expect(open.map { Self.caller(analysis, $0) } == ["open_if_set", "open_if_flag"])
        #expect(open.allSatisfy { $0.isTailCall })
    }

    @Test(arguments: ["x86_64-linux-gnu", "aarch64-linux-gnu"])
    func callersTailCallsAndArguments(target: String) throws {
        let directory = try Fixtures.temporaryDirectory()
        let library = try Self.build(target, in: directory)
        let analysis = try #require(try CallSiteAnalyzer.analyze(path: library.path))
        let shared = Self.site(analysis, calling: "kit_shared")
        #expect(Self.caller(analysis, shared) == "open_in_app")
        let open = Self.site(analysis, calling: "kit_open")
        #expect(Self.caller(analysis, open) == "open_url")
        #expect(open?.isTailCall == true, "return kit_open(url) compiles to a jump")
        let loads = analysis.callSites.filter { $0.callee == .imported("dlopen") }
        #expect(loads.map { Self.caller(analysis, $0) } == ["load_plugin", "load_named"])
        #expect(loads.map(\.firstArgument) == ["libplugin.so", nil], "a literal, then a parameter")
        // The internal call graph: share_photo → open_in_app, use_static_copy → kit_shared_static.
        let names = analysis.functions.map(\.name)
        let internalCalls = analysis.callSites.compactMap { site -> String? in
            guard case .function(let callee) = site.callee, let caller = site.caller else { return nil }
            return "\(names[caller]) → \(names[callee])"
        }
        #expect(
            Set(internalCalls).isSuperset(of: [
                "share_photo → open_in_app", "load_plugin → os_version", "use_static_copy → kit_shared_static",
            ]))
        #expect(analysis.functions.first { $0.name == "share_photo" }?.isExported == true)
        #expect(analysis.functions.first { $0.name == "open_in_app" }?.isExported == false)
    }

    @Test(.enabled(if: Readelf.isAvailable, "needs readelf"))
    func noPLTCallsGoThroughTheGOTOnX86() throws {
        let directory = try Fixtures.temporaryDirectory()
        let library = try Self.build("x86_64-linux-gnu", ["-fno-plt"], in: directory)
        let analysis = try #require(try CallSiteAnalyzer.analyze(path: library.path))
        // objdump: `call/jmp *DISP(%rip)  # SLOT`; readelf -r: SLOT → symbol.
        let disassembly = try ELFDisassembly.of(library.path)
        let relocations = try Command.run("readelf", ["-r", "-W", library.path]).standardOutput
        var slots: [UInt64: String] = [:]
        for match in try Browser.captures(#"\n([0-9a-f]{8,16})\s+[0-9a-f]+\s+R_X86_64_GLOB_DAT\s+[0-9a-f]+\s+(\w+)"#, in: relocations) {
            slots[UInt64(match[0], radix: 16)!] = match[1]
        }
        var expected: [UInt64: String] = [:]
        for match in try Browser.captures(
            #"\n\s*([0-9a-f]+):\s+(?:callq?|jmpq?)\s+\*0x[0-9a-f]+\(%rip\)\s+# 0x([0-9a-f]+)"#, in: disassembly)
        {
            if let name = slots[UInt64(match[1], radix: 16)!] { expected[UInt64(match[0], radix: 16)!] = name }
        }
        #expect(Set(expected.values) == ["kit_shared", "kit_open", "dlopen", "uname"])
        #expect(Self.imported(analysis) == expected)
        let importCalls = analysis.callSites.filter { if case .imported = $0.callee { return true } else { return false } }
        #expect(importCalls.allSatisfy { $0.throughGOT })
    }

    /// A name defined at two addresses (a `static` function of one file and
    /// the exported one of another): the GOT slot of the exported symbol
    /// (`R_X86_64_JUMP_SLOT` of its PLT entry, as `-fsemantic-interposition`
    /// makes the call) holds the function at the symbol's address
    /// (`st_value`), not the first of the name.
    @Test(.enabled(if: Readelf.isAvailable, "needs readelf"))
    func aGOTSlotHoldsTheFunctionAtItsSymbolsAddressWhenTheNameIsDefinedTwice() throws {
        let directory = try Fixtures.temporaryDirectory()
        let local = try Fixtures.compile(
            "local-twin.c",
            code: """
                __attribute__((noinline, used)) static int twin(void) { return 1; }
                int call_local_twin(void) { return twin() + 1; }
                """, to: directory.path("local-twin.o"), flags: ["-c"])
        let library = try Fixtures.compile(
            "exported-twin.c",
            code: """
                __attribute__((noinline)) int twin(void) { return 2; }
                int call_exported_twin(void) { return twin() + 3; }
                """, to: directory.path("libtwins.so"), flags: ["-shared", "-fsemantic-interposition", local.path])
        let symbols = try Command.run("readelf", ["--dyn-syms", "-W", library.path]).standardOutput
        let exported = try #require(
            symbols.split(separator: "\n").first { $0.hasSuffix(" twin") }.flatMap {
                UInt64($0.split(separator: " ")[1], radix: 16)
            })
        let analysis = try #require(try CallSiteAnalyzer.analyze(path: library.path))
        let twins = analysis.functions.filter { $0.name == "twin" }
        #expect(twins.count == 2, "a local and an exported twin: \(twins)")
        #expect(twins.first.map { $0.address < exported } == true, "the local twin comes first")
        let caller = try #require(analysis.functions.firstIndex { $0.name == "call_exported_twin" })
        let calls = analysis.callSites.filter { $0.caller == caller }
        #expect(calls.count == 1)
        guard case .function(let callee) = calls.first?.callee else {
            Issue.record("the call is to a function of the image: \(calls)")
            return
        }
        #expect(analysis.functions[callee].address == exported)
    }

    /// A defined GOT symbol whose address starts a function named otherwise
    /// (the function table names it by its last global symbol, the alias
    /// `other_name`) holds the first function of its name by address
    /// (`readGOT`'s rule): here the `static` twin of another file, found by
    /// name among all functions.
    @Test func aGOTSlotOfAnAliasHoldsTheFirstFunctionOfItsName() throws {
        let directory = try Fixtures.temporaryDirectory()
        let local = try Fixtures.compile(
            "local-twin.c",
            code: """
                __attribute__((noinline, used)) static int twin(void) { return 1; }
                int call_local_twin(void) { return twin() + 1; }
                """, to: directory.path("local-twin.o"), flags: ["-c"])
        let library = try Fixtures.compile(
            "aliased-twin.c",
            code: """
                __attribute__((noinline)) int twin(void) { return 2; }
                extern int other_name(void) __attribute__((alias("twin")));
                int call_aliased_twin(void) { return twin() + 3; }
                """, to: directory.path("libaliases.so"), flags: ["-shared", "-fsemantic-interposition", local.path])
        let analysis = try #require(try CallSiteAnalyzer.analyze(path: library.path))
        let names = analysis.functions.map(\.name)
        let twin = try #require(analysis.functions.firstIndex { $0.name == "twin" })
        #expect(names.filter { $0 == "twin" }.count == 1 && names.contains("other_name"), "\(names)")
        let caller = try #require(analysis.functions.firstIndex { $0.name == "call_aliased_twin" })
        let calls = analysis.callSites.filter { $0.caller == caller }
        #expect(calls.count == 1)
        guard case .function(let callee) = calls.first?.callee else {
            Issue.record("the call is to a function of the image: \(calls)")
            return
        }
        #expect(callee == twin)
    }

    /// `66 0F 84 rel16` is a `je` and `66 E8 rel16` a call, each to a
    /// target wrapped at 64 KiB (as Capstone reads them): both reach their
    /// function, the first as a tail call.
    @Test func branchesWithAnOperandSizePrefixReachTheirFunctions() throws {
        let directory = try Fixtures.temporaryDirectory()
        let library = try Fixtures.compile("operand-size-branches.c", to: directory.path("liboperandsize.so"))
        let analysis = try #require(try CallSiteAnalyzer.analyze(path: library.path))
        func calls(from caller: String) -> [String] {
            analysis.callSites.filter { $0.caller.map { analysis.functions[$0].name } == caller }.map { site in
                guard case .function(let callee) = site.callee else { return "\(site.callee)" }
                return "\(analysis.functions[callee].name)\(site.isTailCall ? " (tail)" : "")"
            }
        }
        #expect(calls(from: "wrapped_jumper") == ["wrapped_jump_target (tail)"])
        #expect(calls(from: "prefixed_caller") == ["wrapped_callee"])
        // The targeted search's byte scan looks for the wrapped targets too.
        let image = try ELFReader.read(path: library.path)
        for mode in CallSiteMode.allCases {
            let index = try #require(try CodeIndex.analyze(image, interest: .everything, mode: mode))
            func callers(of name: String) -> [String] {
                guard let function = index.functions.firstIndex(where: { $0.name == name }) else { return [] }
                return (index.callsToFunction[function] ?? []).compactMap(\.caller).map { index.functions[$0].name }
            }
            #expect(callers(of: "wrapped_callee") == ["prefixed_caller"], "\(mode)")
            #expect(callers(of: "wrapped_jump_target") == ["wrapped_jumper"], "\(mode)")
        }
    }

    @Test func noPLTCallsAreAdrpLdrBlrOnAArch64() throws {
        let directory = try Fixtures.temporaryDirectory()
        let library = try Self.build("aarch64-linux-gnu", ["-fno-plt"], in: directory)
        let analysis = try #require(try CallSiteAnalyzer.analyze(path: library.path))
        let disassembly = try ELFDisassembly.of(library.path)
        let registerBranches = Set(
            try Browser.captures(#"\n\s*([0-9a-f]+):\s+(?:blr|br)\s+x\d+"#, in: disassembly).map { UInt64($0[0], radix: 16)! })
        let found = Self.imported(analysis)
        #expect(Set(found.values) == ["kit_shared", "kit_open", "dlopen", "uname"])
        #expect(Set(found.keys).isSubset(of: registerBranches), "each is a blr/br through a GOT slot")
        let importCalls = analysis.callSites.filter { if case .imported = $0.callee { return true } else { return false } }
        #expect(importCalls.allSatisfy { $0.throughGOT })
        #expect(Self.site(analysis, calling: "dlopen")?.firstArgument == "libplugin.so")
    }

    /// Code larger than the disassembler decodes between two page releases
    /// (4 MB): what follows the pages given back is still decoded.
    @Test func callsBeyondTheCodeGivenBackAreFound() throws {
        let directory = try Fixtures.temporaryDirectory()
        let library = try Fixtures.compile(
            "padded.c",
            code: """
                void kit_shared(void);
                __asm__(".text\\n.globl padding\\n.type padding,@function\\npadding:\\n.fill 5000000,1,0x90\\n.size padding,.-padding\\n");
                void after_padding(void) { kit_shared(); }
                """, to: directory.path("libpadded.so"), flags: ["-shared", "-O2", "-fno-optimize-sibling-calls"])
        let analysis = try #require(try CallSiteAnalyzer.analyze(path: library.path))
        #expect(analysis.codeSize > 5_000_000)
        let site = try #require(Self.site(analysis, calling: "kit_shared"))
        let caller = try #require(site.caller.map { analysis.functions[$0] })
        #expect(caller.name == "after_padding")
        #expect(site.address >= caller.address && site.address < caller.address + caller.size)
        #expect(analysis.callSites.count == 1)
    }

    @Test func otherMachinesAreNotAnalysed() throws {
        let directory = try Fixtures.temporaryDirectory()
        let library = try Self.build("armv7-linux-gnueabihf", in: directory)
        #expect(try CallSiteAnalyzer.analyze(path: library.path) == nil)
        #expect(
            !CallSiteAnalyzer.supports(
                Machine(code: 40, elfClass: .elf32, dataEncoding: .lsb).architecture(elfClass: .elf32, dataEncoding: .lsb)))
    }

    @Test func theToolchainsFoundationCallsDlopenFromCFBundle() throws {
        let path = "/opt/swift/usr/lib/swift/linux/libFoundation.so"
        try #require(FileManager.default.fileExists(atPath: path))
        let analysis = try #require(try CallSiteAnalyzer.analyze(path: path))
        let callers = Set(
            analysis.callSites.filter { $0.callee == .imported("dlopen") }.compactMap { $0.caller.map { analysis.functions[$0].name } })
        #expect(callers.isSuperset(of: ["_CFBundleDlfcnLoadBundle", "_CFBundleDlfcnLoadFramework"]))
    }

    /// An index keeps the functions it refers to, not the image's tens of
    /// thousands, renumbered: each is the image's function of that address,
    /// and each call kept names the caller the full analysis does.
    @Test(arguments: CallSiteMode.allCases)
    func anIndexNamesOnlyTheFunctionsItRefersTo(mode: CallSiteMode) throws {
        let path = "/opt/swift/usr/lib/swift/linux/libFoundation.so"
        try #require(FileManager.default.fileExists(atPath: path))
        let analysis = try #require(try CallSiteAnalyzer.analyze(path: path))
        let interest = CallSiteInterest(imports: { $0 == "dlopen" })
        let index = try #require(try CodeIndex.analyze(try ELFReader.read(path: path), interest: interest, mode: mode))
        let byAddress = Dictionary(analysis.functions.map { ($0.address, $0) }, uniquingKeysWith: { first, _ in first })
        #expect(index.functions.allSatisfy { byAddress[$0.address] == $0 })
        #expect(index.functions.map(\.address) == index.functions.map(\.address).sorted())
        let sites = try #require(index.callsToImport["dlopen"])
        let expected = analysis.callSites.filter { $0.callee == .imported("dlopen") }
        #expect(sites.map(\.address) == expected.map(\.address))
        #expect(sites.map { $0.caller.map { index.functions[$0] } } == expected.map { $0.caller.map { analysis.functions[$0] } })
        if mode == .targeted { #expect(index.functions.count * 100 < analysis.functions.count) }
    }

    /// The targeted search's x86_64 byte scan gives the same calls and call
    /// paths whether it tests 32, 16 or 1 byte at a time.
    @Test func theByteScanFindsTheSameAtEveryBlockWidth() throws {
        let path = "/opt/swift/usr/lib/swift/linux/libFoundation.so"
        try #require(FileManager.default.fileExists(atPath: path))
        try BlockWidths.expectTheSameAnswers(of: try ELFReader.read(path: path), atLeast: 10_000)
    }
}
#endif
