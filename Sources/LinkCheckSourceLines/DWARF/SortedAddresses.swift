extension [UInt64] {
    /// The positions of the elements of this sorted array that `range`
    /// holds, found by binary search.
    func positions(heldBy range: Range<UInt64>) -> Range<Int> {
        firstPosition(notBelow: range.lowerBound)..<firstPosition(notBelow: range.upperBound)
    }

    /// The position of the first element of this sorted array that is at
    /// least `value` (`count` when none is).
    private func firstPosition(notBelow value: UInt64) -> Int {
        var (low, high) = (0, count)
        while low < high {
            let middle = (low + high) / 2
            if self[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
