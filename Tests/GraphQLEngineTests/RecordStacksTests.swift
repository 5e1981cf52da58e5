import Testing

@testable import GraphQLEngine

@Suite("Record stacks")
struct RecordStacksTests {
    @Test(
        "nested runs of pushes come out side by side and in order, across every growth of the buffer, from any room reserved",
        arguments: [0, 1, 7, 40, 500])
    func nestedRuns(reserved: Int) {
        // A set of `width` records, each but the last holding a set one level deeper, down to
        // `depth`: what a selection set of nested fields pushes. Records are numbered as pushed;
        // each set must come out as its own records, in order, after its inner sets.
        for (width, depth) in [(1, 1), (3, 2), (5, 3), (17, 1), (2, 9), (9, 3)] {
            var stacks = RecordStacks<Int>()
            stacks.reserve(reserved)
            var next = 0
            var finished: [[Int]] = []
            func readSet(level: Int) {
                let first = stacks.openCount
                var pushed: [Int] = []
                for position in 0..<width {
                    let index = stacks.openCount
                    stacks.push(-1)
                    pushed.append(next)
                    stacks[open: index] = next  // written in place, as the parser fills a record
                    next += 1
                    if level < depth && position < width - 1 { readSet(level: level + 1) }
                }
                let range = stacks.finish(from: first)
                #expect(range.count == width)
                finished.append(pushed)
            }
            readSet(level: 1)
            #expect(stacks.openCount == 0)
            let total = finished.reduce(0) { $0 + $1.count }
            guard let taken = stacks.takeFinished() else {
                Issue.record("nothing finished")
                continue
            }
            defer { taken.deallocate() }
            #expect(Array(taken) == finished.flatMap { $0 }, "width \(width), depth \(depth)")
            #expect(taken.count == total)
            #expect(stacks.takeFinished() == nil)
        }
    }
}
