import LifetraceConcurrency
import Testing

/// The pipeline hands finished jobs back in the order they were claimed, keeps at most one job per worker and
/// one finished ahead in flight, and stops cleanly on a failure from either side.
@Suite struct OrderedPipelineTests {
    struct Damage: Error, Equatable { var job: Int }

    final class Slot {
        var job = -1
        var result = -1
    }

    /// Jobs 0..<count, the job failing at `failingJob` in its claim or its work; counts claims under a lock.
    final class Jobs: @unchecked Sendable {
        let count: Int
        let failingJob: Int?
        let failInWork: Bool
        let claimed = LockedValue(0)
        let inWork = LockedValue((now: 0, most: 0))
        init(count: Int, failingJob: Int? = nil, failInWork: Bool = false) {
            (self.count, self.failingJob, self.failInWork) = (count, failingJob, failInWork)
        }

        func claim(_ slot: Slot) throws(Damage) -> Bool {
            let job = claimed.withLock { $0 }
            if let failingJob, job == failingJob, !failInWork { throw Damage(job: job) }
            guard job < count else { return false }
            slot.job = job
            claimed.withLock { $0 += 1 }
            return true
        }

        /// Squares the job's number, after a pause that differs from job to job so that workers finish out
        /// of order.
        func work(_ worker: Int, _ slot: Slot) -> Result<Int, Damage> {
            inWork.withLock {
                $0.now += 1
                $0.most = max($0.most, $0.now)
            }
            defer { inWork.withLock { $0.now -= 1 } }
            var spin = 0
            for step in 0..<((slot.job * 7919) % 5 * 20_000) { spin &+= step }
            if let failingJob, slot.job == failingJob, failInWork { return .failure(Damage(job: slot.job)) }
            slot.result = slot.job * slot.job + (spin & 0)
            return .success(slot.job)
        }

        func run(workers: Int, consume: (Slot) throws -> Void) throws {
            try OrderedPipeline<Slot, Int, Damage>.run(
                workers: workers, makeSlot: Slot.init, claim: claim, work: work,
                accept: { (slot, job) throws(Damage) in precondition(slot.job == job) }, consume: consume)
        }
    }

    @Test(arguments: [1, 2, 3, 8])
    func jobsComeBackInOrder(workers: Int) throws {
        let jobs = Jobs(count: 500)
        var seen: [Int] = []
        try jobs.run(workers: workers) { slot in seen.append(slot.result) }
        #expect(seen == (0..<500).map { $0 * $0 })
        #expect(jobs.inWork.withLock { $0.most } <= workers)
    }

    @Test(arguments: [1, 3])
    func theWorkersStayAtMostOneSlotEachAhead(workers: Int) throws {
        let jobs = Jobs(count: 60)
        var consumed = 0
        var furthestAhead = 0
        try jobs.run(workers: workers) { _ in
            furthestAhead = max(furthestAhead, jobs.claimed.withLock { $0 } - consumed)
            consumed += 1
        }
        #expect(consumed == 60)
        // The slot being read and one per worker.
        #expect(furthestAhead <= workers + 1)
    }

    @Test(arguments: [(1, false), (3, false), (1, true), (3, true)])
    func aFailureComesAfterTheJobsBeforeIt(workers: Int, inWork: Bool) {
        let jobs = Jobs(count: 100, failingJob: 7, failInWork: inWork)
        var seen: [Int] = []
        #expect(throws: Damage(job: 7)) {
            try jobs.run(workers: workers) { slot in seen.append(slot.job) }
        }
        #expect(seen == Array(0..<7))
    }

    @Test(arguments: [1, 3])
    func aConsumerFailureStopsTheWorkers(workers: Int) {
        let jobs = Jobs(count: 1_000_000)
        #expect(throws: Damage(job: 3)) {
            try jobs.run(workers: workers) { slot in
                if slot.job == 3 { throw Damage(job: 3) }
            }
        }
        // `run` returned, so the workers were joined; they stopped within a slot each of the failure.
        #expect(jobs.claimed.withLock { $0 } <= 4 + workers + 1)
    }

    @Test func noJobsIsAnEmptyRun() throws {
        var seen = 0
        try Jobs(count: 0).run(workers: 2) { _ in seen += 1 }
        #expect(seen == 0)
    }

    /// Jobs weigh 1 to 13 in a fixed pattern (job n weighs n * 7 % 13 + 1); with a budget of 12 the jobs at work
    /// or waiting to be consumed never weigh more than 12 together, and a job of 13 is at work alone; every job
    /// still comes back, in order, whatever the run of heavy and light jobs (no job waits on one after it).
    @Test(arguments: [1, 2, 3, 8])
    func theJobsInFlightStayWithinTheBudget(workers: Int) throws {
        let jobs = Jobs(count: 300)
        let weight = { (job: Int) in job * 7 % 13 + 1 }
        // Counted from the start of a job's work to the end of its consumption: within what the pipeline counts.
        let inFlight = LockedValue((now: 0, most: 0, heavyNotAlone: 0))
        var seen: [Int] = []
        try OrderedPipeline<Slot, Int, Damage>.run(
            workers: workers, makeSlot: Slot.init, budget: 12, weigh: { slot in weight(slot.job) },
            claim: jobs.claim,
            work: { worker, slot in
                inFlight.withLock { state in
                    state.now += weight(slot.job)
                    if state.now > 12 {
                        state.heavyNotAlone += state.now == weight(slot.job) ? 0 : 1
                    } else {
                        state.most = max(state.most, state.now)
                    }
                }
                return jobs.work(worker, slot)
            },
            accept: { (slot, job) throws(Damage) in precondition(slot.job == job) },
            consume: { slot in
                seen.append(slot.result)
                inFlight.withLock { $0.now -= weight(slot.job) }
            })
        #expect(seen == (0..<300).map { $0 * $0 })
        let state = inFlight.withLock { $0 }
        #expect(state.heavyNotAlone == 0)
        #expect(state.most <= 12)
    }
}
