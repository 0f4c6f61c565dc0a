/// One list of functions for each function of an index (its callers, or
/// its callees), all kept in one array: the list of function `f` is
/// `functions[starts[f]..<starts[f + 1]]`, a function past the lists has
/// an empty one.
struct CallGraphLists: Sendable {
    private let starts: [Int32]
    private let functions: [Int32]

    /// The lists of `count` functions (indices `0..<count`) that `pairs`
    /// make, each pair (`owner`, `member`) putting `member` in `owner`'s
    /// list, in the order given.
    init(count: Int, pairs: [(owner: Int32, member: Int32)]) {
        var starts = [Int32](repeating: 0, count: count + 1)
        for pair in pairs { starts[Int(pair.owner) + 1] += 1 }
        for index in 0..<count { starts[index + 1] += starts[index] }
        var next = starts
        var functions = [Int32](repeating: 0, count: pairs.count)
        for pair in pairs {
            functions[Int(next[Int(pair.owner)])] = pair.member
            next[Int(pair.owner)] += 1
        }
        self.starts = starts
        self.functions = functions
    }

    /// No lists.
    static let empty = CallGraphLists(count: 0, pairs: [])

    /// The list of `function`.
    subscript(function: Int) -> ArraySlice<Int32> {
        guard function >= 0, function + 1 < starts.count else { return [] }
        return functions[Int(starts[function])..<Int(starts[function + 1])]
    }
}
