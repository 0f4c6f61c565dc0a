import LinkCheckImage

extension Array {
    /// In an array sorted by `address`, the index of the last element whose
    /// address is at most `value`, by binary search; `nil` when every
    /// element's address is greater.
    func lastIndex(atOrBefore value: UInt64, address: (Element) -> UInt64) -> Int? {
        var (low, high) = (0, count)
        while low < high {
            let middle = low + (high - low) / 2
            if address(self[middle]) <= value { low = middle + 1 } else { high = middle }
        }
        return low > 0 ? low - 1 : nil
    }
}
