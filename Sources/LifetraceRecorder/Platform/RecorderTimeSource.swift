import Dispatch
import LifetraceConcurrency
import LifetraceCore
import LifetraceFormat

/// Where a recorder reads the time and runs its periodic work (flushes, heartbeats): the system's clock and
/// a dispatch timer, or, for deterministic tests, a ``ManualTimeSource`` that moves only when told.
package protocol RecorderTimeSource: AnyObject, Sendable {
    /// Nanoseconds on the trace's clock (any origin).
    func nanoseconds() -> Int64
    /// Calls `tick` every `interval` nanoseconds, first after one interval, until `cancel` is called.
    func schedule(every interval: Int64, _ tick: @escaping @Sendable () -> Void) -> @Sendable () -> Void
}

/// The system's clock and a dispatch timer with a tenth of the interval as leeway, so the system can coalesce
/// its wake-ups with others (Apple, "Energy Efficiency Guide for iOS Apps": a tolerance of at least 10%).
final class SystemTimeSource: RecorderTimeSource {
    let clock: TraceClock

    init(clock: TraceClock) {
        self.clock = clock
    }

    func nanoseconds() -> Int64 {
        clock.nowNanoseconds()
    }

    func schedule(every interval: Int64, _ tick: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
        let source = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "lifetrace.recorder.flush"))
        let period = DispatchTimeInterval.of(nanoseconds: interval)
        source.schedule(
            deadline: .now() + period, repeating: period,
            leeway: .of(nanoseconds: interval / 10))
        source.setEventHandler(handler: tick)
        source.resume()
        let running = LockedValue<(any DispatchSourceTimer)?>(source)
        return {
            running.withLock {
                $0?.cancel()
                $0 = nil
            }
        }
    }
}

/// Time that moves only when ``advance(by:)`` moves it, running the ticks that fall due on the caller's
/// thread: what makes a recorder's timer testable without sleeping.
package final class ManualTimeSource: RecorderTimeSource {
    private struct Timer {
        var interval: Int64
        var next: Int64
        var tick: @Sendable () -> Void
        var id: Int
    }

    private struct State {
        var time: Int64
        var timers: [Timer] = []
        var nextID = 0
    }

    private let state: LockedValue<State>

    /// Time starting at `start` nanoseconds.
    package init(start: Int64 = 1_000_000_000) {
        state = LockedValue(State(time: start))
    }

    package func nanoseconds() -> Int64 {
        state.withLock { $0.time }
    }

    package func schedule(every interval: Int64, _ tick: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
        let id = state.withLock { state -> Int in
            state.nextID += 1
            state.timers.append(Timer(interval: interval, next: state.time + interval, tick: tick, id: state.nextID))
            return state.nextID
        }
        return { [weak self] in self?.state.withLock { $0.timers.removeAll { $0.id == id } } }
    }

    /// Moves the time on by `nanoseconds`, running each tick that falls due, in time order, at its time.
    package func advance(by nanoseconds: Int64) {
        let end = state.withLock { $0.time + nanoseconds }
        while let due = state.withLock({ state -> (@Sendable () -> Void)? in
            guard let index = state.timers.indices.min(by: { state.timers[$0].next < state.timers[$1].next }),
                state.timers[index].next <= end
            else { return nil }
            state.time = state.timers[index].next
            state.timers[index].next += state.timers[index].interval
            return state.timers[index].tick
        }) {
            due()
        }
        state.withLock { $0.time = end }
    }
}

extension DispatchTimeInterval {
    /// `nanoseconds` in the finest unit whose count fits an `Int`: on Apple Watch (arm64_32) `Int` is 32 bits,
    /// so `.nanoseconds` holds at most 2.1 s there.
    static func of(nanoseconds: Int64) -> DispatchTimeInterval {
        if let exact = Int(exactly: nanoseconds) { return .nanoseconds(exact) }
        if let micros = Int(exactly: nanoseconds / 1000) { return .microseconds(micros) }
        if let millis = Int(exactly: nanoseconds / 1_000_000) { return .milliseconds(millis) }
        return .seconds(Int(clamping: nanoseconds / 1_000_000_000))
    }
}
