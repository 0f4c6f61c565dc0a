/// The breadth-first search over callers behind
/// ``CodeIndex/pathFromExported(to:)``: what the targeted search runs,
/// asking for the callers of each function it reaches, as the index answers
/// later. Its bookkeeping, an entry per function of the image, is kept from
/// one search to the next and reset for only the functions a search
/// reached.
struct CallerSearch {
    /// By function: the function the search reached it from (itself for
    /// the start), -1 when not reached.
    private var previous: [Int32]
    /// The functions reached, in the order reached.
    private var queue: [Int32] = []

    /// A search over `functionCount` functions (indices `0..<functionCount`).
    init(functionCount: Int) {
        previous = Array(repeating: -1, count: functionCount)
    }

    /// The shortest chain of functions from an entry point down to
    /// `function` (both included) over the callers `callers` gives
    /// (ascending), with the entry points `isEntryPoint` tells: the first
    /// entry point reached that nothing calls; failing that, the first entry
    /// point reached; failing that, `[function]`.
    mutating func shortestPath(to function: Int, isEntryPoint: (Int) -> Bool, callers: (Int) -> ArraySlice<Int32>) -> [Int] {
        // Worked on outside `self`, so that no access to it is checked for
        // each function reached.
        var previous = self.previous
        var queue = self.queue
        (self.previous, self.queue) = ([], [])
        defer {
            for reached in queue { previous[Int(reached)] = -1 }
            queue.removeAll(keepingCapacity: true)
            (self.previous, self.queue) = (previous, queue)
        }
        previous[function] = Int32(function)
        queue.append(Int32(function))
        var head = 0
        var firstExported: Int?
        while head < queue.count {
            let current = Int(queue[head])
            head += 1
            let calling = callers(current)
            if isEntryPoint(current) {
                if calling.isEmpty { return Self.path(from: current, previous: previous) }
                if firstExported == nil { firstExported = current }
            }
            for caller in calling where previous[Int(caller)] < 0 {
                previous[Int(caller)] = Int32(current)
                queue.append(caller)
            }
        }
        return firstExported.map { Self.path(from: $0, previous: previous) } ?? [function]
    }

    /// The chain from `start` back to the search's first function, over
    /// `previous` (as ``previous``).
    private static func path(from start: Int, previous: [Int32]) -> [Int] {
        var path = [start]
        while case let next = Int(previous[path.last!]), next != path.last! { path.append(next) }
        return path
    }
}
