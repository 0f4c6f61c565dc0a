import CDemangle
import Foundation

/// Demangles Swift names through the Swift runtime's `swift_demangle` and
/// C++ names through the C++ ABI's `__cxa_demangle`, caching each result for
/// the run. Thread-safe.
public final class Demangler: @unchecked Sendable {
    private let lock = NSLock()
    private var cache: [String: String] = [:]
    private var calls = 0

    public init() {}

    /// How many distinct names were handed to a demangler so far (for tests
    /// and statistics: the rule matcher demangles lazily).
    public var demangledCount: Int {
        lock.withLock { calls }
    }

    /// The demangled form of a Swift symbol (`$s…`, `_$s…`, `$S…`, `_T0…`),
    /// or `nil` when `swift_demangle` does not recognise it.
    public func swift(_ mangled: String) -> String? {
        cached(mangled) { name in
            guard let result = name.withCString({ swift_demangle($0, strlen($0), nil, nil, 0) }) else {
                return nil
            }
            defer { free(result) }
            return String(cString: result)
        }
    }

    /// The demangled form of an Itanium C++ symbol (`_Z…`), or `nil` when
    /// `__cxa_demangle` rejects it.
    public func cxx(_ mangled: String) -> String? {
        cached(mangled) { name in
            var status: Int32 = 0
            guard let result = name.withCString({ __cxa_demangle($0, nil, nil, &status) }), status == 0 else {
                return nil
            }
            defer { free(result) }
            return String(cString: result)
        }
    }

    /// The demangled form of `mangled` whichever language it is in, or `nil`
    /// when it is a plain C name.
    public func any(_ mangled: String) -> String? {
        if SwiftDeclarationPath.isSwiftSymbol(mangled) { return swift(mangled) }
        if mangled.hasPrefix("_Z") { return cxx(mangled) }
        return nil
    }

    private func cached(_ mangled: String, _ demangle: (String) -> String?) -> String? {
        lock.lock()
        if let hit = cache[mangled] {
            lock.unlock()
            return hit.isEmpty ? nil : hit
        }
        calls += 1
        lock.unlock()
        let result = demangle(mangled)
        lock.withLock { cache[mangled] = result ?? "" }
        return result
    }
}
