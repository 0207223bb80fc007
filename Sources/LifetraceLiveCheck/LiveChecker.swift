#if DEBUG
import Dispatch
import LifetraceAnalysis
import LifetraceConcurrency
import LifetraceCore
import LifetraceRecorder

/// The checker: takes the recorder's events on the recording thread into a bounded inbox (dropping and counting
/// when it is full), and reads them on a queue of its own, where the analyzer lives, and where a timer tells the
/// analyzer the time.
///
/// `@unchecked Sendable`: the reading state is touched only on ``queue`` (and locked besides), the inbox under
/// its lock; the timer is made and armed in `init` and cancelled in ``stop()``, which Dispatch allows from any thread.
final class LiveChecker: @unchecked Sendable {
    private struct Inbox {
        var events: [LifecycleEvent] = []
        var dropped = 0
        /// A read of the inbox is queued and has not begun.
        var scheduled = false
        var stopped = false
    }

    /// What only the queue touches.
    private struct Reading {
        var analyzer: TraceAnalyzer
        /// The time of the last event read: a later one stamped before it (another thread's) is read at it.
        var lastT: Int64 = 0
        var droppedReported = 0
        var finished = false
    }

    private let queue = DispatchQueue(label: "lifetrace.live-check")
    private let inbox = LockedValue(Inbox())
    /// Touched only on ``queue``.
    private let reading: LockedValue<Reading>
    private let timer: any DispatchSourceTimer
    private let recorder: Recorder
    private let reporter: any LiveCheckReporter

    init(recorder: Recorder, reporter: any LiveCheckReporter, configuration: AnalysisConfiguration) {
        self.recorder = recorder
        self.reporter = reporter
        let analyzer = TraceAnalyzer(
            file: recorder.liveCheckName, header: recorder.headerSoFar, configuration: configuration)
        analyzer.onFinding = { [reporter] finding in reporter.report(finding) }
        reading = LockedValue(Reading(analyzer: analyzer))
        timer = DispatchSource.makeTimerSource(queue: queue)
        // The analyzer is ready: the tap hands the launch first, then each event recorded.
        recorder.tapEvents { [weak self] event in self?.offer(event) }
        let (seconds, attoseconds) = LiveCheck.tick.components
        let tick = DispatchTimeInterval.microseconds(
            Int(truncatingIfNeeded: seconds * 1_000_000 + attoseconds / 1_000_000_000_000))
        timer.schedule(deadline: .now() + tick, repeating: tick, leeway: .milliseconds(5))
        timer.setEventHandler { [weak self] in self?.tickNow() }
        timer.resume()
    }

    var droppedEventCount: Int {
        inbox.withLock { $0.dropped }
    }

    /// On the recording thread: the event goes to the inbox, or is counted dropped; never waits for the checker.
    private func offer(_ event: LifecycleEvent) {
        let schedule = inbox.withLock { inbox -> Bool in
            guard !inbox.stopped else { return false }
            guard inbox.events.count < LiveCheck.capacity else {
                inbox.dropped += 1
                return false
            }
            inbox.events.append(event)
            defer { inbox.scheduled = true }
            return !inbox.scheduled
        }
        if schedule { queue.async { [self] in readInbox() } }
    }

    /// On the queue: reads what the inbox holds.
    private func readInbox() {
        let (events, dropped) = inbox.withLock { inbox -> ([LifecycleEvent], Int) in
            inbox.scheduled = false
            defer { inbox.events.removeAll(keepingCapacity: true) }
            return (inbox.events, inbox.dropped)
        }
        reading.withLock { reading in
            guard !reading.finished else { return }
            for var event in events {
                event.t = max(event.t, reading.lastT)
                reading.lastT = event.t
                reading.analyzer.consume(event)
            }
            if dropped > reading.droppedReported {
                reading.droppedReported = dropped
                reporter.eventsDropped(total: dropped)
            }
        }
    }

    /// On the queue: reads the inbox, then tells the analysis the time as it was before the read, so that no
    /// event stamped before that time is still on its way to the inbox but for one being handed over this instant.
    private func tickNow() {
        let now = recorder.now()
        readInbox()
        reading.withLock { reading in
            guard !reading.finished else { return }
            reading.analyzer.advance(to: now)
        }
    }

    func drain() {
        queue.sync { tickNow() }
    }

    func stop() {
        recorder.untapEvents()
        inbox.withLock { $0.stopped = true }
        timer.cancel()
        queue.sync {
            tickNow()
            reading.withLock { reading in
                guard !reading.finished else { return }
                reading.finished = true
                _ = reading.analyzer.finish()
            }
        }
    }
}
#endif
