import Foundation

/// `items.map(transform)` with `jobs` workers (`DispatchQueue.concurrentPerform`;
/// all cores by default), results in the order of `items`.
package func parallelMap<Item: Sendable, Output: Sendable>(
    _ items: [Item], jobs: Int = ProcessInfo.processInfo.activeProcessorCount, _ transform: @Sendable (Item) -> Output
) -> [Output] {
    let slots = Slots<Output>(count: items.count)
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
    private var next = 0

    init(count: Int) {
        slots = Array(repeating: nil, count: count)
    }

    /// The next index no worker has claimed, or `nil` when all are taken.
    func claimNext() -> Int? {
        lock.withLock {
            guard next < slots.count else { return nil }
            defer { next += 1 }
            return next
        }
    }

    func store(_ value: Value, at index: Int) {
        lock.withLock { slots[index] = value }
    }

    func values() -> [Value] {
        lock.withLock { slots.compactMap { $0 } }
    }
}
