import LifetraceCore
import LifetraceFormat

/// What a trace looked like over time, as the analyzer computed it: state segments per process, per scene and per
/// service, callbacks, background tasks and findings. The input of the reports.
///
/// Memory is bounded: past ``Timeline/segmentLimit`` segments a lane coarsens, merging neighbours into
/// segments that keep the state that dominated them and say they are aggregated.
public struct Timeline: Sendable {
    /// The most segments (and marks) a lane keeps before it coarsens.
    public static let segmentLimit = 2048
    /// The most scene and service lanes a timeline draws; later ones are counted in ``Timeline/undrawnScenes``.
    public static let sceneLaneLimit = 32

    /// A stretch of time in one state.
    public struct Segment: Sendable, Hashable {
        /// Start (ns).
        public var start: Int64
        /// End (ns).
        public var end: Int64
        /// `active`, `inactive`, `background` or `suspended`; on a service's lane `starting` (from its start to its
        /// readiness), `running` or `stopping` (from its shutdown request to its stop).
        public var state: String
        /// Whether the state was inferred (suspension without ground truth).
        public var inferred: Bool
        /// Whether the segment merges several (the lane was coarsened).
        public var aggregated: Bool
    }

    /// A callback or marker on a lane.
    public struct Mark: Sendable, Hashable {
        /// When it began (ns).
        public var t: Int64
        /// Its event name.
        public var name: String
        /// Its handler's duration, if known.
        public var dur: Int64?
        /// The event's index in the trace.
        public var index: Int
    }

    /// A background task, from begin to end (or to the end of its process).
    public struct TaskBar: Sendable, Hashable {
        /// The task id.
        public var id: Int64
        /// The task name.
        public var name: String?
        /// Begin (ns).
        public var start: Int64
        /// End (ns): when it ended, or when its process did; `nil` while the process still runs.
        public var end: Int64?
        /// Whether the app ended it (`false`: its process ended first, or the trace did).
        public var ended: Bool
        /// Whether its expiration handler ran.
        public var expired: Bool
        /// The budget it runs against (ns).
        public var budget: Int64?
    }

    /// One swimlane.
    public struct Lane: Sendable {
        /// `process 1`, `scene S1`, `app`, `service http`.
        public var name: String
        /// Whether the lane is a process (state of the whole app) or a scene.
        public var isProcess: Bool
        /// Whether the lane is a service's (of a service process): its lifecycle, from its start to its stop.
        public var isService = false
        /// State segments in time order.
        public var segments: [Segment] = []
        /// Callbacks and markers in time order (sampled when there are too many).
        public var marks: [Mark] = []
        /// Marks not kept because the lane had too many (it keeps every `markStride`-th).
        public var droppedMarks = 0
        /// Every how many marks one is kept.
        var markStride = 1
        var markCounter = 0
    }

    /// The lanes: processes first, then scenes and services in order of appearance.
    public var lanes: [Lane] = []
    /// Background tasks.
    public var tasks: [TaskBar] = []
    /// Scenes beyond ``Timeline/sceneLaneLimit``, not drawn.
    public var undrawnScenes = 0
    /// The trace's first and last timestamps.
    public var start: Int64 = 0
    /// The trace's last timestamp.
    public var end: Int64 = 0

    /// Creates an empty timeline.
    public init() {}
}

/// Builds a ``Timeline`` while the analyzer runs: the observer behind `recordTimeline`.
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
            Timeline.Lane(name: scene.isEmpty ? "app" : "scene " + FindingCollector.bounded(scene), isProcess: false))
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
        var lane = Timeline.Lane(name: "service " + FindingCollector.bounded(name), isProcess: false)
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
                t: event.t, name: FindingCollector.bounded(event.eventName), dur: event.dur,
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
                    name: event.name.map(FindingCollector.bounded)
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
