import LifetraceAnalysis
import LifetraceCore
import LifetraceFormat

/// Turns what the analyzer reads and computes into tracks, slices and instants, and hands them to an encoder as
/// they come. Every event of the trace is in the export:
///
/// - callbacks (app delegate, scene, SwiftUI phase) are slices as long as their handlers, on the track of their
///   scene or of the app delegate; a handler written unfinished ends where its `handler.return` says, or where
///   its process ended (`returned: false`);
/// - a background task (or BackgroundTasks task) is one slice from its begin to its end, its expiration an instant
///   on it; an end whose begin the trace does not hold is an instant;
/// - process, system and marker events, and the findings, are instants; states are slices on state tracks.
///
/// Memory is what the running process has open (its scenes' tracks, its open tasks), not the trace's length.
final class TraceExporter: TimelineObserver {
    /// The groups of tracks of a process; a group has more than one track where its slices overlap.
    enum Group: Hashable {
        case events
        case state
        case appDelegate
        case tasks
        case scene(String)
        case sceneState(String)

        /// Whether the group is a scene's (many a trace has countless; the others are one each per process).
        var isScene: Bool {
            switch self {
            case .scene, .sceneState: true
            case .events, .state, .appDelegate, .tasks: false
            }
        }

        /// The name of the group's first track: a scene's id cut at ``TraceAnalyzer/keptStringLength`` bytes (its
        /// slices' arguments keep it whole), so that a track's name stays small whatever a trace names.
        var name: String {
            switch self {
            case .events: "events"
            case .state: "process state"
            case .appDelegate: "app delegate"
            case .tasks: "background tasks"
            case let .scene(scene): scene.isEmpty ? "app" : "scene " + Self.bounded(scene)
            case let .sceneState(scene): scene.isEmpty ? "app state" : "scene " + Self.bounded(scene) + " state"
            }
        }

        private static func bounded(_ scene: String) -> String {
            let limit = TraceAnalyzer.keptStringLength
            guard scene.utf8.count > limit else { return scene }
            return String(decoding: scene.utf8.prefix(limit), as: UTF8.self) + "…"
        }
    }

    private struct GroupTracks {
        var lanes = SliceLanes()
        var tracks: [ExportTrack] = []

        /// The track of `lane`, if it is declared. Mutating, though it changes nothing: called through the
        /// dictionary's values it reads the group in place, where a getter would copy it (its lanes and tracks).
        mutating func declaredTrack(_ lane: Int) -> ExportTrack? {
            lane < tracks.count ? tracks[lane] : nil
        }
    }

    /// A slice begun and not yet ended: an open task, or a handler written unfinished.
    private struct OpenSlice {
        var track: ExportTrack
        var group: Group
        var lane: Int
        var start: Int64
        var expired = false
    }

    /// A handler written unfinished, found again by its group and event name when it returns.
    private struct HandlerKey: Hashable {
        var group: Group
        var name: String
    }

    /// The running process's tracks and what it has open; a reference, mutated in place.
    private final class ProcessTracks {
        let info: ExportProcess
        var nextTID: Int32 = 1
        var groups: [Group: GroupTracks] = [:]
        /// The group looked up last and where it is in ``groups`` (which only ``TraceExporter/prepare(_:)`` adds to
        /// or removes from): consecutive events often go to one group, found again with no hashing.
        var lastGroup: (group: Group, index: Dictionary<Group, GroupTracks>.Index)?
        var openTasks: [Int64: OpenSlice] = [:]
        var unfinished: [HandlerKey: OpenSlice] = [:]
        /// Slices drawn as instants because every lane of their track was taken.
        var unplaced = 0

        init(info: ExportProcess) {
            self.info = info
        }
    }

    /// The most groups of tracks a process keeps live: past it, groups with nothing open are let go (a scene
    /// seen again gets new tracks), so that a trace of countless scenes takes bounded memory.
    static let liveGroupLimit = 1024

    private let encoder: any ExportEncoder
    private let app: String
    private(set) var summary: ExportSummary
    private var nextUUID: UInt64 = 1
    private var process: ProcessTracks?

    /// An exporter of the trace `file` (its header naming the app) to `encoder`.
    init(file: String, header: TraceHeader?, encoder: any ExportEncoder) {
        self.encoder = encoder
        app = header?.app ?? file
        summary = ExportSummary(file: file)
    }

    // MARK: - What the analyzer tells

    func processStarted(_ event: borrowing LifecycleEvent, index: Int) {
        if summary.processes == 0 {
            summary.origin = event.t
            encoder.start(origin: event.t)
        }
        summary.processes += 1
        var labels: [String] = []
        if event.kind == .processLaunch {
            labels.append("launch: " + (event.reason ?? "unknown"))
        } else {
            labels.append("running when the trace began")
        }
        if let pid = event.pid { labels.append("pid \(pid)") }
        let info = ExportProcess(uuid: takeUUID(), pid: Int32(clamping: summary.processes),
                                 name: event.pid.map { "\(app) (pid \($0))" } ?? app, labels: labels, start: event.t)
        encoder.declare(info)
        process = ProcessTracks(info: info)
    }

    func event(_ event: borrowing LifecycleEvent, index: Int) {
        summary.events += 1
        let event = copy event
        switch event.kind.layer {
        case .app, .scene, .swiftui:
            callback(event, in: Self.callbackGroup(event.kind.layer, scene: event.scene), index: index)
        case .task:
            task(event, index: index)
        case .process:
            instant(event.eventName, .process, in: .events, at: event.t, ExportArguments(index: index, event: event))
        case .service:
            // A service's events in its own group, as a scene's (its name is their scene); signals with the process's.
            instant(event.eventName, .process, in: event.scene.map(Group.scene) ?? .events, at: event.t,
                    ExportArguments(index: index, event: event))
        case .system where event.kind == .handlerReturn:
            handlerReturned(event, index: index)
        case .system:
            instant(event.eventName, .system, in: event.scene.map(Group.scene) ?? .events, at: event.t,
                    ExportArguments(index: index, event: event))
        case .custom:
            instant(event.eventName, .marker, in: event.scene.map(Group.scene) ?? .events, at: event.t,
                    ExportArguments(index: index, event: event))
        }
    }

    func segment(scene: String?, state: String, from start: Int64, to end: Int64, inferred: Bool) {
        guard process != nil else { return }
        let group = scene.map(Group.sceneState) ?? .state
        let name = inferred ? state + " (inferred)" : state
        let arguments = ExportArguments(extra: inferred ? [("inferred", .bool(true))] : [])
        guard let track = place(in: group, from: start, to: end) else {
            unplaced(name, .state, in: group, at: start, arguments, end: end)
            return
        }
        encoder.slice(on: track, name: name, category: .state, from: start, to: end, arguments)
        summary.slices += 1
    }

    func processEnded(at t: Int64, as end: ProcessEnd) {
        guard let running = process else { return }
        let outcome = end == .traceEnded ? "open when the trace ended" : "open when its process ended"
        // By start, then track: two slices opened at once close in the same order every run (a dictionary's is not).
        for open in running.openTasks.values.sorted(by: { ($0.start, $0.track.uuid) < ($1.start, $1.track.uuid) }) {
            close(open, at: t, ExportArguments(extra: [("outcome", .string(outcome))]))
        }
        running.openTasks.removeAll()
        for open in running.unfinished.values.sorted(by: { ($0.start, $0.track.uuid) < ($1.start, $1.track.uuid) }) {
            close(open, at: t, ExportArguments(extra: [("returned", .bool(false))]))
        }
        running.unfinished.removeAll()
        instant("process ended: " + end.rawValue, .process, in: .events, at: t,
                ExportArguments(extra: [("end", .string(end.rawValue))]))
    }

    func finding(rule: Rule, severity: Severity, message: String, scene: String?, t: Int64, index: Int) {
        guard process != nil else { return }
        summary.findings += 1
        instant(rule.id.rawValue + " " + rule.title, .finding, in: scene.map(Group.scene) ?? .events, at: t,
                ExportArguments(index: index, extra: [("rule", .string(rule.id.rawValue)),
                                                      ("severity", .string(severity.rawValue)),
                                                      ("message", .string(message))]))
    }

    /// Ends the export.
    func finish() throws(TraceError) {
        try encoder.finish(summary)
    }

    // MARK: - Events

    private func callback(_ event: LifecycleEvent, in group: Group, index: Int) {
        guard event.dur == nil, event.attrs?.contains(where: { $0.key == Attribute.Key.unfinished }) == true else {
            // The format keeps t + dur within 64 bits.
            let end = event.t &+ (event.dur ?? 0)
            guard let track = place(in: group, from: event.t, to: end) else {
                unplaced(event.eventName, .callback, in: group, at: event.t, ExportArguments(index: index, event: event), end: end)
                return
            }
            encoder.slice(on: track, name: event.eventName, category: .callback, from: event.t, to: end,
                          ExportArguments(index: index, event: event))
            summary.slices += 1
            return
        }
        let key = HandlerKey(group: group, name: event.eventName)
        if let earlier = process?.unfinished.removeValue(forKey: key) {
            // The same callback again before the first returned: the first ends here, its return unknown.
            close(earlier, at: event.t, ExportArguments(extra: [("returned", .bool(false))]))
        }
        guard let open = reserve(in: group, at: event.t) else {
            unplaced(event.eventName, .callback, in: group, at: event.t, ExportArguments(index: index, event: event), end: nil)
            return
        }
        encoder.begin(on: open.track, name: event.eventName, category: .callback, at: event.t,
                      ExportArguments(index: index, event: event))
        process?.unfinished[key] = open
    }

    private func handlerReturned(_ event: LifecycleEvent, index: Int) {
        let name = event.name ?? ""
        let group = Self.callbackGroup(EventKind(name: name)?.layer ?? .app, scene: event.scene)
        guard let open = process?.unfinished.removeValue(forKey: HandlerKey(group: group, name: name)) else {
            instant(event.eventName, .system, in: .events, at: event.t, ExportArguments(index: index, event: event))
            return
        }
        let dur = event.dur ?? 0
        close(open, at: open.start &+ dur, ExportArguments(index: index, extra: [("dur", .int(dur)), ("returned", .bool(true))]))
    }

    private func task(_ event: LifecycleEvent, index: Int) {
        let arguments = ExportArguments(index: index, event: event)
        guard let id = event.task else {
            instant(event.eventName, .task, in: .tasks, at: event.t, arguments)
            return
        }
        switch event.kind {
        case .taskBegin, .bgRefreshBegin, .bgProcessingBegin:
            if let earlier = process?.openTasks.removeValue(forKey: id) {
                close(earlier, at: event.t, ExportArguments(extra: [("outcome", .string("begun again before it ended"))]))
            }
            let kind = event.kind == .taskBegin ? "background task" : String(event.kind.name.dropLast(".begin".count))
            // Named by kind and the app's name for it; the id is an argument (names are interned: few distinct).
            let name = event.name.map { kind + " " + $0 } ?? kind
            guard let open = reserve(in: .tasks, at: event.t) else {
                unplaced(name, .task, in: .tasks, at: event.t, arguments, end: nil)
                return
            }
            encoder.begin(on: open.track, name: name, category: .task, at: event.t, arguments)
            process?.openTasks[id] = open
        case .taskExpire:
            if let open = process?.openTasks[id] {
                process?.openTasks[id]?.expired = true
                encoder.instant(on: open.track, name: event.eventName, category: .task, at: event.t, arguments)
                summary.instants += 1
            } else {
                instant(event.eventName, .task, in: .tasks, at: event.t, arguments)
            }
        default:
            guard let open = process?.openTasks.removeValue(forKey: id) else {
                var arguments = arguments
                let lanesFull = (process?.unplaced ?? 0) > 0
                arguments.extra.append(("begun", .string(lanesFull ? "before the trace, or while its track's lanes were full" : "before the trace")))
                instant(event.eventName, .task, in: .tasks, at: event.t, arguments)
                return
            }
            var ending = arguments
            ending.extra.append(("outcome", .string(open.expired ? "ended after its expiration handler ran" : "ended")))
            close(open, at: event.t, ending)
        }
    }

    /// Writes what reading the trace warned of (a truncated end, kinds skipped) as instants on a process of
    /// their own, "lifetrace: input warnings", at the trace's last time, so that the export says it as the
    /// command did.
    func inputWarnings(_ warnings: [TraceWarning], at t: Int64) {
        guard !warnings.isEmpty else { return }
        if summary.processes == 0 {
            summary.origin = t
            encoder.start(origin: t)
        }
        let info = ExportProcess(uuid: takeUUID(), pid: Int32(clamping: summary.processes + 1), name: "lifetrace: input warnings",
                                 labels: [], start: t)
        encoder.declare(info)
        let track = ExportTrack(uuid: takeUUID(), processUUID: info.uuid, pid: info.pid, tid: 1, name: "input warnings")
        encoder.declare(track)
        summary.tracks += 1
        for warning in warnings {
            encoder.instant(on: track, name: "warning: " + warning.message, category: .system, at: t,
                            ExportArguments(extra: [("warning", .string(warning.description))]))
            summary.instants += 1
        }
    }

    // MARK: - Tracks and lanes

    /// The group a callback of `layer` goes in: its scene's for a scene callback and a scene's SwiftUI phase,
    /// the app delegate's for the rest.
    private static func callbackGroup(_ layer: EventLayer, scene: String?) -> Group {
        switch layer {
        case .scene: .scene(scene ?? "?")
        case .swiftui: scene.map(Group.scene) ?? .appDelegate
        default: .appDelegate
        }
    }

    private func takeUUID() -> UInt64 {
        defer { nextUUID += 1 }
        return nextUUID
    }

    private func instant(_ name: String, _ category: ExportCategory, in group: Group, at t: Int64, _ arguments: ExportArguments) {
        guard process != nil else { return }
        let (running, index) = prepare(group)
        encoder.instant(on: track(lane: 0, at: index, of: running), name: name, category: category, at: t, arguments)
        summary.instants += 1
    }

    /// The track of the lane a slice from `start` to `end` goes on; `nil` if every lane is taken.
    private func place(in group: Group, from start: Int64, to end: Int64) -> ExportTrack? {
        let (running, index) = prepare(group)
        guard let lane = running.groups.values[index].lanes.place(from: start, to: end) else { return nil }
        return track(lane: lane, at: index, of: running)
    }

    /// A lane held for a slice begun at `t` whose end comes later; `nil` if every lane is taken.
    private func reserve(in group: Group, at t: Int64) -> OpenSlice? {
        let (running, index) = prepare(group)
        guard let lane = running.groups.values[index].lanes.reserve(at: t) else { return nil }
        return OpenSlice(track: track(lane: lane, at: index, of: running), group: group, lane: lane, start: t)
    }

    /// A slice for which every lane of its track was taken (``SliceLanes/maximumLanes`` overlap there): an
    /// instant at its start on the track's first lane, its end (if known) an argument, counted in the summary.
    private func unplaced(_ name: String, _ category: ExportCategory, in group: Group, at t: Int64, _ arguments: ExportArguments,
                          end: Int64?) {
        var arguments = arguments
        arguments.extra.append(("drawn", .string("as an instant: \(SliceLanes.maximumLanes) slices overlap on its track")))
        if let end { arguments.extra.append(("end_ns", .int(end))) }
        instant(name, category, in: group, at: t, arguments)
        process?.unplaced += 1
        summary.unplacedSlices += 1
    }

    /// Ends an open slice at `t` (not before it began) and frees its lane.
    private func close(_ open: OpenSlice, at t: Int64, _ arguments: ExportArguments) {
        let end = max(t, open.start)
        encoder.end(on: open.track, at: end, arguments)
        process?.groups[open.group]?.lanes.release(open.lane, at: end)
        summary.slices += 1
    }

    /// The running process, with `group` live in it (idle scene groups are let go first if there are too many),
    /// and where `group` is in its groups: one lookup of the group for all the event needs of it.
    private func prepare(_ group: Group) -> (ProcessTracks, Dictionary<Group, GroupTracks>.Index) {
        let running = process!
        if let last = running.lastGroup, last.group == group { return (running, last.index) }
        if let index = running.groups.index(forKey: group) {
            running.lastGroup = (group, index)
            return (running, index)
        }
        if running.groups.count >= Self.liveGroupLimit {
            running.groups = running.groups.filter { !$0.key.isScene || $0.value.lanes.hasReservations }
        }
        running.groups[group] = GroupTracks()
        let index = running.groups.index(forKey: group)!
        running.lastGroup = (group, index)
        return (running, index)
    }

    /// The `lane`-th track of the group at `index` in `running`, declared on first use.
    private func track(lane: Int, at index: Dictionary<Group, GroupTracks>.Index, of running: ProcessTracks) -> ExportTrack {
        if let track = running.groups.values[index].declaredTrack(lane) { return track }
        while running.groups.values[index].tracks.count <= lane {
            let number = running.groups.values[index].tracks.count
            let name = running.groups.keys[index].name
            let track = ExportTrack(uuid: takeUUID(), processUUID: running.info.uuid, pid: running.info.pid, tid: running.nextTID,
                                    name: number == 0 ? name : name + " (\(number + 1))")
            running.nextTID += 1
            encoder.declare(track)
            summary.tracks += 1
            running.groups.values[index].tracks.append(track)
        }
        return running.groups.values[index].tracks[lane]
    }
}
