import Testing

@testable import LifetraceReport

/// A lane's stack of open ends behaves as an array used as a stack, whatever its depth.
@Suite struct OpenEndsTests {
    @Test func pushesAndPopsAsAnArrayDoes() {
        var ends = OpenEnds()
        var model: [Int64] = []
        // A fixed sequence of pushes and pops reaching depth 5, emptying twice.
        let steps: [Int64?] = [10, 8, nil, 7, 6, 5, 4, nil, nil, nil, nil, nil, 3, nil, 2, 1, 0]
        for step in steps {
            if let end = step {
                ends.append(end)
                model.append(end)
            } else {
                ends.removeLast()
                model.removeLast()
            }
            #expect(ends.count == model.count)
            #expect(ends.last == model.last)
            #expect(ends.isEmpty == model.isEmpty)
            var seen: [Int64] = []
            ends.forEach { seen.append($0) }
            #expect(seen == model)
        }
    }

    @Test func handsOverItsMemoryEmptyAndStartsAgainFromIt() {
        var ends = OpenEnds()
        for end in [30, 20, 10] as [Int64] { ends.append(end) }
        let storage = ends.takeStorage()
        #expect(storage.isEmpty)
        #expect(storage.capacity >= 2)
        #expect(ends.isEmpty && ends.last == nil)
        var reused = OpenEnds(storage: storage)
        reused.append(5)
        #expect(reused.count == 1 && reused.last == 5)
        reused.removeAll()
        #expect(reused.isEmpty)
    }
}
