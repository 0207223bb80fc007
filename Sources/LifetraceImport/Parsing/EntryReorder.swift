/// Puts a pasted capture's entries back in time order. Xcode's console is copied run by run, and a note or an
/// issue may paste the runs in any order (a later run's block before an earlier one's): each run is a process
/// of its own, and its events belong at its own times, not after the run pasted before it.
///
/// The entries pass through a window of at most ``limit`` entries (and ``byteLimit`` bytes of messages), kept as
/// a min-heap on (time, input line): an entry leaves when the window is full, the earliest first, and the rest
/// leave in order at the end. A capture within the window comes out wholly in time order; entries of the same
/// time keep their input order.
struct EntryReorder: Sendable {
    private var heap: [LogLine] = []
    private var bytes = 0
    static let limit = 4096
    static let byteLimit = 16 << 20

    /// Takes `entry` in; returns the earliest entry held once the window is full.
    mutating func push(_ entry: LogLine) -> LogLine? {
        heap.append(entry)
        bytes += entry.message.utf8.count
        siftUp(heap.count - 1)
        guard heap.count > Self.limit || bytes > Self.byteLimit else { return nil }
        return pop()
    }

    /// The earliest entry held, taken out; `nil` when none is (at the end of the capture, call it until then).
    mutating func pop() -> LogLine? {
        guard !heap.isEmpty else { return nil }
        heap.swapAt(0, heap.count - 1)
        let first = heap.removeLast()
        bytes -= first.message.utf8.count
        siftDown(0)
        return first
    }

    private static func before(_ a: LogLine, _ b: LogLine) -> Bool {
        a.timestamp != b.timestamp ? a.timestamp < b.timestamp : a.number < b.number
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard Self.before(heap[child], heap[parent]) else { return }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            var first = parent
            let left = 2 * parent + 1
            if left < heap.count, Self.before(heap[left], heap[first]) { first = left }
            if left + 1 < heap.count, Self.before(heap[left + 1], heap[first]) { first = left + 1 }
            guard first != parent else { return }
            heap.swapAt(parent, first)
            parent = first
        }
    }
}
