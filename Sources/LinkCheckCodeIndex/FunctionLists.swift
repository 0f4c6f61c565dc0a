/// One list of numbers for each function of an image or an index (its
/// callers, its callees, the regions that may call it), all kept in one
/// array: the list of function `f` is `members[starts[f]..<starts[f + 1]]`;
/// a function past the lists has an empty one.
struct FunctionLists: Sendable {
    private let starts: [Int32]
    private let members: [Int32]

    /// The lists of `count` functions (indices `0..<count`) that `pairs`
    /// make, each pair (`owner`, `member`) putting `member` in `owner`'s
    /// list, in the order given (a counting sort).
    init(count: Int, pairs: some Collection<(owner: Int32, member: Int32)>) {
        var starts = [Int32](repeating: 0, count: count + 1)
        for pair in pairs { starts[Int(pair.owner) + 1] += 1 }
        for index in 0..<count { starts[index + 1] += starts[index] }
        var next = starts
        var members = [Int32](repeating: 0, count: pairs.count)
        for pair in pairs {
            members[Int(next[Int(pair.owner)])] = pair.member
            next[Int(pair.owner)] += 1
        }
        self.starts = starts
        self.members = members
    }

    /// No lists.
    static let empty = FunctionLists(count: 0, pairs: [])

    /// The list of `function`.
    subscript(function: Int) -> ArraySlice<Int32> {
        guard function >= 0, function + 1 < starts.count else { return [] }
        return members[Int(starts[function])..<Int(starts[function + 1])]
    }
}
