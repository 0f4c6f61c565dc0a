import LinkCheckTestSupport
import Testing

@testable import LinkCheckCodeIndex

/// The call-graph edge table answers as a `Set<Int64>` of
/// `caller << 32 | callee` does, on random graphs small and large (the
/// table grows many times), with repeated edges, with functions numbered
/// near 2³¹ too, and with callers of many callees (sorted otherwise than
/// those of a few).
@Suite struct CallEdgesTests {
    @Test(arguments: [0, 1, 7, 600, 5_000, 200_000], [false, true])
    func answersAsASetDoes(edgeCount: Int, largeNumbers: Bool) {
        var random = SplitMix64(seed: 0xED6E_5000 &+ UInt64(edgeCount))
        var edges = CallEdges()
        var expected = Set<Int64>()
        let functions = max(edgeCount / 4, 2)
        func randomFunction() -> Int {
            largeNumbers && Bool.random(using: &random)
                ? Int(Int32.max) - Int.random(in: 0..<3, using: &random) : Int.random(in: 0..<functions, using: &random)
        }
        for _ in 0..<edgeCount {
            let (caller, callee) = (randomFunction(), randomFunction())
            edges.insert(from: caller, to: callee)
            expected.insert(Int64(caller) << 32 | Int64(callee))
            if Int.random(in: 0..<4, using: &random) == 0 { edges.insert(from: caller, to: callee) }
        }
        #expect(edges.count == expected.count)
        #expect(edges.sorted() == expected.sorted())
        for _ in 0..<1_000 {
            let (caller, callee) = (randomFunction(), randomFunction())
            #expect(edges.contains(from: caller, to: callee) == expected.contains(Int64(caller) << 32 | Int64(callee)))
        }
        for key in expected.prefix(1_000) {
            #expect(edges.contains(from: Int(key >> 32), to: Int(Int32(truncatingIfNeeded: key))))
        }
    }

    @Test func callersOfManyCallees() {
        var random = SplitMix64(seed: 0xDE45E)
        var edges = CallEdges()
        var expected = Set<Int64>()
        for _ in 0..<3_000 {
            let caller = Int.random(in: 0..<6, using: &random)
            let callee = Int.random(in: 0..<Int(caller == 0 ? 2 : 900), using: &random)
            edges.insert(from: caller, to: callee)
            expected.insert(Int64(caller) << 32 | Int64(callee))
        }
        #expect(edges.count == expected.count)
        #expect(edges.sorted() == expected.sorted())
    }
}
