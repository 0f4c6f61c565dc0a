// Swift calls for the DWARF reader's tests (DWARFSourceLookupTests): a
// generic function and small helpers the optimizer inlines at -O.
public struct Ledger {
    public var entries: [Int] = []

    public init() {}

    @inline(__always) mutating func record(_ amount: Int) {
        entries.append(amount)
        print("recorded", amount)
    }

    public mutating func settle<Amounts: Sequence>(_ amounts: Amounts) -> Int where Amounts.Element == Int {
        for amount in amounts where amount != 0 {
            record(amount)
        }
        return entries.reduce(0, +)
    }
}

public func balance(_ amounts: [Int]) -> Int {
    var ledger = Ledger()
    return ledger.settle(amounts.map { $0 * 2 })
}
