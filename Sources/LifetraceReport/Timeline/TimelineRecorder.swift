import LifetraceAnalysis
import LifetraceCore
import LifetraceFormat

/// Builds a ``Timeline`` while the analyzer runs: the observer ``ReportedTrace/analyze(path:codec:configuration:models:)`` gives it.
final class TimelineRecorder: TimelineObserver {
    private(set) var timeline = Timeline()
    private var laneIndex: [String: Int] = [:]
    /// Each service's lane, and the state it is in since when, while its process runs.
    private var serviceLanes: [String: Int] = [:]
    private var serviceStates: [Int: ServiceLaneState] = [:]
    private var openTasks: [Int64: Int] = [:]

    private var sceneLanes = 0
    private var processLane: Int?
    /// The budgets task bars are drawn against.
    private let backgroundTaskBudget: Int64?
    private let refreshTaskBudget: Int64?

    init(configuration: AnalysisConfiguration) {
        backgroundTaskBudget = configuration.budget(.backgroundTask)
        refreshTaskBudget = configuration.budget(.refreshTask)
    }

    func processStarted(_ event: EventRecord, row: Int, of block: borrowing EventBlock, index: Int) {}

    func finding(rule: Rule, severity: Severity, message: String, scene: String?, t: Int64, index: Int) {}

    /// Draws the event where it belongs: scene callbacks on their scene's lane, the rest on the process's.
    func event(_ record: EventRecord, row: Int, of block: borrowing EventBlock, index: Int) {
        let event = block.event(at: row)
        switch event.kind.layer {
        case .scene:
            mark(scene: event.scene ?? "?", event, index: index)
        case .swiftui where event.scene != nil:
            mark(scene: event.scene, event, index: index)
        case .task:
            task(event, budget: event.kind == .bgRefreshBegin ? refreshTaskBudget : backgroundTaskBudget)
            mark(scene: nil, event, index: index)
        case .process where event.kind == .processLaunch || event.kind == .processExit:
            mark(scene: nil, event, index: index)
        case .app, .swiftui, .custom:
            mark(scene: nil, event, index: index)
        case .service:
            // A service's events on its own lane (its name is their scene); signals on the process's.
            guard let name = event.scene, let lane = lane(service: name) else {
                mark(scene: nil, event, index: index)
                return
            }
            mark(lane: lane, event, index: index)
            service(lane: lane, event.kind, at: event.t)
        case .system where event.kind == .systemSnapshot || event.kind == .recorderDropped:
            mark(scene: nil, event, index: index)
        default: break
        }
    }

    /// The lane of the process (`scene == nil`) or of a scene, created on first use; `nil` for scenes past
    /// the limit. Lanes are found by the scene's name kept bounded (a short name is its own string, built anew for none).
    private func lane(scene name: String?) -> Int? {
        guard let name else {
            if let processLane { return processLane }
            timeline.lanes.append(Timeline.Lane(name: "process", isProcess: true))
            processLane = timeline.lanes.count - 1
            return processLane
        }
        // Found by the scene's name kept bounded (``KeptName``): a name of megabytes is held once, cut.
        let scene = KeptName.bounded(name)
        if let index = laneIndex[scene] { return index >= 0 ? index : nil }
        guard claimLane() else {
            laneIndex[scene] = -1
            return nil
        }
        // Names kept are cut as a finding's are: a scene's id of megabytes is not copied into the timeline.
        timeline.lanes.append(
            Timeline.Lane(name: scene.isEmpty ? "app" : "scene " + KeptName.cut(scene), isProcess: false))
        laneIndex[scene] = timeline.lanes.count - 1
        return timeline.lanes.count - 1
    }

    /// Whether one more scene or service lane may be drawn (``Timeline/sceneLaneLimit``); counts it drawn, or
    /// undrawn.
    private func claimLane() -> Bool {
        guard sceneLanes < Timeline.sceneLaneLimit else {
            timeline.undrawnScenes += 1
            return false
        }
        sceneLanes += 1
        return true
    }

    /// The lane of the service `name`, created on first use; `nil` past the limit.
    private func lane(service name: String) -> Int? {
        if let index = serviceLanes[name] { return index >= 0 ? index : nil }
        guard claimLane() else {
            serviceLanes[name] = -1
            return nil
        }
        var lane = Timeline.Lane(name: "service " + KeptName.cut(name), isProcess: false)
        lane.isService = true
        timeline.lanes.append(lane)
        serviceLanes[name] = timeline.lanes.count - 1
        return timeline.lanes.count - 1
    }

    /// A service's lifecycle event moves its lane (``ServiceLaneState``): starting from its start, running from
    /// its readiness, stopping from its shutdown request, nothing from its stop.
    private func service(lane: Int, _ kind: EventKind, at t: Int64) {
        if let closed = serviceStates[lane, default: ServiceLaneState()].apply(kind, at: t) {
            add(lane: lane, state: closed.state, from: closed.start, to: closed.end)
        }
    }

    /// Adds a state segment to the process's lane (`scene == nil`) or a scene's (`""` for the app's window).
    func segment(scene: String?, state: TimelineState, from start: Int64, to end: Int64, inferred: Bool) {
        guard end > start, let index = lane(scene: scene) else { return }
        add(lane: index, state: state, from: start, to: end, inferred: inferred)
    }

    private func add(lane index: Int, state: TimelineState, from start: Int64, to end: Int64, inferred: Bool = false) {
        guard end > start else { return }
        let state = state.name
        var segments = timeline.lanes[index].segments
        timeline.lanes[index].segments = []
        if let last = segments.last, last.state == state, last.inferred == inferred, last.end == start {
            segments[segments.count - 1].end = end
        } else {
            segments.append(
                Timeline.Segment(start: start, end: end, state: state, inferred: inferred, aggregated: false))
        }
        if segments.count > 2 * Timeline.segmentLimit { segments = Self.coarsen(segments) }
        timeline.lanes[index].segments = segments
    }

    /// Merges neighbours pairwise; the merged segment keeps the state that covered more of it.
    static func coarsen(_ segments: [Timeline.Segment]) -> [Timeline.Segment] {
        var result: [Timeline.Segment] = []
        result.reserveCapacity(segments.count / 2 + 1)
        var i = 0
        while i < segments.count {
            if i + 1 < segments.count {
                let a = segments[i]
                let b = segments[i + 1]
                let dominant = (a.end - a.start) >= (b.end - b.start) ? a : b
                result.append(
                    Timeline.Segment(
                        start: a.start, end: b.end, state: dominant.state,
                        inferred: dominant.inferred, aggregated: true))
            } else {
                result.append(segments[i])
            }
            i += 2
        }
        return result
    }

    /// Adds a callback or marker to the process's lane (`scene == nil`) or a scene's.
    private func mark(scene: String?, _ event: borrowing LifecycleEvent, index: Int) {
        guard let lane = lane(scene: scene) else { return }
        mark(lane: lane, event, index: index)
    }

    private func mark(lane: Int, _ event: borrowing LifecycleEvent, index: Int) {
        timeline.lanes[lane].markCounter += 1
        guard timeline.lanes[lane].markCounter % timeline.lanes[lane].markStride == 0 else {
            timeline.lanes[lane].droppedMarks += 1
            return
        }
        timeline.lanes[lane].marks.append(
            Timeline.Mark(
                t: event.t, name: KeptName.cut(event.eventName), dur: event.dur,
                index: index))
        if timeline.lanes[lane].marks.count > 2 * Timeline.segmentLimit {
            // Thin out: keep every other mark, and from now on every other one recorded.
            var kept: [Timeline.Mark] = []
            for (position, mark) in timeline.lanes[lane].marks.enumerated() where position % 2 == 0 {
                kept.append(mark)
            }
            timeline.lanes[lane].droppedMarks += timeline.lanes[lane].marks.count - kept.count
            timeline.lanes[lane].marks = kept
            timeline.lanes[lane].markStride *= 2
        }
    }

    private func task(_ event: borrowing LifecycleEvent, budget: Int64?) {
        guard let id = event.task else { return }
        switch event.kind {
        case .taskBegin, .bgRefreshBegin, .bgProcessingBegin:
            guard timeline.tasks.count < 2 * Timeline.segmentLimit else { return }
            openTasks[id] = timeline.tasks.count
            timeline.tasks.append(
                Timeline.TaskBar(
                    id: id,
                    name: event.name.map(KeptName.cut)
                        ?? (event.kind == .taskBegin ? nil : event.kind.name),
                    start: event.t, end: nil, ended: false, expired: false,
                    budget: budget))
        case .taskExpire:
            if let index = openTasks[id] { timeline.tasks[index].expired = true }
        case .taskEnd, .bgRefreshEnd, .bgProcessingEnd:
            if let index = openTasks.removeValue(forKey: id) {
                timeline.tasks[index].end = event.t
                timeline.tasks[index].ended = true
            }
        default: break
        }
    }

    /// The process ended at `t`: tasks it left open end there too, not ended by the app, and its services' lanes.
    func processEnded(at t: Int64, as end: ProcessEnd) {
        for (lane, var service) in serviceStates {
            if let closed = service.end(at: t) {
                add(lane: lane, state: closed.state, from: closed.start, to: closed.end)
            }
        }
        serviceStates.removeAll()
        for index in openTasks.values { timeline.tasks[index].end = t }
        openTasks.removeAll()
    }

    func finish(start: Int64, end: Int64) -> Timeline {
        timeline.start = start
        timeline.end = end
        return timeline
    }
}
