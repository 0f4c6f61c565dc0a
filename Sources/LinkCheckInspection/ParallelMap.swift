import Foundation

/// `items.map(transform)` with `jobs` workers (`DispatchQueue.concurrentPerform`;
/// all cores by default), results in the order of `items`.
package func parallelMap<Item: Sendable, Output: Sendable>(
    _ items: [Item], jobs: Int = ProcessInfo.processInfo.activeProcessorCount, _ transform: @Sendable (Item) -> Output
) -> [Output] {
    parallelMap(items, jobs: jobs, order: Array(items.indices), transform)
}

/// `(first(), second())`, the two run at once on two workers
/// (`DispatchQueue.concurrentPerform`) when `jobs` allows more than one,
/// else one after the other.
package func concurrently<First: Sendable, Second: Sendable>(
    jobs: Int, _ first: @Sendable () -> First, _ second: @Sendable () -> Second
) -> (First, Second) {
    guard jobs > 1 else { return (first(), second()) }
    let firsts = Slots<First>(order: [0])
    let seconds = Slots<Second>(order: [0])
    DispatchQueue.concurrentPerform(iterations: 2) { index in
        if index == 0 { firsts.store(first(), at: 0) } else { seconds.store(second(), at: 0) }
    }
    return (firsts.values()[0], seconds.values()[0])
}

/// ``parallelMap(_:jobs:_:)`` over items that each read a file (at
/// `path(item)`), the largest file started first (`stat(2)`; one that
/// cannot be read counts as empty; ties in the order of `items`), so that
/// the last left running is a small one rather than a 30 MB library started
/// when the others are done. Results stay in the order of `items`.
package func parallelMapLargestFirst<Item: Sendable, Output: Sendable>(
    _ items: [Item], path: (Item) -> String, jobs: Int = ProcessInfo.processInfo.activeProcessorCount,
    _ transform: @Sendable (Item) -> Output
) -> [Output] {
    let sizes = items.map { fileSize(path($0)) }
    let order = items.indices.sorted { (sizes[$0], $1) > (sizes[$1], $0) }
    return parallelMap(items, jobs: jobs, order: order, transform)
}

/// The size of the file at `path` in bytes (`stat(2)`), 0 when it cannot
/// be read.
private func fileSize(_ path: String) -> Int64 {
    var info = stat()
    return stat(path, &info) == 0 ? Int64(info.st_size) : 0
}

/// Runs `transform` on the items in the order of `order` (a permutation
/// of their indices), `jobs` at a time; results in the order of `items`.
private func parallelMap<Item: Sendable, Output: Sendable>(
    _ items: [Item], jobs: Int, order: [Int], _ transform: @Sendable (Item) -> Output
) -> [Output] {
    let slots = Slots<Output>(order: order)
    let workers = max(1, min(jobs, items.count))
    DispatchQueue.concurrentPerform(iterations: workers) { _ in
        while let index = slots.claimNext() {
            slots.store(transform(items[index]), at: index)
        }
    }
    return slots.values()
}

/// Storage the workers of ``parallelMap(_:jobs:_:)`` claim items from and
/// write their results into.
final class Slots<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [Value?]
    /// The indices in the order they are claimed.
    private let order: [Int]
    private var next = 0

    init(order: [Int]) {
        slots = Array(repeating: nil, count: order.count)
        self.order = order
    }

    /// The next index no worker has claimed, or `nil` when all are taken.
    func claimNext() -> Int? {
        lock.withLock {
            guard next < order.count else { return nil }
            defer { next += 1 }
            return order[next]
        }
    }

    func store(_ value: Value, at index: Int) {
        lock.withLock { slots[index] = value }
    }

    func values() -> [Value] {
        lock.withLock { slots.compactMap { $0 } }
    }
}
