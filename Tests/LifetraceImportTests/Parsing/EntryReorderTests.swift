import Testing

@testable import LifetraceImport

/// The window that puts a pasted capture's entries back in time order.
@Suite struct EntryReorderTests {
    static func entry(_ number: Int, at time: Int64) -> LogLine {
        LogLine(number: number, timestamp: time, hasDate: true, process: "App", message: "")
    }

    static func drain(_ window: inout EntryReorder) -> [Int] {
        var out: [Int] = []
        while let entry = window.pop() { out.append(entry.number) }
        return out
    }

    /// Blocks pasted out of order come out in time order; equal times keep their input order.
    @Test func blocksComeOutInTimeOrder() {
        var window = EntryReorder()
        // Input lines 1–3 at 30, 31, 31; lines 4–5 at 10, 11 (an earlier run pasted later); line 6 at 31.
        for (number, time) in [(1, 30), (2, 31), (3, 31), (4, 10), (5, 11), (6, 31)] as [(Int, Int64)] {
            #expect(window.push(Self.entry(number, at: time)) == nil)
        }
        #expect(Self.drain(&window) == [4, 5, 1, 2, 3, 6])
    }

    /// A full window lets its earliest entry go: past the limit, order holds only within the window.
    @Test func aFullWindowLetsTheEarliestGo() {
        var window = EntryReorder()
        var out: [Int] = []
        let count = EntryReorder.limit + 10
        // Descending times: each entry comes before every one held.
        for number in 1...count {
            if let entry = window.push(Self.entry(number, at: Int64(count - number))) { out.append(entry.number) }
        }
        // The first ten to leave are the earliest at their time: the newest pushed each time the window filled.
        #expect(out == Array((EntryReorder.limit + 1)...count))
        out += Self.drain(&window)
        #expect(out.count == count)
        #expect(Array(out.suffix(EntryReorder.limit)) == Array((1...EntryReorder.limit).reversed()))
    }

    /// A window filled in order says the capture needs no reordering; an earlier entry of another process, or one
    /// more than a second early, says it does; a thread's line a little late does not.
    @Test func aWindowInOrderSaysSo() {
        var inOrder = EntryReorder()
        for number in 1..<EntryReorder.limit { _ = inOrder.push(Self.entry(number, at: Int64(number) * 1_000)) }
        #expect(!inOrder.inOrder)  // not full yet
        _ = inOrder.push(Self.entry(EntryReorder.limit, at: Int64(EntryReorder.limit) * 1_000 - 1_500))  // 0.5 µs late
        #expect(inOrder.inOrder)
        var pasted = EntryReorder()
        _ = pasted.push(LogLine(number: 1, timestamp: 2_000, hasDate: true, process: "App", pid: 15028, message: ""))
        _ = pasted.push(LogLine(number: 2, timestamp: 1_000, hasDate: true, process: "App", pid: 14684, message: ""))
        #expect(pasted.disordered)
        var late = EntryReorder()
        _ = late.push(Self.entry(1, at: 3_000_000_000))
        _ = late.push(Self.entry(2, at: 1_000_000_000))
        #expect(late.disordered)
    }
}
