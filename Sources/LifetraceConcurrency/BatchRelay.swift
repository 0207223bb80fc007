/// Hands batches of work from the calling thread to a thread of its own, which works through them in the order
/// they were handed over; a fixed set of batches goes back and forth between the two, reused.
///
/// The caller ``take()``s an empty batch, fills it and ``submit(_:)``s it, while the thread works on an earlier
/// one and gives it back empty. The caller waits only when every batch is in the thread's hands, so memory is
/// that many batches however much is handed over, and the cost is the slower side's, not the sum of both.
///
/// What the thread does with a batch is the `work` closure's, which must leave it empty for its next use. A batch
/// is touched by one side at a time: the lock the two take to pass it orders the caller's writes before the
/// thread's reads, and the thread's before the caller's next use. ``finish()`` waits for every batch handed over
/// and joins the thread; the owner calls it, at the latest from its own `deinit` (the running thread keeps the relay
/// alive until then).
package final class BatchRelay<Batch: AnyObject>: @unchecked Sendable {
    // Guarded by `condition`.
    private let condition = Condition()
    /// The batches given back empty, for the caller to take.
    private var empty: [Batch]
    /// Handed over and not yet taken by the thread, oldest first (at most every batch).
    private var handedOver: [Batch] = []
    /// Whether ``finish()`` was called: the thread ends once it has worked through what was handed over.
    private var closed = false
    /// The batches the caller has taken and not handed over.
    private var taken = 0
    /// How many batches go round.
    private let batchCount: Int
    /// The thread, until ``finish()`` has joined it.
    private var thread: WorkerThread?

    /// Starts a thread that calls `work` with each batch submitted, in order; `batches` are the batches reused
    /// (two or more, for the caller to fill one while the thread works on another).
    package init(batches: [Batch], work: @escaping (Batch) -> Void) {
        precondition(batches.count >= 2, "a relay needs a batch for each side")
        empty = batches
        batchCount = batches.count
        handedOver.reserveCapacity(batches.count)
        // Called on the thread alone, one batch at a time: what it captures is the thread's alone, or made before
        // the relay and only read after (the batches themselves cross under the lock).
        nonisolated(unsafe) let work = work
        thread = WorkerThread { [self] in run(work) }
    }

    /// An empty batch to fill, once the thread has given one back. The caller holds fewer batches than the relay
    /// has: holding every one, it would wait for ever.
    package func take() -> Batch {
        condition.lock()
        defer { condition.unlock() }
        precondition(taken < batchCount, "every batch of the relay is taken and none handed over")
        while empty.isEmpty { condition.wait() }
        taken += 1
        return empty.removeLast()
    }

    /// Hands `batch`, taken with ``take()`` and filled, to the thread.
    package func submit(_ batch: Batch) {
        condition.lock()
        precondition(!closed, "a batch submitted after the relay finished")
        taken -= 1
        handedOver.append(batch)
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until the thread has worked through every batch submitted, then stops it. Later calls return at once.
    package func finish() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
        thread?.join()
        thread = nil
    }

    private func run(_ work: (Batch) -> Void) {
        condition.lock()
        while true {
            while handedOver.isEmpty, !closed { condition.wait() }
            guard !handedOver.isEmpty else { break }
            let batch = handedOver.removeFirst()
            condition.unlock()
            work(batch)
            condition.lock()
            empty.append(batch)
            condition.broadcast()
        }
        condition.unlock()
    }
}
