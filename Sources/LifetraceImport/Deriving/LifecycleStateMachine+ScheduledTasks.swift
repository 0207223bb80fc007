import LifetraceCore

/// The tasks BGTaskScheduler runs (`bg.refresh.*`, `bg.processing.*`), numbered per process from 2³² + 1 as
/// the recorder numbers them, named by their identifier.
struct ScheduledTasks: Sendable {
    /// The identifier the debugger asked to launch (`Simulating launch for task with identifier ID`).
    var simulated: String?
    /// The open tasks by identifier: their number and kind.
    var open: [String: (id: Int64, kind: BackgroundTaskLine.Kind)] = [:]
    private var next: Int64 = 1
    /// A task that started without its kind in the log (`Starting simulated task: <decode: missing data>`):
    /// its begin, made when it started, and the events derived since, which wait for its kind. (A reference:
    /// whether one waits is asked for every entry, and the state machine is copied for ``TaskNumbering``.)
    var pending: PendingStart?

    final class PendingStart: Sendable {
        let begin: LifecycleEvent
        let line: LogLine
        let identifier: String?

        init(begin: LifecycleEvent, line: LogLine, identifier: String?) {
            self.begin = begin
            self.line = line
            self.identifier = identifier
        }
    }
    private(set) var held: [LifecycleEvent] = []
    /// The events the start's own line derived before it: they do not wait.
    var ready: [LifecycleEvent] = []

    /// The most events waiting for a task's kind.
    static let limit = 4096
    /// The first number of BGTaskScheduler's tasks, as the recorder gives them (above UIKit's).
    static let base: Int64 = 1 << 32

    var isHolding: Bool { pending != nil }
    var isFull: Bool { held.count >= Self.limit }

    mutating func hold(_ events: [LifecycleEvent]) {
        held.append(contentsOf: events)
    }

    /// The events that waited, and an end to waiting.
    mutating func take() -> [LifecycleEvent] {
        defer {
            held = []
            ready = []
            pending = nil
        }
        return ready + held
    }

    /// The events derived before the start that need not wait.
    mutating func takeReady() -> [LifecycleEvent] {
        defer { ready = [] }
        return ready
    }

    mutating func number() -> Int64 {
        defer { next += 1 }
        return Self.base + next
    }

    mutating func reset() {
        self = ScheduledTasks()
    }
}

extension LifecycleStateMachine {
    /// Derives what a BGTaskScheduler line of the app says (``BackgroundTaskLine``).
    mutating func scheduledTask(
        _ observation: BackgroundTaskLine.Observation, _ entry: LogLine,
        into events: inout [LifecycleEvent]
    ) {
        switch observation {
        case let .simulating(identifier):
            scheduled.simulated = identifier
        case let .started(kind, identifier):
            let identifier = identifier ?? scheduled.simulated
            let id = scheduled.number()
            let begin = withProvenance(
                LifecycleEvent(t: time(entry), kind: .bgRefreshBegin, task: id, name: identifier), entry)
            if let kind, let identifier {
                var event = begin
                event.kind = kind == .refresh ? .bgRefreshBegin : .bgProcessingBegin
                scheduled.open[identifier] = (id, kind)
                events.append(event)
            } else if scheduled.isHolding {
                notUnderstood(entry)
            } else {
                // The kind comes with the task's completion: what follows waits for it.
                scheduled.pending = ScheduledTasks.PendingStart(begin: begin, line: entry, identifier: identifier)
                scheduled.ready = events
                events.removeAll()
            }
        case let .completed(kind, identifier):
            guard let kind, let identifier = identifier ?? scheduled.simulated else { return notUnderstood(entry) }
            if let pending = scheduled.pending, pending.identifier == nil || pending.identifier == identifier {
                // The begin where the task started, then what waited for its kind, then this line's events.
                var begin = pending.begin
                begin.kind = kind == .refresh ? .bgRefreshBegin : .bgProcessingBegin
                begin.name = identifier
                scheduled.open[identifier] = (begin.task ?? scheduled.number(), kind)
                events = [begin] + scheduled.take() + events
            }
            let endKind: EventKind = kind == .refresh ? .bgRefreshEnd : .bgProcessingEnd
            if let open = scheduled.open.removeValue(forKey: identifier) {
                add(endKind, entry, into: &events) {
                    $0.task = open.id
                    $0.name = identifier
                }
            } else {
                // Begun before the capture began.
                let id = scheduled.number()
                add(endKind, entry, attributes: [Self.begunBeforeCapture], into: &events) {
                    $0.task = id
                    $0.name = identifier
                }
            }
        }
    }

    /// Ends waiting for a started task's kind that the log did not tell: its start is a line not understood;
    /// returns the events that waited.
    mutating func releaseScheduledHold() -> [LifecycleEvent] {
        guard let pending = scheduled.pending else { return [] }
        notUnderstood(pending.line)
        return scheduled.take()
    }
}
