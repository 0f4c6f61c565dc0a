/// Which of an image's symbols inspection keeps as ``Symbol`` values in
/// ``BinaryImage/imports``, ``BinaryImage/exports`` and
/// ``BinaryImage/definitions``.
///
/// Making a `String` of every name is most of what reading a symbol table
/// costs; a scan that only needs the symbols some rule may match tests the
/// raw bytes first and passes over the rest.
public struct SymbolSelection: Sendable {
    private let keep: (@Sendable (UnsafeBufferPointer<UInt8>) -> Bool)?
    /// By a name's first two bytes (`first << 8 | second`): whether `keep`
    /// may accept a name that starts with them; `nil` when any may be.
    private let leads: [Bool]?

    /// Every symbol (what `inspect` shows).
    public static let all = SymbolSelection(keep: nil, leads: nil)

    /// Only the symbols whose raw name `keep` accepts: the bytes of the
    /// string table (UTF-8, without the terminating NUL), valid only during
    /// the call.
    ///
    /// `leads(first, second)` says whether `keep` may accept a name that
    /// starts with those two bytes (`second` is 0 for a one-byte name): it
    /// must never say no where `keep` would say yes. It is asked once for
    /// each pair, here; a reader asks ``mayKeep(nameAt:)`` before it
    /// measures a name.
    public static func only(
        leads: (_ first: UInt8, _ second: UInt8) -> Bool = { _, _ in true },
        _ keep: @escaping @Sendable (UnsafeBufferPointer<UInt8>) -> Bool
    ) -> SymbolSelection {
        let table = (0..<(1 << 16)).map { leads(UInt8($0 >> 8), UInt8($0 & 0xff)) }
        return SymbolSelection(keep: keep, leads: table.allSatisfy { $0 } ? nil : table)
    }

    public func keeps(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        keep?(name) ?? true
    }

    /// Whether the NUL-terminated name at `name` may be kept, from its first
    /// two bytes alone (no byte after a NUL is read): `false` only where
    /// ``keeps(_:)`` is `false` too.
    public func mayKeep(nameAt name: UnsafePointer<UInt8>) -> Bool {
        guard let leads else { return true }
        let first = name[0]
        return leads[Int(first) << 8 | Int(first == 0 ? 0 : name[1])]
    }
}
