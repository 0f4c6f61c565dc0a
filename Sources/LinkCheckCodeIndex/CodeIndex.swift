import LinkCheckImage

/// The call sites of one image, indexed for findings and kept small: the
/// calls to each import (with their addresses and literals), the
/// Objective-C message sends of each selector, the calls to the functions
/// that matter (denylisted copies), and the internal call graph as
/// deduplicated function-to-function edges.
public struct CodeIndex: Sendable {
    public let functions: [FunctionSymbol]
    /// Imported name → the call sites that reach it. Message sends are
    /// calls to `objc_msgSend` (or the variant called) here too.
    public let callsToImport: [String: [CallSite]]
    /// Selector → the message sends of it (``CallSite/selector``), each
    /// with the class of a class message (``CallSite/receiverClass``):
    /// `sharedApplication` → the calls of `+[UIApplication
    /// sharedApplication]` (and of any other class's `sharedApplication`).
    public let callsToSelector: [String: [CallSite]]
    /// Function → the call sites that reach it, for the functions kept.
    public let callsToFunction: [Int: [CallSite]]
    /// Function → the functions that call it.
    public let callers: [Int32: [Int32]]
    /// Function → the functions it calls.
    public let callees: [Int32: [Int32]]
    /// Function → the imports it calls.
    public let importsCalled: [Int32: Set<String>]
    /// Why the image's code could not be analysed, when it could not.
    public let failure: String?

    /// An image whose code analysis failed for `reason`.
    public init(failure reason: String) {
        functions = []
        callsToImport = [:]
        callsToSelector = [:]
        callsToFunction = [:]
        callers = [:]
        callees = [:]
        importsCalled = [:]
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

    /// Every call site of `image` (reading its file again), for
    /// `linkcheck inspect --call-sites`.
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

    /// Analyses the code of `image` (reading its file again) and indexes its
    /// call sites as they are found (``CallSiteAnalyzer/scan(path:sinkFor:)``
    /// for ELF, `MachOCallSiteAnalyzer` for Mach-O), never holding them
    /// all, keeping the call sites of the functions for which `keepCallsTo`
    /// is true.
    ///
    /// - Returns: `nil` when call sites are not analysed for the image
    ///   (``supports(_:)``).
    /// - Throws: ``InspectionError`` when the file cannot be read or changed
    ///   while it was read.
    public static func analyze(_ image: BinaryImage, keepCallsTo: @escaping (FunctionSymbol) -> Bool) throws(InspectionError) -> CodeIndex? {
        guard supports(image) else { return nil }
        var builder: Builder?
        let sinkFor = { (functions: [FunctionSymbol]) -> (CallSite) -> Void in
            let made = Builder(functions: functions, keepCallsTo: keepCallsTo)
            builder = made
            return made.add
        }
        let scanned = switch image.format {
        case .elf: try CallSiteAnalyzer.scan(path: image.path, sinkFor: sinkFor)
        case .macho: try MachOCallSiteAnalyzer.scan(image, sinkFor: sinkFor)
        }
        guard scanned != nil, let builder else { return nil }
        return builder.index()
    }

    private init(
        functions: [FunctionSymbol], callsToImport: [String: [CallSite]], callsToSelector: [String: [CallSite]],
        callsToFunction: [Int: [CallSite]], callers: [Int32: [Int32]], callees: [Int32: [Int32]], importsCalled: [Int32: Set<String>]
    ) {
        self.functions = functions
        self.callsToImport = callsToImport
        self.callsToSelector = callsToSelector
        self.callsToFunction = callsToFunction
        self.callers = callers
        self.callees = callees
        self.importsCalled = importsCalled
        failure = nil
    }

    /// Takes an image's call sites one at a time and makes the index.
    private final class Builder {
        let functions: [FunctionSymbol]
        let kept: Set<Int>
        var imports: [String: [CallSite]] = [:]
        var selectors: [String: [CallSite]] = [:]
        var toFunction: [Int: [CallSite]] = [:]
        /// Caller and callee, as `caller << 32 | callee`.
        var edges = Set<Int64>()
        var importsCalled: [Int32: Set<String>] = [:]

        init(functions: [FunctionSymbol], keepCallsTo: (FunctionSymbol) -> Bool) {
            self.functions = functions
            kept = Set(functions.indices.filter { keepCallsTo(functions[$0]) })
        }

        func add(_ site: CallSite) {
            switch site.callee {
            case .imported(let name):
                imports[name, default: []].append(site)
                if let selector = site.selector { selectors[selector, default: []].append(site) }
                if let caller = site.caller { importsCalled[Int32(caller), default: []].insert(name) }
            case .function(let callee):
                if kept.contains(callee) { toFunction[callee, default: []].append(site) }
                if let caller = site.caller, caller != callee { edges.insert(Int64(caller) << 32 | Int64(callee)) }
            }
        }

        func index() -> CodeIndex {
            var callers: [Int32: [Int32]] = [:]
            var callees: [Int32: [Int32]] = [:]
            for edge in edges.sorted() {
                let (caller, callee) = (Int32(edge >> 32), Int32(truncatingIfNeeded: edge))
                callers[callee, default: []].append(caller)
                callees[caller, default: []].append(callee)
            }
            return CodeIndex(
                functions: functions, callsToImport: imports, callsToSelector: selectors, callsToFunction: toFunction,
                callers: callers, callees: callees, importsCalled: importsCalled)
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

    /// The shortest chain of functions from an entry point down to
    /// `function` (both included), breadth-first over the callers. An entry
    /// point is a function that other images or the Objective-C runtime call
    /// and nothing in the image calls: an exported function, or an
    /// Objective-C method (`-[UPUploader retry:]`, which the runtime calls
    /// for a message send from anywhere). Debug builds export internal Swift
    /// functions too, so "exported" alone would stop at the helper. Failing
    /// that, any such function; failing that, `[function]`.
    public func pathFromExported(to function: Int) -> [Int] {
        var previous: [Int: Int] = [function: function]
        var queue = [function]
        var head = 0
        var firstExported: Int?
        func path(from start: Int) -> [Int] {
            var path = [start]
            while let next = previous[path.last!], next != path.last! { path.append(next) }
            return path
        }
        while head < queue.count {
            let current = queue[head]
            head += 1
            if Self.isEntryPoint(functions[current]) {
                if (callers[Int32(current)] ?? []).isEmpty { return path(from: current) }
                if firstExported == nil { firstExported = current }
            }
            for caller in (callers[Int32(current)] ?? []).map(Int.init) where previous[caller] == nil {
                previous[caller] = current
                queue.append(caller)
            }
        }
        return firstExported.map(path(from:)) ?? [function]
    }

    /// Whether other images or the Objective-C runtime call `function`:
    /// it is exported, or named as an Objective-C method is (`-[Class
    /// selector]`, `+[Class selector]`).
    private static func isEntryPoint(_ function: FunctionSymbol) -> Bool {
        function.isExported || (function.name.hasPrefix("-[") || function.name.hasPrefix("+[")) && function.name.hasSuffix("]")
    }

    /// The imports that `function` calls, directly or through at most
    /// `depth` levels of the functions it calls.
    public func importsReached(from function: Int, depth: Int) -> Set<String> {
        var names = Set<String>()
        var frontier: Set<Int32> = [Int32(function)]
        var seen = frontier
        for _ in 0...depth {
            var next = Set<Int32>()
            for current in frontier {
                names.formUnion(importsCalled[current] ?? [])
                for callee in callees[current] ?? [] where seen.insert(callee).inserted { next.insert(callee) }
            }
            frontier = next
        }
        return names
    }
}
