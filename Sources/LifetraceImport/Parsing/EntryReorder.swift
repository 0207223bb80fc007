/// Puts a pasted capture's entries back in time order. Xcode's console is copied run by run, and a note or an
/// issue may paste the runs in any order (a later run's block before an earlier one's): each run is a process
/// of its own, and its events belong at its own times, not after the run pasted before it.
///
/// The entries pass through a window of at most ``limit`` entries (and ``byteLimit`` bytes of messages), kept
/// sorted on (time, input line): an entry leaves when the window is full, the earliest first, and the rest leave
/// in order at the end. A capture within the window comes out wholly in time order; entries of the same time
/// keep their input order. Entries that come in order (the common case) are appended; one that comes early is
/// inserted where it belongs.
///
/// Holding entries costs a long capture a tenth of its import's speed, and a capture in order needs none of it:
/// once the window has filled with entries in order (no entry of another process earlier than one before it, none
/// a second earlier), ``inOrder`` says so, and the importer lets it go and passes the rest of the capture on as it
/// comes. Pastes of several runs are small: they are read whole in the window.
struct EntryReorder: Sendable {
    /// The window: `entries[head...]`, sorted.
    private var entries: [LogLine] = []
    private var head = 0
    private var bytes = 0
    /// The latest time taken in, and the process of the entry that had it.
    private var latest: (time: Int64, pid: Int64?)?
    /// Whether an entry came out of order: earlier than one before it, of another process or by more than a
    /// second (a thread's line a little late is no paste out of order).
    private(set) var disordered = false
    static let limit = 4096
    static let byteLimit = 16 << 20

    /// Takes `entry` in; returns the earliest entry held once the window is full.
    mutating func push(_ entry: LogLine) -> LogLine? {
        if let latest, entry.timestamp < latest.time {
            if entry.pid != latest.pid || latest.time - entry.timestamp > 1_000_000_000 { disordered = true }
        } else {
            latest = (entry.timestamp, entry.pid)
        }
        if let last = entries.last, head < entries.count, Self.before(entry, last) {
            entries.insert(entry, at: insertionIndex(of: entry))
        } else {
            entries.append(entry)
        }
        bytes += entry.message.utf8.count
        guard entries.count - head > Self.limit || bytes > Self.byteLimit else { return nil }
        return pop()
    }

    /// Whether the window filled with entries in order: the capture needs no reordering.
    var inOrder: Bool { !disordered && (entries.count - head >= Self.limit || bytes > Self.byteLimit) }

    /// The earliest entry held, taken out; `nil` when none is (at the end of the capture, call it until then).
    mutating func pop() -> LogLine? {
        guard head < entries.count else { return nil }
        let first = entries[head]
        head += 1
        bytes -= first.message.utf8.count
        if head == entries.count {
            entries.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= Self.limit, head * 2 >= entries.count {
            // What left the window is dropped now and then, not at each entry.
            entries.removeFirst(head)
            head = 0
        }
        return first
    }

    /// Where `entry` goes in the window: after every entry not later than it.
    private func insertionIndex(of entry: LogLine) -> Int {
        var low = head
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if Self.before(entry, entries[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }

    private static func before(_ a: LogLine, _ b: LogLine) -> Bool {
        a.timestamp != b.timestamp ? a.timestamp < b.timestamp : a.number < b.number
    }
}
