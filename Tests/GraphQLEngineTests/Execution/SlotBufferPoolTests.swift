import Testing

@testable import GraphQLEngine

/// Result-slot arrays reused from one execution to the next: emptied, bounded in number and size,
/// and never changing what a later response says.
@Suite struct SlotBufferPoolTests {
    @Test func aRecycledArrayComesBackEmptyWithItsCapacity() {
        let pool = SlotBufferPool()
        #expect(pool.take().capacity == 0)
        var slots: [ResultSlot] = Array(repeating: .string("left over"), count: 1_000)
        pool.recycle(&slots)
        #expect(slots.isEmpty)
        let reused = pool.take()
        #expect(reused.isEmpty)
        #expect(reused.capacity >= 1_000)
        #expect(pool.take().capacity == 0)
    }

    @Test func thePoolKeepsAFewArraysAndNoneTooLarge() {
        let pool = SlotBufferPool()
        var huge: [ResultSlot] = []
        huge.reserveCapacity(SlotBufferPool.maxSlots + 1)
        pool.recycle(&huge)
        #expect(pool.take().capacity == 0)
        for _ in 0..<(SlotBufferPool.maxBuffers + 2) {
            var slots: [ResultSlot] = Array(repeating: .null, count: 10)
            pool.recycle(&slots)
        }
        var kept = 0
        while pool.take().capacity > 0 { kept += 1 }
        #expect(kept == SlotBufferPool.maxBuffers)
    }

    @Test func executionsOnReusedSlotsAnswerAsFreshOnes() async throws {
        let harness = try ExecutionHarness("type Query { rows: [Row] } type Row { a: Int, b: String }")
        let root: GraphQLValue = ["rows": [["a": 1, "b": "x"], ["a": 2, "b": "y"]]]
        let wide = try await harness.plain("{ rows { a b } first: rows { b } }", root: root)
        // A smaller response after a larger one, on the larger one's slots, then the larger again.
        #expect(try await harness.plain("{ rows { a } }", root: root) == json(#"{"data":{"rows":[{"a":1},{"a":2}]}}"#))
        #expect(try await harness.plain("{ rows { a b } first: rows { b } }", root: root) == wide)
        #expect(wide == json(#"{"data":{"rows":[{"a":1,"b":"x"},{"a":2,"b":"y"}],"first":[{"b":"x"},{"b":"y"}]}}"#))
    }
}
