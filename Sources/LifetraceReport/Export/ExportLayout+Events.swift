import LifetraceAnalysis
import LifetraceCore

/// How the exporter draws each kind of event: callbacks as slices on their group's tracks, tasks from begin to end.
extension ExportLayout {
    /// A callback: a slice as long as its handler, or begun here and ended by its `handler.return` when it was
    /// written unfinished.
    mutating func callback(_ event: ExportEventFields, layer: EventLayer, index: Int) {
        let scene = event.scene
        guard event.dur == nil, event.hasAttribute(Attribute.Key.unfinished) else {
            let slot = callbackSlot(layer, scene: scene)
            // The format keeps t + dur within 64 bits.
            let end = event.t &+ (event.dur ?? 0)
            guard let track = place(slot: slot, from: event.t, to: end) else {
                unplaced(
                    ExportName(of: event), .callback, slot: slot, at: event.t,
                    ExportArguments(index: index, event: event), end: end)
                return
            }
            encoder.slice(
                on: track, name: ExportName(of: event), category: .callback, from: event.t, to: end,
                ExportArguments(index: index, event: event))
            summary.slices += 1
            return
        }
        let key = HandlerKey(group: Self.callbackGroup(layer, scene: scene), name: event.eventName)
        if let earlier = process.unfinished.removeValue(forKey: key) {
            // The same callback again before the first returned: the first ends here, its return unknown.
            close(earlier, at: event.t, ExportArguments(extras: ExportExtras(.returned(false))))
        }
        let slot = callbackSlot(layer, scene: scene)
        guard let open = reserve(slot: slot, at: event.t) else {
            unplaced(
                ExportName(of: event), .callback, slot: slot, at: event.t, ExportArguments(index: index, event: event),
                end: nil)
            return
        }
        encoder.begin(
            on: open.track, name: ExportName(of: event), category: .callback, at: event.t,
            ExportArguments(index: index, event: event))
        process.unfinished[key] = open
    }

    /// The return of a handler written unfinished: the end of its slice.
    mutating func handlerReturned(_ event: ExportEventFields, index: Int) {
        let name = event.name ?? ""
        let group = Self.callbackGroup(EventKind(name: name)?.layer ?? .app, scene: event.scene)
        guard let open = process.unfinished.removeValue(forKey: HandlerKey(group: group, name: name)) else {
            instant(
                ExportName(of: event), .system, in: .events, at: event.t, ExportArguments(index: index, event: event))
            return
        }
        let dur = event.dur ?? 0
        close(
            open, at: open.start &+ dur, ExportArguments(index: index, extras: ExportExtras(.dur(dur), .returned(true)))
        )
    }

    /// A background task's (or BackgroundTasks task's) event: its slice's begin or end, or an instant on it.
    mutating func task(_ event: ExportEventFields, index: Int) {
        let arguments = ExportArguments(index: index, event: event)
        guard let id = event.task else {
            instant(ExportName(of: event), .task, in: .tasks, at: event.t, arguments)
            return
        }
        switch event.kind {
        case .taskBegin, .bgRefreshBegin, .bgProcessingBegin:
            if let earlier = process.openTasks.removeValue(forKey: id) {
                close(earlier, at: event.t, ExportArguments(extras: ExportExtras(.outcome(.begunAgain))))
            }
            // Named by kind and the app's name for it; the id is an argument (few distinct names: made once each).
            let taskName = event.name
            let name = names.name(event.kind, taskName) {
                let kind =
                    event.kind == .taskBegin ? "background task" : String(event.kind.name.dropLast(".begin".count))
                return taskName.map { kind + " " + $0 } ?? kind
            }
            let slot = prepare(.tasks)
            guard let open = reserve(slot: slot, at: event.t) else {
                unplaced(name, .task, slot: slot, at: event.t, arguments, end: nil)
                return
            }
            encoder.begin(on: open.track, name: name, category: .task, at: event.t, arguments)
            process.openTasks[id] = open
        case .taskExpire:
            if let open = process.openTasks[id] {
                process.openTasks[id]?.expired = true
                encoder.instant(on: open.track, name: ExportName(of: event), category: .task, at: event.t, arguments)
                summary.instants += 1
            } else {
                instant(ExportName(of: event), .task, in: .tasks, at: event.t, arguments)
            }
        default:
            guard let open = process.openTasks.removeValue(forKey: id) else {
                var arguments = arguments
                let lanesFull = process.unplaced > 0
                arguments.extras.append(.begun(lanesFull ? .beforeTheTraceOrWhileLanesWereFull : .beforeTheTrace))
                instant(ExportName(of: event), .task, in: .tasks, at: event.t, arguments)
                return
            }
            var ending = arguments
            ending.extras.append(.outcome(open.expired ? .endedAfterExpiration : .ended))
            close(open, at: event.t, ending)
        }
    }
}
