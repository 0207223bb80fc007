/// Runs jobs on worker threads while the caller takes their results back in the order the jobs were claimed:
/// the one way lifetrace reads on more than one thread.
///
/// A worker claims the next job under the pipeline's lock (reading a file is sequential), works on it outside
/// the lock, in a slot of its own, and the caller accepts each finished slot under the lock, in claim order,
/// then consumes it outside the lock. At most `workers + 1` jobs are in flight (one per worker and one finished
/// ahead for the caller), so memory is that many slots whatever the number of jobs. A failure reaches the caller
/// after every job claimed before it; the caller's failure stops the workers. With one worker the caller reads
/// one job while the next is worked on: the cost is the slower of the two, not their sum.
///
/// Jobs may also weigh what they hold (a frame's decoded size): a job whose weight would take the jobs in flight
/// past the pipeline's budget waits to start until those before it are consumed, so that a run of heavy jobs is
/// worked on one or two at a time and memory stays bounded by the budget, not by the number of slots times the
/// heaviest job. Jobs start in the order they were claimed, so a job waits only on jobs before it.
package final class OrderedPipeline<Slot: AnyObject, Outcome, Failure: Error>: @unchecked Sendable {
    /// Under the lock: fills the slot with the next job; `false` when there is none.
    package typealias Claim = (Slot) throws(Failure) -> Bool
    /// On worker `worker`, outside the lock: does the slot's job.
    package typealias Work = (_ worker: Int, Slot) -> Result<Outcome, Failure>
    /// Under the lock, in claim order: takes a finished job's outcome before the slot is consumed; may refuse it.
    package typealias Accept = (Slot, Outcome) throws(Failure) -> Void
    /// Under the lock, once the slot is claimed: what its job weighs against the budget.
    package typealias Weigh = (Slot) -> Int

    // Guarded by `condition`. Slot `n % slots.count` holds job `n` while `consumed <= n < claimed`.
    private let condition = Condition()
    private let slots: [Slot]
    /// Each slot's outcome, set once its job is done (or its claim failed), cleared once it is consumed.
    private var outcomes: [Result<Outcome, Failure>?]
    private var claimed = 0
    private var consumed = 0
    /// The number of jobs, once a worker found the last (or a claim failed).
    private var end: Int?
    private var cancelled = false
    /// The most the jobs in flight may weigh together, unless one job alone weighs more.
    private let budget: Int
    /// What each slot's job weighs, while it is in flight; their sum, and the number of jobs started.
    private var weights: [Int]
    private var weightInFlight = 0
    private var started = 0

    private init(slots: [Slot], budget: Int) {
        self.slots = slots
        self.budget = budget
        outcomes = Array(repeating: nil, count: slots.count)
        weights = Array(repeating: 0, count: slots.count)
    }

    /// Runs `workers` threads on the jobs `claim` gives and lends each finished slot to `consume`, in order.
    ///
    /// - Parameters:
    ///   - makeSlot: makes one of the `workers + 1` slots the jobs are done in, reused from job to job.
    ///   - budget: the most the jobs in flight weigh together; a job heavier than the budget runs alone.
    ///   - weigh: what a claimed job weighs; by default nothing, so that only the slots bound the jobs in flight.
    /// - Throws: what `claim`, `work` or `accept` report, or what `consume` throws; the workers have stopped when
    ///   this returns.
    package static func run(
        workers: Int,
        makeSlot: () -> Slot,
        budget: Int = .max,
        weigh: @escaping Weigh = { _ in 0 },
        claim: @escaping Claim,
        work: @escaping Work,
        accept: Accept,
        consume: (Slot) throws -> Void
    ) throws {
        precondition(workers > 0, "a pipeline needs a worker")
        let pipeline = OrderedPipeline(slots: (0...workers).map { _ in makeSlot() }, budget: budget)
        // The closures run on the workers only, one call at a time per slot, as the lock orders them.
        nonisolated(unsafe) let claim = claim
        nonisolated(unsafe) let work = work
        nonisolated(unsafe) let weigh = weigh
        let threads = (0..<workers).map { worker in
            WorkerThread { pipeline.work(worker, claim: claim, weigh: weigh, work: work) }
        }
        defer { for thread in threads { thread.join() } }
        try pipeline.consumeAll(accept: accept, consume: consume)
    }

    private func work(_ worker: Int, claim: Claim, weigh: Weigh, work: Work) {
        condition.lock()
        while true {
            while !cancelled, end == nil, claimed - consumed == slots.count { condition.wait() }
            if cancelled || end != nil { break }
            let number = claimed
            let position = number % slots.count
            let more: Bool
            do throws(Failure) {
                more = try claim(slots[position])
            } catch {
                outcomes[position] = .failure(error)
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
            // Start in claim order, once the jobs before this one leave room for its weight.
            let weight = weigh(slots[position])
            while !cancelled, started != number || (weightInFlight > 0 && weightInFlight > budget - weight) {
                condition.wait()
            }
            if cancelled { break }
            started += 1
            weights[position] = weight
            weightInFlight += weight
            condition.broadcast()
            condition.unlock()
            let outcome = work(worker, slots[position])
            condition.lock()
            outcomes[position] = outcome
            condition.broadcast()
        }
        condition.unlock()
    }

    private func consumeAll(accept: Accept, consume: (Slot) throws -> Void) throws {
        defer {
            condition.lock()
            cancelled = true
            condition.broadcast()
            condition.unlock()
        }
        while true {
            condition.lock()
            let position = consumed % slots.count
            while outcomes[position] == nil, end.map({ consumed < $0 }) ?? true { condition.wait() }
            guard let outcome = outcomes[position] else {
                condition.unlock()
                return
            }
            do throws(Failure) {
                try accept(slots[position], outcome.get())
            } catch {
                condition.unlock()
                throw error
            }
            condition.unlock()
            try consume(slots[position])
            condition.lock()
            outcomes[position] = nil
            weightInFlight -= weights[position]
            weights[position] = 0
            consumed += 1
            condition.broadcast()
            condition.unlock()
        }
    }
}
