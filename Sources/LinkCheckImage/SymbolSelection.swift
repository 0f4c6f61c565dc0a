/// Which of an image's symbols inspection keeps as ``Symbol`` values in
/// ``BinaryImage/imports``, ``BinaryImage/exports`` and
/// ``BinaryImage/definitions``.
///
/// Making a `String` of every name is most of what reading a symbol table
/// costs; a scan that only needs the symbols some rule may match tests the
/// raw bytes first and passes over the rest.
public struct SymbolSelection: Sendable {
    private let keep: (@Sendable (UnsafeBufferPointer<UInt8>) -> Bool)?

    /// Every symbol (what `inspect` shows).
    public static let all = SymbolSelection(keep: nil)

    /// Only the symbols whose raw name `keep` accepts: the bytes of the
    /// string table (UTF-8, without the terminating NUL), valid only during
    /// the call.
    public static func only(_ keep: @escaping @Sendable (UnsafeBufferPointer<UInt8>) -> Bool) -> SymbolSelection {
        SymbolSelection(keep: keep)
    }

    public func keeps(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        keep?(name) ?? true
    }
}
