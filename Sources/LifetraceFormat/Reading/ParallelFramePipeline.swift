/// Decodes data frames on several worker threads at once while the caller reads their blocks in order: for
/// readers whose own work per event is light next to decoding (`lifetrace info`).
///
/// Frames are claimed one at a time, in file order, under the pipeline's lock (reading the file is
/// sequential): a worker copies the claimed frame's bytes and decodes them on its own, and the caller takes
/// the blocks back in the order the frames were claimed. At most ``slotCount`` frames are in flight, so
/// memory stays flat whatever the trace's size. A failure reaches the caller after every block claimed before
/// it; a consumer's failure stops the workers.
final class ParallelFramePipeline: @unchecked Sendable {
    /// What a worker fills: the frame's bytes, then its block or the error decoding it.
    final class Slot: @unchecked Sendable {
        /// The frame, as claimed.
        var frame: FrameScanner.Frame?
        /// A copy of the frame's bytes.
        var bytes: [UInt8] = []
        var block = EventBlock()
        /// Set once the frame is decoded (or its claim failed), cleared once the block is read.
        var outcome: Result<EventBlockDecoder.Summary, TraceError>?
    }

    /// Under the lock: the next data frame, its bytes copied into the slot; `nil` at the end of the trace.
    typealias Claim = (Slot) throws(TraceError) -> Bool
    /// On a worker, outside the lock: decodes the slot's bytes into its block with the worker's own state.
    typealias Decode = (_ worker: Int, Slot) -> Result<EventBlockDecoder.Summary, TraceError>
    /// Under the lock, in order: accounts a decoded frame before its block is lent out; may refuse it.
    typealias Accept = (Slot, EventBlockDecoder.Summary) throws(TraceError) -> Void

    let slotCount: Int
    private let condition = Condition()
    private let slots: [Slot]
    /// Frames claimed and frames read so far: slot `n % slotCount` holds frame `n` while `consumed <= n < claimed`.
    private var claimed = 0
    private var consumed = 0
    /// The number of frames in the trace, once a worker found its end (or a claim failed).
    private var end: Int?
    private var cancelled = false

    private init(slotCount: Int) {
        self.slotCount = slotCount
        slots = (0..<slotCount).map { _ in Slot() }
    }

    /// Runs `workers` decoding threads and lends each block to `consume`, in frame order.
    ///
    /// - Throws: what `claim`, `decode` or `accept` report, or what `consume` throws; the workers have stopped
    ///   when this returns.
    static func run(
        workers: Int,
        claim: @escaping Claim,
        decode: @escaping Decode,
        accept: Accept,
        consume: (borrowing EventBlock) throws -> Void
    ) throws {
        // One frame in flight per worker, and one decoded ahead for the reader.
        let pipeline = ParallelFramePipeline(slotCount: workers + 1)
        nonisolated(unsafe) let claim = claim
        nonisolated(unsafe) let decode = decode
        let threads = (0..<workers).map { worker in WorkerThread { pipeline.work(worker, claim: claim, decode: decode) } }
        defer { for thread in threads { thread.join() } }
        try pipeline.consumeAll(accept: accept, consume: consume)
    }

    private func work(_ worker: Int, claim: Claim, decode: Decode) {
        condition.lock()
        while true {
            while !cancelled, end == nil, claimed - consumed == slotCount { condition.wait() }
            if cancelled || end != nil { break }
            let number = claimed
            let slot = slots[number % slotCount]
            let more: Bool
            do throws(TraceError) {
                more = try claim(slot)
            } catch {
                slot.outcome = .failure(error)
                claimed += 1
                end = claimed
                condition.broadcast()
                break
            }
            guard more else {
                end = number
                condition.broadcast()
                break
            }
            claimed += 1
            condition.unlock()
            let outcome = decode(worker, slot)
            condition.lock()
            slot.outcome = outcome
            condition.broadcast()
        }
        condition.unlock()
    }

    private func consumeAll(accept: Accept, consume: (borrowing EventBlock) throws -> Void) throws {
        defer {
            condition.lock()
            cancelled = true
            condition.broadcast()
            condition.unlock()
        }
        while true {
            condition.lock()
            let slot = slots[consumed % slotCount]
            while slot.outcome == nil, end.map({ consumed < $0 }) ?? true { condition.wait() }
            guard let outcome = slot.outcome else {
                condition.unlock()
                return
            }
            do throws(TraceError) {
                switch outcome {
                case let .success(summary): try accept(slot, summary)
                case let .failure(error): throw error
                }
            } catch {
                condition.unlock()
                throw error
            }
            condition.unlock()
            if slot.block.count > 0 { try consume(slot.block) }
            condition.lock()
            slot.outcome = nil
            consumed += 1
            condition.broadcast()
            condition.unlock()
        }
    }
}
