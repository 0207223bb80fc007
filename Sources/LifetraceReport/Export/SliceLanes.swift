/// The lanes of one exported track: where each slice goes so that slices on a lane nest properly.
///
/// Perfetto and the Chrome trace viewers draw the slices of one track as a stack: a slice that begins inside
/// another must end inside it, or the viewer drops it (`slice_drop_overlapping_complete_event`). lifetrace's
/// slices can overlap without nesting (two background tasks, a handler running into the next callback in a
/// damaged or hand-written trace), so a slice that cannot nest where it would go takes the next lane that
/// can hold it, or a new one. Lanes keep only the ends of the slices open at their last start: memory is the
/// number of lanes and their depth, not the number of slices.
struct SliceLanes {
    /// The deepest a lane's stack of open slices goes before a slice takes another lane.
    static let maximumDepth = 32

    private struct Lane {
        /// The ends of the slices open at `lastStart`, outermost first.
        var ends: [Int64] = []
        /// The latest start placed on the lane: a slice placed later must not begin before it.
        var lastStart = Int64.min
        /// A slice whose end is not known yet holds the lane alone (``SliceLanes/reserve(at:)``).
        var reserved = false

        /// Closes the slices that ended by `t`.
        mutating func close(until t: Int64) {
            while let end = ends.last, end <= t { ends.removeLast() }
        }
    }

    private var lanes: [Lane] = []

    /// The number of lanes used so far.
    var count: Int { lanes.count }

    /// Whether a slice whose end is not known yet holds a lane.
    var hasReservations: Bool { lanes.contains { $0.reserved } }

    /// Places a slice from `start` to `end` (`end >= start`) and returns its lane.
    mutating func place(from start: Int64, to end: Int64) -> Int {
        for index in lanes.indices where !lanes[index].reserved && start >= lanes[index].lastStart {
            lanes[index].close(until: start)
            if let enclosing = lanes[index].ends.last, end > enclosing { continue }
            guard lanes[index].ends.count < Self.maximumDepth else { continue }
            lanes[index].ends.append(end)
            lanes[index].lastStart = start
            return index
        }
        lanes.append(Lane(ends: [end], lastStart: start))
        return lanes.count - 1
    }

    /// Holds a lane for a slice that begins at `start` and ends when ``release(_:at:)`` says: a lane with
    /// nothing open at `start`, which takes nothing else until then.
    mutating func reserve(at start: Int64) -> Int {
        for index in lanes.indices where !lanes[index].reserved && start >= lanes[index].lastStart {
            lanes[index].close(until: start)
            guard lanes[index].ends.isEmpty else { continue }
            lanes[index].reserved = true
            lanes[index].lastStart = start
            return index
        }
        lanes.append(Lane(lastStart: start, reserved: true))
        return lanes.count - 1
    }

    /// Ends the slice that held `lane` at `end` (not before its start); the lane takes slices again.
    mutating func release(_ lane: Int, at end: Int64) {
        lanes[lane].reserved = false
        lanes[lane].ends.removeAll(keepingCapacity: true)
        lanes[lane].ends.append(max(end, lanes[lane].lastStart))
    }
}
