import LinkCheckImage


/// The call sites of one image, indexed for findings and kept small: the
/// calls to each import (with their addresses and literals), the calls to
/// the functions that matter (denylisted copies), and the internal call
/// graph as deduplicated function-to-function edges.
public struct CodeIndex: Sendable {
    public let functions: [FunctionSymbol]
    /// Imported name → the call sites that reach it.
    public let callsToImport: [String: [CallSite]]
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
        callsToFunction = [:]
        callers = [:]
        callees = [:]
        importsCalled = [:]
        failure = reason
    }

    /// Whether call sites are analysed for `image`: x86_64 and
    /// arm64/aarch64 code, 64-bit and little-endian.
    public static func supports(_ image: BinaryImage) -> Bool {
        image.format == .elf && CallSiteAnalyzer.supports(image.architecture)
    }

    /// Every call site of `image` (reading its file again), for
    /// `linkcheck inspect --call-sites`.
    ///
    /// - Returns: `nil` when call sites are not analysed for the image.
    /// - Throws: ``InspectionError`` when the file cannot be read or changed
    ///   while it was read.
    public static func callSites(of image: BinaryImage) throws(InspectionError) -> CodeAnalysis? {
        guard supports(image) else { return nil }
        return try CallSiteAnalyzer.analyze(path: image.path)
    }

    /// Analyses the code of `image` (reading its file again) and indexes its
    /// call sites as they are found (``CallSiteAnalyzer/scan(path:sinkFor:)``),
    /// never holding them all, keeping the call sites of the functions for
    /// which `keepCallsTo` is true.
    ///
    /// - Returns: `nil` when call sites are not analysed for the image
    ///   (``supports(_:)``).
    /// - Throws: ``InspectionError`` when the file cannot be read or changed
    ///   while it was read.
    public static func analyze(_ image: BinaryImage, keepCallsTo: @escaping (FunctionSymbol) -> Bool) throws(InspectionError) -> CodeIndex? {
        guard supports(image) else { return nil }
        var builder: Builder?
        let scanned = try CallSiteAnalyzer.scan(path: image.path) { functions in
            let made = Builder(functions: functions, keepCallsTo: keepCallsTo)
            builder = made
            return made.add
        }
        guard scanned != nil, let builder else { return nil }
        return builder.index()
    }

    private init(
        functions: [FunctionSymbol], callsToImport: [String: [CallSite]], callsToFunction: [Int: [CallSite]],
        callers: [Int32: [Int32]], callees: [Int32: [Int32]], importsCalled: [Int32: Set<String>]
    ) {
        self.functions = functions
        self.callsToImport = callsToImport
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
                functions: functions, callsToImport: imports, callsToFunction: toFunction,
                callers: callers, callees: callees, importsCalled: importsCalled)
        }
    }

    /// The shortest chain of functions from an entry point down to
    /// `function` (both included), breadth-first over the callers. An entry
    /// point is an exported function nothing in the image calls (debug
    /// builds export internal Swift functions too, so "exported" alone would
    /// stop at the helper); failing that, any exported function; failing
    /// that, `[function]`.
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
            if functions[current].isExported {
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
