import Dispatch
import LifetraceConcurrency
import LifetraceCore

/// The recorder's periodic work: flushes while events are buffered, heartbeats when asked for, and no timer
/// at all while the app is idle.
extension Recorder {
    /// Starts the periodic work if it is not running (and the recorder is not closing).
    func armTimer() {
        timer.withLock { timer in
            guard !timer.isArmed, !timer.isClosed else { return }
            let flushNanos = max(configuration.flushInterval.nanoseconds, RecorderConfiguration.minimumTick)
            let heartbeatNanos = configuration.heartbeatInterval.map {
                max($0.nanoseconds, RecorderConfiguration.minimumTick)
            }
            // Ticks at half the flush interval: an event is on disk within one interval of being recorded,
            // whenever in the interval it came and however late the timer fires.
            let tick = min(flushNanos / 2, heartbeatNanos ?? flushNanos)
            let ticker = RecorderTicker(flushEvery: flushNanos, heartbeatEvery: heartbeatNanos, now: now())
            let time = manualTime ?? SystemTimeSource(clock: clock)
            // The timer holds the recorder: a recorder nobody keeps goes on recording until it is closed.
            timer.cancel = time.schedule(every: tick) { [self] in self.tick(ticker) }
        }
    }

    /// One tick of the periodic work: a heartbeat and a flush when due, and the timer stopped once nothing is
    /// buffered and no heartbeat is asked for, so an idle app runs no timer.
    func tick(_ ticker: RecorderTicker) {
        let now = self.now()
        if ticker.heartbeatDue(at: now) { record(.heartbeat) }
        if ticker.flushDue(at: now) { writerQueue.async { try? self.writeOut(force: false) } }
        guard configuration.heartbeatInterval == nil else { return }
        timer.withLock { timer in
            // Under the timer's lock: an event that finds its buffer empty arms the timer after its append, so
            // either it is seen here or it arms a new timer.
            guard isIdle() else { return }
            timer.stop(closing: false)
        }
    }

    /// Whether nothing waits to be written: every buffer empty, every drop said, and no event carried to the next frame.
    func isIdle() -> Bool {
        for index in 0..<shards.count
        where shards.withLock(index, { $0.count > 0 || !$0.openSpans.isEmpty || $0.hasUnreportedDrops }) {
            return false
        }
        return !output.withLock { $0.isHoldingEvents }
    }

    /// Whether the periodic work runs now: for tests.
    package var isTimerArmed: Bool {
        timer.withLock { $0.isArmed }
    }
}

/// The recorder's periodic work while it runs: how to stop it.
struct RecorderTimer {
    var cancel: (@Sendable () -> Void)?
    var isClosed = false

    var isArmed: Bool { cancel != nil }

    mutating func stop(closing: Bool) {
        cancel?()
        cancel = nil
        if closing { isClosed = true }
    }
}

/// Decides, on each timer tick, whether a heartbeat and a flush are due. Touched only on the timer's queue.
final class RecorderTicker: @unchecked Sendable {
    private let flushEvery: Int64
    private let heartbeatEvery: Int64?
    private var lastFlush: Int64
    private var lastHeartbeat: Int64

    init(flushEvery: Int64, heartbeatEvery: Int64?, now: Int64) {
        self.flushEvery = flushEvery
        self.heartbeatEvery = heartbeatEvery
        lastFlush = now
        lastHeartbeat = now
    }

    func heartbeatDue(at now: Int64) -> Bool {
        guard let heartbeatEvery, now - lastHeartbeat >= heartbeatEvery * 9 / 10 else { return false }
        lastHeartbeat = now
        return true
    }

    func flushDue(at now: Int64) -> Bool {
        guard now - lastFlush >= flushEvery * 9 / 20 else { return false }
        lastFlush = now
        return true
    }
}
