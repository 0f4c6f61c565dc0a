import LinkCheckImage

/// The call sites of one image that a check asks for (``CallSiteInterest``),
/// indexed for findings and kept small: the calls to the imports of
/// interest (with their addresses and literals), the Objective-C message
/// sends of the selectors of interest and the loads of their selector
/// references, the loads of the string literals of interest, the calls to
/// the functions of interest (denylisted copies), as much of the internal
/// call graph as the call paths to those calls and the imports their
/// callers reach take, and what guards the functions that hold them.
public struct CodeIndex: Sendable {
    /// The functions the index refers to, in address order: the callers of
    /// the calls kept, the functions of interest called, the functions of
    /// the call graph kept (``callers(of:)``, ``functionsReached(from:depth:)``)
    /// and those whose calls to reached imports are kept. Every function
    /// index in the index (``CallSite/caller``, ``CallSite/Callee/function(_:)``,
    /// the keys of ``callsToFunction``) is one into this list, not into the
    /// image's whole list of functions.
    public let functions: [FunctionSymbol]
    /// Imported name → the call sites that reach it, for the imports of
    /// interest. Message sends are calls to `objc_msgSend` (or the variant
    /// called) here too.
    public let callsToImport: [String: [CallSite]]
    /// Selector → the message sends of it (``CallSite/selector``), each
    /// with the class of a class message (``CallSite/receiverClass``), for
    /// the selectors of interest: `sharedApplication` → the calls of
    /// `+[UIApplication sharedApplication]` (and of any other class's
    /// `sharedApplication`).
    public let callsToSelector: [String: [CallSite]]
    /// Function → the call sites that reach it, for the functions of
    /// interest.
    public let callsToFunction: [Int: [CallSite]]
    /// Selector → the places that load one of its selector references
    /// (``CodeReference/Target/selector(_:)``), whatever the code then does
    /// with it (send it, pass it to `performSelector:` or
    /// `respondsToSelector:`, store it), for the selectors of interest.
    public let selectorLoads: [String: [CodeReference]]
    /// String literal → the places that make its address
    /// (``CodeReference/Target/literal(_:)``), for the literals of interest
    /// (``CallSiteInterest/literals``).
    public let literalLoads: [String: [CodeReference]]
    /// Function → what it does that may guard a use by name in it
    /// (``GuardCheck``), for the functions the index refers to.
    let guards: [Int32: Set<GuardCheck>]
    /// Function → the functions that call it, ascending: complete for every
    /// function a call path to a kept call site passes through (in
    /// ``CallSiteMode/targeted`` mode the others may lack callers).
    let callers: FunctionLists
    /// Function → the functions it calls, ascending: complete for the
    /// functions decoded.
    let callees: FunctionLists
    /// Function → the imports of ``CallSiteInterest/reached`` it calls.
    let importsCalled: [Int32: Set<String>]
    /// The functions that hold a kept call site or reference (of
    /// ``callsToImport``, ``callsToSelector``, ``callsToFunction``,
    /// ``selectorLoads`` or ``literalLoads``), ascending: the functions
    /// findings are located in.
    public let siteCallers: [Int]
    /// Function → ``pathFromExported(to:)``'s chain, for each of
    /// ``siteCallers``: searched for once, however many findings it holds.
    private let pathsFromExported: [Int32: [Int]]
    /// Why the image's code could not be analysed, when it could not.
    public let failure: String?

    /// An image whose code analysis failed for `reason`.
    public init(failure reason: String) {
        functions = []
        callsToImport = [:]
        callsToSelector = [:]
        callsToFunction = [:]
        selectorLoads = [:]
        literalLoads = [:]
        guards = [:]
        callers = .empty
        callees = .empty
        importsCalled = [:]
        siteCallers = []
        pathsFromExported = [:]
        failure = reason
    }

    /// Whether call sites are analysed for `image`: x86_64 and
    /// arm64/aarch64 code, 64-bit and little-endian; for Mach-O, linked
    /// images (not `MH_OBJECT` files or archive members, whose code is not
    /// relocated yet) whose code is not encrypted.
    public static func supports(_ image: BinaryImage) -> Bool {
        switch image.format {
        case .elf: CallSiteAnalyzer.supports(image.architecture)
        case .macho: MachOCallSiteAnalyzer.supports(image)
        }
    }

    /// Every call site of `image` (reading its file again, decoding all its
    /// code), for `linkcheck inspect --call-sites`.
    ///
    /// - Returns: `nil` when call sites are not analysed for the image.
    /// - Throws: ``InspectionError`` when the file cannot be read or changed
    ///   while it was read.
    public static func callSites(of image: BinaryImage) throws(InspectionError) -> CodeAnalysis? {
        guard supports(image) else { return nil }
        switch image.format {
        case .elf: return try CallSiteAnalyzer.analyze(path: image.path)
        case .macho: return try MachOCallSiteAnalyzer.analyze(image)
        }
    }

    /// Analyses the code of `image` (reading its file again) for what
    /// `interest` asks, indexing call sites as they are found, never holding
    /// them all (a large library has millions, of which a check keeps few).
    /// Both modes give the same index.
    ///
    /// - Returns: `nil` when call sites are not analysed for the image
    ///   (``supports(_:)``).
    /// - Throws: ``InspectionError`` when the file cannot be read or changed
    ///   while it was read.
    public static func analyze(
        _ image: BinaryImage, interest: CallSiteInterest, mode: CallSiteMode = .targeted
    ) throws(InspectionError) -> CodeIndex? {
        guard supports(image) else { return nil }
        switch image.format {
        case .elf: return try CallSiteAnalyzer.index(path: image.path, interest: interest, mode: mode)
        case .macho: return try MachOCallSiteAnalyzer.index(image, interest: interest, mode: mode)
        }
    }

    /// Indexes the code of an image laid out as `layout`, whose code
    /// sections are `regions.sections`: in ``CallSiteMode/full`` mode every
    /// region of the bytes `pass` gives for each section (a pass that may
    /// give back pages behind it through its `release`), in
    /// ``CallSiteMode/targeted`` mode what ``TargetedCallSearch`` finds.
    static func index<Layout: CodeLayout>(
        _ layout: Layout, architecture: Disassembler.InstructionSet, regions: CodeRegions, interest: CallSiteInterest,
        mode: CallSiteMode, pass: SectionPass
    ) -> CodeIndex? {
        guard let disassembler = Disassembler(architecture) else { return nil }
        let builder = Builder(functions: layout.functions, interest: interest)
        switch mode {
        case .full:
            var scanner = CallScanner(image: layout, architecture: architecture, record: builder.add, reference: builder.add)
            sweep(regions, disassembler: disassembler, scanner: &scanner, pass: pass)
        case .targeted:
            var search = TargetedCallSearch(
                layout: layout, architecture: architecture, regions: regions, interest: interest, disassembler: disassembler,
                builder: builder)
            search.run(pass: pass)
        }
        return builder.index()
    }

    /// Decodes every region of every section with `scanner`, giving back
    /// the pages behind every ``progressInterval`` bytes.
    static func sweep<Layout>(
        _ regions: CodeRegions, disassembler: Disassembler, scanner: inout CallScanner<Layout>, pass: SectionPass
    ) {
        for index in regions.sections.indices {
            let section = regions.sections[index]
            pass(index) { bytes, release in
                let passed = CodeBytes(address: section.address, fileOffset: section.fileOffset, bytes: bytes)
                var released: UInt64 = 0
                regions.forEachRegion(in: index) { region in
                    scanner.begin(region)
                    disassembler.decode(region, of: passed) { instruction in
                        scanner.visit(instruction, sectionOffset: section.fileOffset, sectionAddress: section.address)
                    }
                    if region.start - section.address - released >= progressInterval {
                        released = region.start - section.address
                        release(Int(released))
                    }
                }
            }
        }
    }

    /// How many bytes a sweep decodes between two page releases.
    static let progressInterval: UInt64 = 4 << 20

    /// How many regions the targeted search decodes between two page
    /// releases: each first read of a page maps the pages around it
    /// (fault-around, 64 KiB), so about 2 MiB.
    static let regionsBetweenReleases = 32

    private init(
        functions: [FunctionSymbol], callsToImport: [String: [CallSite]], callsToSelector: [String: [CallSite]],
        callsToFunction: [Int: [CallSite]], selectorLoads: [String: [CodeReference]], literalLoads: [String: [CodeReference]],
        guards: [Int32: Set<GuardCheck>], callers: FunctionLists, callees: FunctionLists, importsCalled: [Int32: Set<String>]
    ) {
        self.functions = functions
        self.callsToImport = callsToImport
        self.callsToSelector = callsToSelector
        self.callsToFunction = callsToFunction
        self.selectorLoads = selectorLoads
        self.literalLoads = literalLoads
        self.guards = guards
        self.callers = callers
        self.callees = callees
        self.importsCalled = importsCalled
        failure = nil
        siteCallers = Set(
            callsToImport.values.joined().compactMap(\.caller) + callsToSelector.values.joined().compactMap(\.caller)
                + callsToFunction.values.joined().compactMap(\.caller) + selectorLoads.values.joined().compactMap(\.caller)
                + literalLoads.values.joined().compactMap(\.caller)
        ).sorted()
        let entryPoints = functions.map { function in
            var name = function.name
            return name.withUTF8 { Self.isEntryPoint(isExported: function.isExported, name: $0) }
        }
        var search = CallerSearch(functionCount: functions.count)
        pathsFromExported = Dictionary(
            uniqueKeysWithValues: siteCallers.map { function in
                (Int32(function), search.shortestPath(to: function, isEntryPoint: { entryPoints[$0] }) { callers[$0] })
            })
    }

    /// Takes an image's call sites one at a time, keeps what the interest
    /// asks for, and makes the index.
    ///
    /// Sites, edges and ``kept`` number functions as the image's table does;
    /// ``index()`` renumbers them into the index's ``functions``.
    final class Builder {
        let functions: FunctionTable
        let interest: CallSiteInterest
        /// By function index: whether its calls are kept.
        let kept: [Bool]
        private var imports: [String: [CallSite]] = [:]
        private var selectors: [String: [CallSite]] = [:]
        private var toFunction: [Int: [CallSite]] = [:]
        private var selectorLoads: [String: [CodeReference]] = [:]
        private var literalLoads: [String: [CodeReference]] = [:]
        /// Every function's guards seen, kept for those the index refers to.
        private var guards: [Int32: Set<GuardCheck>] = [:]
        /// The calls between functions seen so far.
        private var edges = CallEdges()
        private var importsCalled: [Int32: Set<String>] = [:]
        /// Imported name → whether the interest keeps its calls.
        private var importKept: [String: Bool] = [:]

        init(functions: FunctionTable, interest: CallSiteInterest) {
            self.functions = functions
            self.interest = interest
            kept = functions.flags(whereName: interest.functions)
        }

        /// The call sites kept so far, of imports, selectors and functions.
        var keptSites: [CallSite] {
            imports.values.flatMap { $0 } + selectors.values.flatMap { $0 } + toFunction.values.flatMap { $0 }
        }

        /// The references kept so far, of selectors and literals.
        var keptReferences: [CodeReference] {
            selectorLoads.values.flatMap { $0 } + literalLoads.values.flatMap { $0 }
        }

        func add(_ reference: CodeReference) {
            switch reference.target {
            case .selector(let selector):
                if interest.selectors(selector) { selectorLoads[selector, default: []].append(reference) }
            case .literal(let text):
                if interest.literals.contains(text) { literalLoads[text, default: []].append(reference) }
                if GuardCheck.extensionMarkers.contains(text), let caller = reference.caller {
                    guards[Int32(caller), default: []].insert(.extensionCheck(text))
                }
            case .respondsToSelector(let selector):
                if let caller = reference.caller { guards[Int32(caller), default: []].insert(.respondsToSelector(selector)) }
            }
        }

        /// Whether `caller` calls `callee` in the sites given so far.
        func hasEdge(from caller: Int, to callee: Int) -> Bool {
            edges.contains(from: caller, to: callee)
        }

        /// Adds the call of `callee` by `caller` that decoding a direct
        /// branch would add when `callee`'s calls are not kept (``kept``):
        /// an edge of the call graph.
        func addEdge(from caller: Int, to callee: Int) {
            if caller != callee { edges.insert(from: caller, to: callee) }
        }

        func add(_ site: CallSite) {
            switch site.callee {
            case .imported(let name):
                if isKept(name) { imports[name, default: []].append(site) }
                if let selector = site.selector, interest.selectors(selector) { selectors[selector, default: []].append(site) }
                if let caller = site.caller, interest.reached(name) { importsCalled[Int32(caller), default: []].insert(name) }
            case .function(let callee):
                if kept[callee] { toFunction[callee, default: []].append(site) }
                if let caller = site.caller, caller != callee { edges.insert(from: caller, to: callee) }
            }
        }

        func isKept(_ name: String) -> Bool {
            if let known = importKept[name] { return known }
            let keep = interest.imports(name)
            importKept[name] = keep
            return keep
        }

        /// The index of the sites given, its functions only those it refers
        /// to (named now, while the image's string tables are readable),
        /// renumbered in address order.
        func index() -> CodeIndex {
            let sortedEdges = edges.sorted()
            /// Image's function index → the index's, -1 for those left out.
            var number = [Int32](repeating: -1, count: functions.count)
            func refer(_ function: Int) { number[function] = 0 }
            for site in keptSites {
                site.caller.map(refer)
                if case .function(let callee) = site.callee { refer(callee) }
            }
            for reference in keptReferences { reference.caller.map(refer) }
            for edge in sortedEdges {
                refer(Int(edge >> 32))
                refer(Int(Int32(truncatingIfNeeded: edge)))
            }
            for caller in importsCalled.keys { refer(Int(caller)) }
            var named: [FunctionSymbol] = []
            for function in number.indices where number[function] == 0 {
                number[function] = Int32(named.count)
                named.append(functions.symbol(function))
            }
            func renumbered(_ references: [CodeReference]) -> [CodeReference] {
                references.map { reference in
                    var reference = reference
                    reference.caller = reference.caller.map { Int(number[$0]) }
                    return reference
                }
            }
            func renumbered(_ sites: [CallSite]) -> [CallSite] {
                sites.map { site in
                    var site = site
                    site.caller = site.caller.map { Int(number[$0]) }
                    if case .function(let callee) = site.callee { site.callee = .function(Int(number[callee])) }
                    return site
                }
            }
            // Renumbering keeps the order: both lists stay ascending.
            let calls = sortedEdges.map { edge in (caller: number[Int(edge >> 32)], callee: number[Int(Int32(truncatingIfNeeded: edge))]) }
            let callers = FunctionLists(count: named.count, pairs: calls.map { ($0.callee, $0.caller) })
            let callees = FunctionLists(count: named.count, pairs: calls.map { ($0.caller, $0.callee) })
            return CodeIndex(
                functions: named, callsToImport: imports.mapValues(renumbered), callsToSelector: selectors.mapValues(renumbered),
                callsToFunction: Dictionary(uniqueKeysWithValues: toFunction.map { (Int(number[$0.key]), renumbered($0.value)) }),
                selectorLoads: selectorLoads.mapValues(renumbered), literalLoads: literalLoads.mapValues(renumbered),
                guards: Dictionary(
                    uniqueKeysWithValues: guards.compactMap { number[Int($0.key)] >= 0 ? (number[Int($0.key)], $0.value) : nil }),
                callers: callers, callees: callees,
                importsCalled: Dictionary(uniqueKeysWithValues: importsCalled.map { (number[Int($0.key)], $0.value) }))
        }
    }

    /// The message sends of `selector` that may reach a method of a class
    /// of `classNames` (a class and its subclasses, whose class objects
    /// inherit its class methods): for a class method those whose receiver
    /// is one of those class objects or not known; for an instance method
    /// those whose receiver is not a class object the code loaded (an
    /// instance: not known here), since a send to a class object calls a
    /// class method.
    public func messageSends(of selector: String, to classNames: Set<String>, classMethod: Bool) -> [CallSite] {
        (callsToSelector[selector] ?? []).filter { site in
            guard let receiver = site.receiverClass else { return true }
            return classMethod && classNames.contains(receiver)
        }
    }

    /// The loads of `selector`'s selector references (``selectorLoads``)
    /// in the functions that never send it: where code passes the selector
    /// on (`performSelector:`, `respondsToSelector:`) or keeps it.
    public func selectorLoadsNotSent(_ selector: String) -> [CodeReference] {
        let senders = Set((callsToSelector[selector] ?? []).map(\.caller))
        return (selectorLoads[selector] ?? []).filter { !senders.contains($0.caller) }
    }

    /// The shortest chain of functions from an entry point down to
    /// `function` (both included), breadth-first over the callers. An entry
    /// point is a function that other images or the Objective-C runtime call
    /// and nothing in the image calls: an exported function, or an
    /// Objective-C method (`-[UPUploader retry:]`, which the runtime calls
    /// for a message send from anywhere). Debug builds export internal Swift
    /// functions too, so "exported" alone would stop at the helper. Failing
    /// that, any such function; failing that, `[function]`.
    public func pathFromExported(to function: Int) -> [Int] {
        if let known = pathsFromExported[Int32(function)] { return known }
        var search = CallerSearch(functionCount: functions.count)
        return search.shortestPath(
            to: function,
            isEntryPoint: { index in
                var name = functions[index].name
                return name.withUTF8 { Self.isEntryPoint(isExported: functions[index].isExported, name: $0) }
            }
        ) { callers[$0] }
    }

    /// What function `function` does that may guard a use by name in it:
    /// its `respondsToSelector:` sends and the strings it loads that tell
    /// an app extension from an app (``GuardCheck``). Complete for the
    /// functions holding a kept call site or reference.
    public func guards(of function: Int) -> Set<GuardCheck> {
        guards[Int32(function)] ?? []
    }

    /// The functions that call `function` (ascending): complete for every
    /// function a call path to a kept call site passes through, and so for
    /// each function holding one.
    public func callers(of function: Int) -> [Int] {
        callers[function].map(Int.init)
    }

    /// Whether other images or the Objective-C runtime call a function:
    /// it is exported, or its raw name (UTF-8 bytes) is an Objective-C
    /// method's (`-[Class selector]`, `+[Class selector]`).
    static func isEntryPoint(isExported: Bool, name: UnsafeBufferPointer<UInt8>) -> Bool {
        isExported
            || name.count >= 3 && (name[0] == UInt8(ascii: "-") || name[0] == UInt8(ascii: "+")) && name[1] == UInt8(ascii: "[")
                && name[name.count - 1] == UInt8(ascii: "]")
    }

    /// The imports of ``CallSiteInterest/reached`` that `function` calls,
    /// directly or through at most `depth` levels of the functions it calls
    /// (``functionsReached(from:depth:)``). Complete for the callers of the
    /// calls to ``CallSiteInterest/reachedFrom`` imports, to the interest's
    /// ``CallSiteInterest/reachDepth``, and for the functions on their call
    /// paths at depth 0.
    public func importsReached(from function: Int, depth: Int) -> Set<String> {
        functionsReached(from: function, depth: depth).reduce(into: Set<String>()) { names, reached in
            names.formUnion(importsCalled[Int32(reached)] ?? [])
        }
    }

    /// `function` and the functions it calls, directly or through at most
    /// `depth` levels (indices into ``functions``), as far as the
    /// functions decoded tell (``callees``).
    public func functionsReached(from function: Int, depth: Int) -> Set<Int> {
        var reached: Set<Int32> = [Int32(function)]
        var frontier = reached
        for _ in 0..<max(depth, 0) {
            frontier = Set(frontier.flatMap { callees[Int($0)] }.filter { reached.insert($0).inserted })
        }
        return Set(reached.map(Int.init))
    }
}

/// One pass over the bytes of a code section (by index in
/// ``CodeRegions/sections``): calls its body with them and a `release`
/// that gives back the pages of the first `n` bytes.
typealias SectionPass = (Int, (UnsafeRawBufferPointer, _ release: (Int) -> Void) -> Void) -> Void
