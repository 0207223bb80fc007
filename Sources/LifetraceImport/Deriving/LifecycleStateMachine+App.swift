import LifetraceCore

/// The app's own lines (`Schemas/oslog-mapping.md`, *The app's process*): its crashes, UIKit's background tasks,
/// BGTaskScheduler's tasks, UIKit's deactivation reasons and the app's own `lifetrace` lines.
extension LifecycleStateMachine {
    /// Derives what a line of the app's process said.
    mutating func apply(_ observation: AppObservation, _ entry: LogLine, into events: inout [LifecycleEvent]) {
        switch observation {
        case let .crashed(reason):
            // `*** Terminating app due to uncaught exception ...`, `libc++abi: terminating ...`: the process ends.
            endProcess(entry, reason: reason, pid: entry.pid ?? appPID, into: &events)
        case let .scheduledTask(observation):
            scheduledTask(observation, entry, into: &events)
        case let .deactivation(line):
            guard !ownCallbacks else { return }
            guard let line else { return notUnderstood(entry) }
            deactivation(line, entry, into: &events)
        case let .backgroundTask(observation):
            backgroundTask(observation, entry, into: &events)
        case let .ownEvent(event):
            guard let event else { return notUnderstood(entry) }
            ownEvent(event, entry, into: &events)
        case let .mac(line):
            guard !ownCallbacks else { return }
            macApp(line, entry, into: &events)
        case let .printedCallback(kind):
            guard !ownCallbacks else { return }
            printedCallback(kind, entry, into: &events)
        case .memoryWarning:
            // UIKit tells the app of the system's memory warning (`applicationDidReceiveMemoryWarning(_:)`).
            guard !ownCallbacks else { return }
            add(.appDidReceiveMemoryWarning, entry, into: &events)
        }
    }

    /// UIKit's background tasks: numbered as UIKit numbers them where the log redacts the number.
    private mutating func backgroundTask(
        _ observation: UIKitTaskLine.Observation, _ entry: LogLine,
        into events: inout [LifecycleEvent]
    ) {
        switch observation {
        case let .announced(handler):
            announcedHandler = handler
        case .creationNotUnderstood:
            announcedHandler = nil
            notUnderstood(entry)
        case let .created(shown, name):
            announcedHandler = nil
            // A redacted number is UIKit's next; unknown only if the capture ended before anything told.
            let id = shown ?? nextTaskID ?? highestTaskID + 1
            nextTaskID = id + 1
            highestTaskID = max(highestTaskID, id)
            if name == "com.apple.uikit.applicationSnapshot" {
                snapshotTasks.insert(id)
                add(.systemSnapshot, entry, into: &events)
                return
            }
            openTasks.insert(id)
            add(.taskBegin, entry, attributes: shown == nil ? [Self.taskIDInferred] : [], into: &events) {
                $0.task = id
                $0.name = name
            }
        case .endNotUnderstood:
            notUnderstood(entry)
        case let .ended(id):
            highestTaskID = max(highestTaskID, id)
            if snapshotTasks.remove(id) != nil { return }
            if openTasks.remove(id) != nil {
                add(.taskEnd, entry, into: &events) { $0.task = id }
            } else if !launchShown {
                // Begun before the capture began: its end is kept, and says so.
                add(.taskEnd, entry, attributes: [Self.begunBeforeCapture], into: &events) { $0.task = id }
            } else {
                // The capture shows the whole process, yet not this task's creation.
                notUnderstood(entry)
            }
        case .endedWithHandler:
            // Only what ``TaskNumbering`` needs to number redacted creations.
            break
        }
    }

    /// The app's own line states an event exactly.
    private mutating func ownEvent(_ event: LifecycleEvent, _ entry: LogLine, into events: inout [LifecycleEvent]) {
        var event = event
        event.t = time(entry)
        switch event.kind.layer {
        case .app, .scene, .swiftui: ownCallbacks = true
        default: break
        }
        if event.kind == .processLaunch, let last = events.last, last.kind == .processLaunch, last.t == event.t {
            // The app's own launch line (a recorder's mirror) is the process start this entry derived: it
            // says it exactly, so it replaces the derived one rather than starting a second process.
            events.removeLast()
        }
        events.append(withProvenance(event, entry))
    }
}
