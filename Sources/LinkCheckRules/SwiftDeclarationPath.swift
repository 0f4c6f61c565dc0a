/// Swift declaration paths (`UIKit.UIApplication.shared`) and how they
/// relate to mangled and demangled symbol names.
///
/// Mangling reference: the Swift repository's `docs/ABI/Mangling.rst`
/// (`$s` prefix, then the module as a length-prefixed identifier, `So` for
/// imported C/ObjC declarations, `s` for the standard library).
import Foundation

public enum SwiftDeclarationPath {
    /// Prefixes of mangled Swift symbols: Swift 5+ (`$s`, `_$s` on Darwin),
    /// Swift 4.2 (`$S`), embedded Swift (`$e`), Swift 4 (`_T0`).
    static let manglingPrefixes = ["$s", "_$s", "$S", "_$S", "$e", "_$e", "_T0"]
    /// Their UTF-8 bytes, which a mangled name's bytes are compared with.
    private static let manglingPrefixBytes = manglingPrefixes.map { Array($0.utf8) }

    /// Whether `symbol` is a mangled Swift name.
    public static func isSwiftSymbol(_ symbol: String) -> Bool {
        manglingPrefixes.contains { symbol.hasPrefix($0) }
    }

    /// The module of a mangled Swift symbol's first entity, read from the
    /// mangling without demangling: `$s5UIKit13UIApplicationC…` → `UIKit`,
    /// `$sSo…` → `__C`, `$sSS…`/`$ss…` → `Swift`; `nil` when it is not a
    /// Swift symbol or starts otherwise (a substitution, a closure).
    public static func moduleName(ofMangled symbol: String) -> Substring? {
        // Read as contiguous bytes: a string's UTF-8 view is slower to walk.
        var symbol = symbol
        return symbol.withUTF8 { bytes in
            switch mangledModule(bytes) {
            case .named(let name): Substring(String(decoding: name, as: UTF8.self))
            case .swift: "Swift"
            case .importedC: "__C"
            case nil: nil
            }
        }
    }

    /// The module whose code a Swift symbol is: the module of its first
    /// entity (``moduleName(ofMangled:)``), so that closures, thunks,
    /// accessors and specialisations count as their context's module, except
    /// for a member of an extension that another module declares, which is
    /// that module's code: `$s9AnalyticsAAO3ExtE7startupyyFZ` (demangled
    /// `static (extension in Ext):Analytics.Analytics.startup() -> ()`) is
    /// `Ext`'s, `$sSD9AnalyticsE…` (`(extension in
    /// Analytics):Swift.Dictionary…`) is `Analytics`'.
    ///
    /// - Parameter demangled: `symbol` demangled (``Demangler/swift(_:)``);
    ///   without it an extension counts as the extended type's module.
    /// - Returns: `nil` when `symbol` is not a Swift symbol
    ///   ``moduleName(ofMangled:)`` can read.
    public static func owningModule(ofMangled symbol: String, demangled: String?) -> String? {
        guard let module = moduleName(ofMangled: symbol) else { return nil }
        // The demangler prints an extension context as `(extension in M):`
        // right before the extended type's path, which starts with the
        // mangling's first module.
        var rest = demangled?[...] ?? ""
        while let start = rest.range(of: "(extension in ") {
            let tail = rest[start.upperBound...]
            guard let end = tail.range(of: "):") else { break }
            if tail[end.upperBound...].hasPrefix(module + ".") { return String(tail[..<end.lowerBound]) }
            rest = tail[end.upperBound...]
        }
        return String(module)
    }

    /// The module named at the start of a mangling, as
    /// ``moduleName(ofMangled:)`` reads it, from the raw bytes.
    enum MangledModule<Name> {
        /// A length-prefixed module name: its bytes.
        case named(Name)
        /// `s`/`S…`: the standard library, `Swift`.
        case swift
        /// `So`/`SC`: an imported C or Objective-C declaration, `__C`.
        case importedC
    }

    /// The module of mangled name `bytes` (UTF-8, no terminator), without
    /// making a string of it.
    static func mangledModule<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> MangledModule<Bytes.SubSequence>? {
        // Every mangling prefix starts with `$`, `_$` or `_T`: most C and
        // C++ names are ruled out by one or two bytes.
        guard let first = bytes.first,
            first == UInt8(ascii: "$")
                || (first == UInt8(ascii: "_") && [UInt8(ascii: "$"), UInt8(ascii: "T")].contains(bytes.dropFirst().first)),
            let prefix = manglingPrefixBytes.first(where: { bytes.starts(with: $0) })
        else { return nil }
        let rest = bytes.dropFirst(prefix.count)
        let (head, next) = (rest.first, rest.dropFirst().first)
        if head == UInt8(ascii: "S") && (next == UInt8(ascii: "o") || next == UInt8(ascii: "C")) { return .importedC }
        if head == UInt8(ascii: "s") || head == UInt8(ascii: "S") { return .swift }
        // One pass that reads each byte once: the bytes may be a mapped file
        // that changes while it is read.
        var length = 0
        var digitCount = 0
        for byte in rest {
            let digit = byte &- UInt8(ascii: "0")
            guard digit <= 9 else { break }
            guard digitCount < 4 else { return nil }
            length = length * 10 + Int(digit)
            digitCount += 1
        }
        let name = rest.dropFirst(digitCount).prefix(length)
        return length > 0 && name.count == length ? .named(name) : nil
    }

    /// Why `path` is not a declaration path, or `nil` when it is: at least a
    /// module and one member, each component a non-empty identifier.
    public static func problem(in path: String) -> String? {
        let components = path.split(separator: ".", omittingEmptySubsequences: false)
        guard components.count >= 2 else {
            return "a Swift declaration path needs a module and a declaration, e.g. UIKit.UIApplication.shared"
        }
        for component in components {
            guard let first = component.first, first.isLetter || first == "_",
                component.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" })
            else {
                return "'\(component)' in '\(path)' is not a Swift identifier"
            }
        }
        return nil
    }

    /// The module of a declaration path: its first component.
    public static func module(of path: String) -> String {
        String(path.prefix { $0 != "." })
    }

    /// Whether the demangled symbol `demangled` belongs to the declaration
    /// `path`: the path must be the symbol's own entity (after qualifiers
    /// such as `static`, `property descriptor for`, `dispatch thunk of`), not
    /// a parameter or result type, and must end at a name boundary, so
    /// `UIKit.UIApplication.shared` matches
    /// `static UIKit.UIApplication.shared.getter : UIKit.UIApplication` but
    /// not `UIKit.UIApplication.sharedFoo.getter`.
    ///
    /// Two spellings are normalised first: an initializer's allocating entry
    /// point (`Type.__allocating_init`, what other modules import) counts as
    /// `Type.init`, and a member declared in an extension
    /// (`(extension in M):M.Type.member`) as `M.Type.member`.
    public static func matches(demangled symbol: String, path: String) -> Bool {
        // Most symbols of a module do not even name the path's last
        // component; a byte search rules them out before any copying.
        let last = path.utf8.lastIndex(of: UInt8(ascii: ".")).map { path.utf8[path.utf8.index(after: $0)...] } ?? path.utf8[...]
        guard ByteSearch.contains(symbol, Array(last)) else { return false }
        let demangled = normalised(symbol)
        var searchStart = demangled.startIndex
        while let range = demangled[searchStart...].firstRange(of: path) {
            searchStart = range.upperBound
            let before = demangled[..<range.lowerBound]
            if !(before.isEmpty || before.hasSuffix(" ")) { continue }
            if before.contains(where: { "(:<".contains($0) }) || before.firstRange(of: "->") != nil { return false }
            guard let next = demangled[range.upperBound...].first else { return true }
            if ".( :<".contains(next) { return true }
        }
        return false
    }

    private static func normalised(_ demangled: String) -> String {
        var text = demangled
        if text.firstRange(of: ".__allocating_init") != nil {
            text = text.replacing(".__allocating_init", with: ".init")
        }
        while let start = text.firstRange(of: "(extension in "),
            let end = text[start.upperBound...].firstRange(of: "):")
        {
            text.removeSubrange(start.lowerBound..<end.upperBound)
        }
        return text
    }
}
