import Foundation

/// `items.map(transform)` on all cores (`DispatchQueue.concurrentPerform`),
/// results in the order of `items`.
func parallelMap<Item: Sendable, Output: Sendable>(
    _ items: [Item], _ transform: @Sendable (Item) -> Output
) -> [Output] {
    let slots = Slots<Output>(count: items.count)
    DispatchQueue.concurrentPerform(iterations: items.count) { index in
        slots.store(transform(items[index]), at: index)
    }
    return slots.values()
}

/// Storage the workers of ``parallelMap(_:_:)`` and
/// ``CheckRun/inspect(_:jobs:)`` write their results into.
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
