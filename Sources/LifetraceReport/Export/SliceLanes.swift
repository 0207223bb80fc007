/// The lanes of one exported track: where each slice goes so that slices on a lane nest properly.
///
/// Perfetto and the Chrome trace viewers draw the slices of one track as a stack: a slice that begins inside
/// another must end inside it, or the viewer drops it (`slice_drop_overlapping_complete_event`). lifetrace's
/// slices can overlap without nesting (two background tasks, a handler running into the next callback in a
/// damaged or hand-written trace), so a slice that cannot nest where it would go takes the first lane that
/// can hold it, or a new one. Lanes keep only the ends of the slices open at their last start: memory is the
/// number of lanes and their depth, not the number of slices. A track has at most ``maximumLanes`` lanes, so
/// that a trace of countless overlapping slices takes bounded memory: a slice that none can hold gets no lane
/// (its exporter draws it as an instant, and says so).
///
/// Slices come in the order of their starts (an exporter places them as it reads the trace): the slices that
/// ended by a start are closed when it comes, soonest first, and the first lane that can hold a slice is found
/// in a tree over the lanes, so that placing one takes time logarithmic in the lanes, not linear (100,000
/// slices that all overlap once took minutes). A start before one placed already is placed by a search of
/// every lane, as it always was.
///
/// Most tracks never need a second lane: while a track has one, its lane is tested directly, and the queue of
/// ends and the trees are built only when a second lane is added (``becomeMultiLane()``), with the same choices.
struct SliceLanes {
    /// The deepest a lane's stack of open slices goes before a slice takes another lane.
    static let maximumDepth = 32
    /// The most lanes of one track: more than a viewer shows usefully.
    static let maximumLanes = 1024

    private struct Lane {
        /// The ends of the slices open at `lastStart`, outermost first.
        var ends = OpenEnds()
        /// The latest start placed on the lane: a slice placed later must not begin before it.
        var lastStart = Int64.min
        /// A slice whose end is not known yet holds the lane alone (``SliceLanes/reserve(at:)``).
        var reserved = false

        /// Closes the slices that ended by `t`.
        @inline(__always)
        mutating func close(until t: Int64) {
            while let end = ends.last, end <= t { ends.removeLast() }
        }

        /// The longest slice the lane takes now: any (`.max`) when nothing is open on it, one that ends by its
        /// innermost open slice's end, or none (`.min`) when it is reserved or as deep as a lane goes.
        var room: Int64 {
            if reserved { return .min }
            guard let innermost = ends.last else { return .max }
            return ends.count < SliceLanes.maximumDepth ? innermost : .min
        }

        /// Whether a slice whose end is not known yet can hold the lane.
        var isFree: Bool { !reserved && ends.isEmpty }
    }

    private var lanes: [Lane] = []
    /// The stacks' storage of the lanes ``removeAll()`` let go, empty, for the lanes added next: a process's start empties
    /// every group its predecessor used, and each lane's first slice would otherwise allocate its stack again.
    /// They hold no more than the lanes did at once.
    private var spareStacks: [[Int64]] = []
    private var reservations = 0
    /// The latest start placed so far.
    private var latestStart = Int64.min
    /// The ends of the slices open on the lanes, soonest first.
    private var ending = EndQueue()
    /// Each lane's ``Lane/room``, and whether it is free (1) or not (0), for finding the first that fits.
    private var room = FirstFit()
    private var free = FirstFit()
    /// Whether ``ending``, ``room`` and ``free`` are kept: from the second lane on.
    private var multiLane = false

    /// The number of lanes used so far.
    var count: Int { lanes.count }

    /// Whether a slice whose end is not known yet holds a lane.
    var hasReservations: Bool { reservations > 0 }

    /// Empties the lanes, as new ones, keeping their memory.
    ///
    /// Lanes never used are left as they are, and the queue and trees only kept from a second lane on are only
    /// emptied then: a process's start resets every group its predecessor used, most of them one lane deep.
    mutating func removeAll() {
        guard !lanes.isEmpty else { return }
        while var lane = lanes.popLast() { spareStacks.append(lane.ends.takeStorage()) }
        reservations = 0
        latestStart = .min
        guard multiLane else { return }
        ending.removeAll()
        room.removeAll()
        free.removeAll()
        multiLane = false
    }

    /// Places a slice from `start` to `end` (`end >= start`) and returns its lane; `nil` if no lane can hold it
    /// and there are ``maximumLanes`` already.
    mutating func place(from start: Int64, to end: Int64) -> Int? {
        if !multiLane, let lane = placeOnOnlyLane(from: start, to: end) { return lane }
        let found: Int?
        if start >= latestStart {
            closeSlices(until: start)
            found = room.first(atLeast: end)
        } else {
            found = search(from: start) { lane in
                if let enclosing = lane.ends.last, end > enclosing { return false }
                return lane.ends.count < Self.maximumDepth
            }
        }
        if let index = found {
            lanes[index].ends.append(end)
            lanes[index].lastStart = start
            noteChange(of: index)
            ending.push(end, lane: index)
            return index
        }
        guard lanes.count < Self.maximumLanes else { return nil }
        lanes.append(newLane(holding: end, from: start))
        noteChange(of: lanes.count - 1)
        ending.push(end, lane: lanes.count - 1)
        return lanes.count - 1
    }

    /// Holds a lane for a slice that begins at `start` and ends when ``release(_:at:)`` says: a lane with
    /// nothing open at `start`, which takes nothing else until then; `nil` if there is none and there are
    /// ``maximumLanes`` already.
    mutating func reserve(at start: Int64) -> Int? {
        if !multiLane, let lane = reserveOnOnlyLane(at: start) { return lane }
        let found: Int?
        if start >= latestStart {
            closeSlices(until: start)
            found = free.first(atLeast: 1)
        } else {
            found = search(from: start) { $0.ends.isEmpty }
        }
        if let index = found {
            lanes[index].reserved = true
            lanes[index].lastStart = start
            reservations += 1
            noteChange(of: index)
            return index
        }
        guard lanes.count < Self.maximumLanes else { return nil }
        lanes.append(newLane(holding: nil, from: start))
        reservations += 1
        noteChange(of: lanes.count - 1)
        return lanes.count - 1
    }

    /// Ends the slice that held `lane` at `end` (not before its start); the lane takes slices again.
    mutating func release(_ lane: Int, at end: Int64) {
        if lanes[lane].reserved { reservations -= 1 }
        lanes[lane].reserved = false
        let closed = max(end, lanes[lane].lastStart)
        lanes[lane].ends.removeAll()
        lanes[lane].ends.append(closed)
        guard multiLane else { return }
        noteChange(of: lane)
        ending.push(closed, lane: lane)
    }

    // MARK: - One lane

    /// ``place(from:to:)`` while the track has at most one lane: its first lane if it is new or holds the slice
    /// (as the tree would find it), `nil` if a second lane is needed, which the general path then adds.
    @inline(__always)
    private mutating func placeOnOnlyLane(from start: Int64, to end: Int64) -> Int? {
        guard !lanes.isEmpty else {
            latestStart = max(latestStart, start)
            lanes.append(newLane(holding: end, from: start))
            return 0
        }
        let fits: Bool
        if start >= latestStart {
            latestStart = start
            lanes[0].close(until: start)
            fits = lanes[0].room >= end
        } else if !lanes[0].reserved && start >= lanes[0].lastStart {
            lanes[0].close(until: start)
            fits = lanes[0].ends.count < Self.maximumDepth && lanes[0].ends.last.map { end <= $0 } ?? true
        } else {
            fits = false
        }
        guard fits else {
            becomeMultiLane()
            return nil
        }
        lanes[0].ends.append(end)
        lanes[0].lastStart = start
        return 0
    }

    /// ``reserve(at:)`` while the track has at most one lane, as ``placeOnOnlyLane(from:to:)``.
    private mutating func reserveOnOnlyLane(at start: Int64) -> Int? {
        guard !lanes.isEmpty else {
            latestStart = max(latestStart, start)
            lanes.append(newLane(holding: nil, from: start))
            reservations += 1
            return 0
        }
        let fits: Bool
        if start >= latestStart {
            latestStart = start
            lanes[0].close(until: start)
            fits = lanes[0].isFree
        } else if !lanes[0].reserved && start >= lanes[0].lastStart {
            lanes[0].close(until: start)
            fits = lanes[0].ends.isEmpty
        } else {
            fits = false
        }
        guard fits else {
            becomeMultiLane()
            return nil
        }
        lanes[0].reserved = true
        lanes[0].lastStart = start
        reservations += 1
        return 0
    }

    /// A lane that a slice from `start` to `end` takes, or that one whose end is not known yet (`nil`) holds
    /// (reserved), its stack a spare one if there is one.
    private mutating func newLane(holding end: Int64?, from start: Int64) -> Lane {
        var ends = OpenEnds(storage: spareStacks.popLast() ?? [])
        if let end { ends.append(end) }
        return Lane(ends: ends, lastStart: start, reserved: end == nil)
    }

    /// Builds the queue of ends and the trees over the one lane, before a second lane is added.
    private mutating func becomeMultiLane() {
        multiLane = true
        lanes[0].ends.forEach { ending.push($0, lane: 0) }
        noteChange(of: 0)
    }

    // MARK: - Finding lanes

    /// Closes, on every lane, the slices that ended by `start`, the latest start so far.
    private mutating func closeSlices(until start: Int64) {
        latestStart = start
        while let (end, lane) = ending.first, end <= start {
            ending.removeFirst()
            lanes[lane].close(until: start)
            noteChange(of: lane)
        }
    }

    /// The first lane, not reserved and whose last start is not after `start`, that `fits` once its slices that
    /// ended by `start` are closed: a start that comes after a later one, found lane by lane.
    private mutating func search(from start: Int64, _ fits: (Lane) -> Bool) -> Int? {
        for index in lanes.indices where !lanes[index].reserved && start >= lanes[index].lastStart {
            lanes[index].close(until: start)
            noteChange(of: index)
            if fits(lanes[index]) { return index }
        }
        return nil
    }

    private mutating func noteChange(of index: Int) {
        room.set(index, lanes[index].room)
        free.set(index, lanes[index].isFree ? 1 : 0)
    }
}

/// The ends of open slices with their lanes, soonest first: a binary heap.
private struct EndQueue {
    private var heap: [(end: Int64, lane: Int32)] = []

    var first: (end: Int64, lane: Int)? { heap.first.map { ($0.end, Int($0.lane)) } }

    mutating func removeAll() {
        heap.removeAll(keepingCapacity: true)
    }

    mutating func push(_ end: Int64, lane: Int) {
        heap.append((end, Int32(lane)))
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].end < heap[parent].end else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    mutating func removeFirst() {
        let last = heap.removeLast()
        guard !heap.isEmpty else { return }
        heap[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1
            guard left < heap.count else { return }
            let right = left + 1
            let child = right < heap.count && heap[right].end < heap[left].end ? right : left
            guard heap[child].end < heap[parent].end else { return }
            heap.swapAt(child, parent)
            parent = child
        }
    }
}

/// A value per lane, and the first lane whose value is at least some bound: a tree of maxima over the lanes,
/// grown as lanes are added (a track of one lane has a tree of one leaf).
private struct FirstFit {
    /// Leaves from `capacity`, each inner node the maximum of its two children; unused leaves `.min`.
    private var tree: [Int64] = [.min, .min]
    private var capacity = 1

    /// Sets every value to `.min` (no lane), keeping the tree's size.
    mutating func removeAll() {
        for node in tree.indices { tree[node] = .min }
    }

    mutating func set(_ index: Int, _ value: Int64) {
        if index >= capacity { grow(to: index + 1) }
        var node = capacity + index
        tree[node] = value
        while node > 1 {
            node /= 2
            let maximum = max(tree[2 * node], tree[2 * node + 1])
            if tree[node] == maximum { break }
            tree[node] = maximum
        }
    }

    /// The first index whose value is at least `bound`, `nil` if none is.
    func first(atLeast bound: Int64) -> Int? {
        guard tree[1] >= bound else { return nil }
        var node = 1
        while node < capacity { node = tree[2 * node] >= bound ? 2 * node : 2 * node + 1 }
        return node - capacity
    }

    private mutating func grow(to count: Int) {
        var newCapacity = capacity
        while newCapacity < count { newCapacity *= 2 }
        var newTree = [Int64](repeating: .min, count: 2 * newCapacity)
        for index in 0..<capacity { newTree[newCapacity + index] = tree[capacity + index] }
        for node in stride(from: newCapacity - 1, through: 1, by: -1) {
            newTree[node] = max(newTree[2 * node], newTree[2 * node + 1])
        }
        tree = newTree
        capacity = newCapacity
    }
}
