/// Decodes blocks on a thread of its own while the caller reads the previous ones: reading a trace costs
/// the slower of decoding and reading, not their sum.
///
/// Two blocks are in flight, no more: while the consumer reads one, the producer fills the other, then
/// waits. Memory stays at two blocks whatever the trace's size. Blocks reach the consumer in order; a
/// producer's error reaches it after every block decoded before the error.
final class BlockPipeline: @unchecked Sendable {
    /// Fills the block with the next events; returns `false` at the end of the trace.
    typealias Produce = (inout EventBlock) throws -> Bool

    private final class Slot: @unchecked Sendable {
        var block = EventBlock()
    }

    // Shared state, guarded by `condition`. A slot belongs to the producer until it is counted in
    // `produced`, then to the consumer until it is counted in `consumed`.
    private let condition = Condition()
    private let slots = [Slot(), Slot()]
    private var produced = 0
    private var consumed = 0
    private var ended = false
    private var failure: (any Error)?
    private var cancelled = false

    /// Runs `produce` on a worker thread and lends each block it fills to `consume`, in order.
    ///
    /// - Throws: what `produce` or `consume` throws; either way the worker has stopped when this returns.
    static func run(_ produce: @escaping Produce, consume: (borrowing EventBlock) throws -> Void) throws {
        let pipeline = BlockPipeline()
        nonisolated(unsafe) let produce = produce
        let worker = WorkerThread { pipeline.produceAll(produce) }
        defer { worker.join() }
        try pipeline.consumeAll(consume)
    }

    private func produceAll(_ produce: Produce) {
        while true {
            condition.lock()
            while produced - consumed == slots.count, !cancelled { condition.wait() }
            let stop = cancelled
            condition.unlock()
            if stop { return }
            let slot = slots[produced % slots.count]
            let more: Bool
            let error: (any Error)?
            do {
                more = try produce(&slot.block)
                error = nil
            } catch let thrown {
                more = false
                error = thrown
            }
            condition.lock()
            if more { produced += 1 } else { (ended, failure) = (true, error) }
            condition.broadcast()
            condition.unlock()
            if !more { return }
        }
    }

    private func consumeAll(_ consume: (borrowing EventBlock) throws -> Void) throws {
        while true {
            condition.lock()
            while produced == consumed, !ended { condition.wait() }
            if produced == consumed {
                let failure = failure
                condition.unlock()
                if let failure { throw failure }
                return
            }
            condition.unlock()
            do {
                try consume(slots[consumed % slots.count].block)
            } catch {
                condition.lock()
                cancelled = true
                condition.broadcast()
                condition.unlock()
                throw error
            }
            condition.lock()
            consumed += 1
            condition.broadcast()
            condition.unlock()
        }
    }
}
