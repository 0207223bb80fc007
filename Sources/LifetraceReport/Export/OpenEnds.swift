/// The ends of the slices open on one lane of a track (``SliceLanes``), outermost first: a stack whose innermost
/// end is held apart from the rest, so that a lane one slice deep, as most are, is placed on with no array touched.
struct OpenEnds {
    /// The innermost end, while ``count`` is above 0.
    private var top: Int64 = 0
    /// The ends outside the innermost, outermost first.
    private var outer: [Int64]
    /// How many slices are open.
    private(set) var count = 0

    /// No end, keeping `storage`'s memory (emptied) for the ends outside the innermost.
    init(storage: [Int64] = []) {
        outer = storage
        outer.removeAll(keepingCapacity: true)
    }

    /// Whether no slice is open.
    var isEmpty: Bool { count == 0 }

    /// The innermost end; `nil` when none is open.
    var last: Int64? { count > 0 ? top : nil }

    /// Opens a slice ending at `end` inside the others.
    mutating func append(_ end: Int64) {
        if count > 0 { outer.append(top) }
        top = end
        count &+= 1
    }

    /// Closes the innermost slice; one must be open.
    mutating func removeLast() {
        precondition(count > 0, "no slice is open")
        count &-= 1
        if count > 0 { top = outer.removeLast() }
    }

    /// Closes every slice, keeping the memory.
    mutating func removeAll() {
        outer.removeAll(keepingCapacity: true)
        count = 0
    }

    /// Calls `body` with each end, outermost first.
    func forEach(_ body: (Int64) -> Void) {
        guard count > 0 else { return }
        for end in outer { body(end) }
        body(top)
    }

    /// Empties the stack and hands over its memory, for a lane made later (``init(storage:)``).
    mutating func takeStorage() -> [Int64] {
        removeAll()
        var storage: [Int64] = []
        swap(&storage, &outer)
        return storage
    }
}
