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
/// A value type that ``TraceExporter`` holds, so that the exporter's state is mutated in place with one access
/// per call from the analyzer, not one run-time exclusivity check per property of a class on every event.
struct ExportLayout {
    /// The most groups of tracks a process keeps live: past it, groups with nothing open are let go (a scene
    /// seen again gets new tracks), so that a trace of countless scenes takes bounded memory.
    static let liveGroupLimit = 1024

    let encoder: any ExportEncoder
    private let app: String
    var summary: ExportSummary
    var nextUUID: UInt64 = 1
    /// The next track's `tid`: unique in the whole export, not per process. Perfetto's JSON importer looks a tid up
    /// among every thread that had it, so tids restarting at 1 in each of thousands of processes make its load
    /// grow with the square of the trace.
    var nextTID: Int32 = 1
    /// The running process's tracks (those of the last process that started, once one has: ``hasProcess``),
    /// held directly rather than as an optional, so that each slice reaches them in place.
    var process = ProcessTracks(info: ExportProcess(uuid: 0, pid: 0, title: "", origin: .none, start: 0))
    /// Whether a process has started.
    private(set) var hasProcess = false
    /// The names of the state slices, recorded then inferred for each state by its number (``stateSlot(_:inferred:)``),
    /// numbered from ``ExportName/firstStateKey``, each made the first time it is needed: read by index, with no
    /// string built or compared per stretch.
    private var stateNames = [ExportName?](repeating: nil, count: 2 * TimelineState.allCases.count)

    /// The name of the instant that says how a process ended, for each ``ProcessEnd`` in the order of its cases,
    /// each made the first time a process ends so: numbered from ``ExportName/firstProcessEndKey``, with no string
    /// built per process.
    private var processEndings = [ExportName?](repeating: nil, count: ProcessEnd.allCases.count)
    /// The names made from what events carry (custom markers' labels, tasks' names), each made once.
    var names: ExportNameCache
    /// The names of the current block's custom events by their label's place among its strings, found in ``names``
    /// once per block and label rather than by hashing the label for each event.
    private var markerNames: [ExportName?] = []

    /// An exporter of the trace `file` (its header naming the app) to `encoder`, keeping the names it makes from
    /// what events carry in `names`.
    init(file: String, header: TraceHeader?, encoder: any ExportEncoder, names: ExportNameCache) {
        self.encoder = encoder
        self.names = names
        app = header?.app ?? file
        summary = ExportSummary(file: file)
    }

    // MARK: - What the analyzer tells

    /// The events that follow come from a block of `strings` strings.
    mutating func blockStarted(strings: Int) {
        markerNames.removeAll(keepingCapacity: true)
        markerNames.append(contentsOf: repeatElement(nil, count: strings))
    }

    /// The name of a custom event whose label is the block's string at `index`.
    private mutating func markerName(labelAt index: Int, of event: ExportEventFields) -> ExportName {
        if index < markerNames.count, let name = markerNames[index] { return name }
        let name = names.name(.custom, event.label) { event.eventName }
        if index < markerNames.count { markerNames[index] = name }
        return name
    }

    mutating func processStarted(_ event: ExportEventFields, index: Int) {
        if summary.processes == 0 {
            summary.origin = event.t
            encoder.start(origin: event.t)
        }
        summary.processes += 1
        let info = ExportProcess(
            uuid: takeUUID(), pid: Int32(clamping: summary.processes), title: app,
            systemPID: event.pid,
            origin: event.kind == .processLaunch ? .launched(reason: event.reason) : .running,
            start: event.t)
        encoder.declare(info)
        process.restart(info: info)
        hasProcess = true
    }

    mutating func event(_ event: ExportEventFields, index: Int) {
        summary.events += 1
        switch event.kind.layer {
        case .app, .scene, .swiftui:
            callback(event, layer: event.kind.layer, index: index)
        case .task:
            task(event, index: index)
        case .process:
            instant(
                ExportName(of: event), .process, in: .events, at: event.t, ExportArguments(index: index, event: event))
        case .service:
            // A service's events in its own group, named as the service's (its name is their scene); signals with
            // the process's.
            // Its states are slices on the service's state track.
            if let service = event.scene { process.services.insert(service) }
            instant(
                ExportName(of: event), .process, in: event.scene.map(Group.service) ?? .events, at: event.t,
                ExportArguments(index: index, event: event))
            if let service = event.scene { serviceEvent(service, event.kind, at: event.t) }
        case .system where event.kind == .handlerReturn:
            handlerReturned(event, index: index)
        case .system:
            instant(
                ExportName(of: event), .system, slot: slot(scene: event.scene, states: false), at: event.t,
                ExportArguments(index: index, event: event))
        case .custom:
            let name = event.labelIndex.map { markerName(labelAt: $0, of: event) } ?? ExportName(event.kind)
            instant(
                name, .marker, slot: slot(scene: event.scene, states: false), at: event.t,
                ExportArguments(index: index, event: event))
        }
    }

    mutating func segment(scene: String?, state: TimelineState, from start: Int64, to end: Int64, inferred: Bool) {
        guard hasProcess else { return }
        stateSlice(state, inferred: inferred, slot: slot(scene: scene, states: true), from: start, to: end)
    }

    /// A stretch in `state`: a slice on the tracks of the group in `slot` (the process's, a scene's or a service's
    /// state track).
    mutating func stateSlice(_ state: TimelineState, inferred: Bool, slot: Int, from start: Int64, to end: Int64) {
        let name = stateNames[Self.stateSlot(state, inferred: inferred)] ?? makeStateName(state, inferred: inferred)
        // The arguments made where each is handed on: one kept across both would be copied and destroyed.
        guard let track = place(slot: slot, from: start, to: end) else {
            unplaced(name, .state, slot: slot, at: start, Self.stateArguments(inferred: inferred), end: end)
            return
        }
        encoder.slice(
            on: track, name: name, category: .state, from: start, to: end, Self.stateArguments(inferred: inferred))
        summary.slices += 1
    }

    mutating func processEnded(at t: Int64, as end: ProcessEnd) {
        guard hasProcess else { return }
        let outcome: ExportExtra.Outcome = end == .traceEnded ? .openWhenTraceEnded : .openWhenProcessEnded
        // By start, then track: two slices opened at once close in the same order every run (a dictionary's is not).
        let tasks = process.openTasks.values.sorted { ($0.start, $0.track.uuid) < ($1.start, $1.track.uuid) }
        process.openTasks.removeAll(keepingCapacity: true)
        for open in tasks {
            close(open, at: t, ExportArguments(extras: ExportExtras(.outcome(outcome))))
        }
        let handlers = process.unfinished.values.sorted { ($0.start, $0.track.uuid) < ($1.start, $1.track.uuid) }
        process.unfinished.removeAll(keepingCapacity: true)
        for open in handlers {
            close(open, at: t, ExportArguments(extras: ExportExtras(.returned(false))))
        }
        servicesEnded(at: t)
        let ordinal = ProcessEnd.allCases.firstIndex(of: end) ?? 0
        let name =
            processEndings[ordinal]
            ?? {
                let made = ExportName("process ended: " + end.rawValue, key: ExportName.firstProcessEndKey + ordinal)
                processEndings[ordinal] = made
                return made
            }()
        instant(name, .process, in: .events, at: t, ExportArguments(extras: ExportExtras(.processEnd(end))))
    }

    mutating func finding(rule: Rule, severity: Severity, message: String, scene: String?, t: Int64, index: Int) {
        guard hasProcess else { return }
        summary.findings += 1
        instant(
            ExportName(rule.id.rawValue + " " + rule.title), .finding, in: scene.map(Group.scene) ?? .events, at: t,
            ExportArguments(index: index),
            notes: [
                ExportNote(key: "rule", text: rule.id.rawValue), ExportNote(key: "severity", text: severity.rawValue),
                ExportNote(key: "message", text: message),
            ])
    }

    /// The place of `state`'s name, recorded or `inferred`, in ``stateNames``.
    private static func stateSlot(_ state: TimelineState, inferred: Bool) -> Int {
        2 &* state.index &+ (inferred ? 1 : 0)
    }

    /// Makes the name of a stretch in `state`, recorded or `inferred`, the first time one is exported.
    private mutating func makeStateName(_ state: TimelineState, inferred: Bool) -> ExportName {
        let slot = Self.stateSlot(state, inferred: inferred)
        let name = ExportName(inferred ? state.name + " (inferred)" : state.name, key: ExportName.firstStateKey + slot)
        stateNames[slot] = name
        return name
    }

    /// The arguments of a stretch's slice: that its state was inferred, or none.
    private static func stateArguments(inferred: Bool) -> ExportArguments {
        ExportArguments(extras: inferred ? ExportExtras(.inferred) : ExportExtras())
    }

    /// Ends the export.
    mutating func finish() throws(TraceError) {
        try encoder.finish(summary)
    }

    /// Writes what reading the trace warned of (a truncated end, kinds skipped) as instants on a process of
    /// their own, "lifetrace: input warnings", at the trace's last time, so that the export says it as the
    /// command did.
    mutating func inputWarnings(_ warnings: [TraceWarning], at t: Int64) {
        guard !warnings.isEmpty else { return }
        if summary.processes == 0 {
            summary.origin = t
            encoder.start(origin: t)
        }
        let info = ExportProcess(
            uuid: takeUUID(), pid: Int32(clamping: summary.processes + 1),
            title: "lifetrace: input warnings", origin: .none, start: t)
        encoder.declare(info)
        let track = ExportTrack(uuid: takeUUID(), processUUID: info.uuid, pid: info.pid, tid: takeTID())
        encoder.declare(track, name: ExportTrackName(group: .inputWarnings, lane: 0))
        summary.tracks += 1
        for warning in warnings {
            encoder.instant(
                on: track, name: ExportName("warning: " + warning.message), category: .system, at: t,
                ExportArguments(), notes: [ExportNote(key: "warning", text: warning.description)])
            summary.instants += 1
        }
    }
}
