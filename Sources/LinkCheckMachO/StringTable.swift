/// NUL-terminated strings read by offset from one string table (the symbol
/// table's `stroff`/`strsize`, the chained-fixup imports' symbol strings).
///
/// Each offset is read once (later reads share the string); the bytes
/// scanned for all strings together are limited to a budget proportional
/// to the table's size, so that a hostile table (many symbols pointing into
/// one long run without a NUL) cannot make the read quadratic.
struct StringTable {
    private let bytes: ByteReader
    private var cache: [UInt32: String] = [:]
    private var budget: Int
    /// Set once a string was refused because the budget ran out.
    private(set) var exhausted = false

    /// The bytes scanned for strings may be this many times the table's size
    /// (plus 1 MB): real tables share tails, but not sixteen times over.
    static let budgetFactor = 16

    /// The table in `bytes`, from which about `expectedStrings` strings
    /// will be asked (its cache made that large beforehand).
    init(_ bytes: ByteReader, expectedStrings: Int = 0) {
        self.bytes = bytes
        cache.reserveCapacity(expectedStrings)
        budget = bytes.count.multipliedReportingOverflow(by: Self.budgetFactor).partialValue &+ (1 << 20)
        if budget < 0 { budget = .max }
    }

    /// The string at `offset`, or `nil` when the offset is outside the table,
    /// the string has no NUL before the table's end, or the budget ran out.
    mutating func string(at offset: UInt32) -> String? {
        if let known = cache[offset] { return known }
        guard Int(offset) < bytes.count else { return nil }
        guard budget > 0 else {
            exhausted = true
            return nil
        }
        let limit = Int(offset) &+ min(budget, bytes.count - Int(offset))
        guard let nul = bytes.nul(from: Int(offset), end: limit) else {
            budget -= limit - Int(offset)
            if limit < bytes.count { exhausted = true }
            return nil
        }
        budget -= nul - Int(offset) + 1
        let text = bytes.cString(at: Int(offset), end: nul + 1) ?? ""
        cache[offset] = text
        return text
    }
}
