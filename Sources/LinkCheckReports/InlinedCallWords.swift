import LinkCheckAnalysis
import LinkCheckRules
import LinkCheckSourceLines

/// What reports say of a call the compiler inlined (an ``AddressSource``
/// with ``AddressSource/inlinedInto`` frames): the function it was written
/// in and each function its code was inlined into, innermost first, named
/// as reports name callers (``CallLocator/displayName(_:demangler:)``:
/// Swift and C++ names demangled), each with where it calls the one
/// before: `written in load_plugin, inlined into start at loader.c:8:20`.
struct InlinedCallWords {
    let demangler: Demangler

    init(demangler: Demangler = Demangler()) {
        self.demangler = demangler
    }

    /// The words for `source`, each call's place given by `place`; `nil`
    /// when its code was not inlined.
    func words(_ source: AddressSource, place: (SourcePosition) -> String) -> String? {
        guard !source.inlinedInto.isEmpty else { return nil }
        let calls = source.inlinedInto.map { call in
            "inlined into \(name(call.function))" + (call.location.map { " at \(place($0))" } ?? "")
        }
        return (["written in \(name(source.function))"] + calls).joined(separator: ", ")
    }

    /// The words for `source` with each place as `file:line:column` and the
    /// file's name alone (`loader.c:8:20`): what a finding's line says,
    /// the same in every output whatever its source root.
    func words(_ source: AddressSource) -> String? {
        words(source) { position in
            SourceRoot.place(
                SourcePosition(file: String(position.file.split(separator: "/").last ?? ""), line: position.line, column: position.column),
                relativeTo: nil)
        }
    }

    /// A function as reports name it; a debug-information entry without a
    /// name is `a function without a name`.
    func name(_ function: String?) -> String {
        function.map { CallLocator.displayName($0, demangler: demangler) } ?? "a function without a name"
    }
}
