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
    /// `leads`, when given, holds 65,536 flags, one for each pair of first
    /// two bytes (`first << 8 | second`, `second` 0 for a one-byte name):
    /// whether `keep` may accept a name that starts with them. It must
    /// never say no where `keep` would say yes; a reader asks
    /// ``mayKeep(nameAt:)`` before it measures a name. A table of any other
    /// size is not used.
    public static func only(
        leads: [Bool]? = nil, _ keep: @escaping @Sendable (UnsafeBufferPointer<UInt8>) -> Bool
    ) -> SymbolSelection {
        SymbolSelection(keep: keep, leads: leads?.count == 1 << 16 ? leads : nil)
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
