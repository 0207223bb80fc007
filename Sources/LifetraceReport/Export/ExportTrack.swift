import LifetraceCore

/// A track of an export: one lane of one group of a traced process (its events, its state, its app delegate,
/// a scene, a scene's state, its background tasks). Plain numbers only, so that the many slices and instants put
/// on a track copy it freely; its name is given once, when it is declared.
struct ExportTrack: Sendable, Hashable {
    /// Unique in the export, from 1: Perfetto's track uuid.
    var uuid: UInt64
    /// The uuid of its process's own track (``ExportProcess/uuid``).
    var processUUID: UInt64
    /// The process's number in the export, from 1 in the order processes start: its `pid` in the export.
    var pid: Int32
    /// The track's number in the export, from 1 in the order tracks are declared: its `tid` in Chrome JSON.
    var tid: Int32
}

/// What kind of thing a slice or instant shows: Chrome's `cat`, Perfetto's category.
enum ExportCategory: String, Sendable, CaseIterable {
    /// A lifecycle callback (its handler's duration as the slice's).
    case callback
    /// A stretch of time in one state.
    case state
    /// A background task or a BackgroundTasks task.
    case task
    /// The process launching, exiting, suspending, resuming, and how it ended.
    case process
    /// The system's and the recorder's own events.
    case system
    /// A user marker (`custom.<label>`).
    case marker
    /// A finding of `lifetrace check`.
    case finding
}

/// A value an exported slice or instant carries besides its event's fields.
enum ExportValue: Sendable, Hashable {
    case string(String)
    case int(Int64)
    case bool(Bool)
}

/// What an exported slice or instant carries: the event it shows (its index in the trace and its fields, named
/// as JSON Lines names them) and values of its own. Plain data: made, copied and dropped for nearly every call an
/// export makes, on both of its threads, it counts no reference.
struct ExportArguments: BitwiseCopyable {
    /// The index of the event in the trace, from 0.
    var index: Int?
    /// Whether these are the arguments of a slice's end (``ExportEncoder/end(on:at:_:)``): both formats then name
    /// the index `end_event_index`, since Perfetto merges an end's arguments into its slice's, where an
    /// `event_index` would replace the one of the event that began it.
    var endsSlice: Bool
    /// The event whose fields are shown.
    var event: ExportEventFields?
    /// Values of its own, in order.
    var extras: ExportExtras

    init(index: Int? = nil, event: ExportEventFields? = nil, extras: ExportExtras = ExportExtras()) {
        self.index = index
        self.event = event
        self.extras = extras
        endsSlice = false
    }

    /// Whether it shows nothing: no event, no index, no value of its own (a state's stretch, most often).
    var isEmpty: Bool { index == nil && event == nil && extras.isEmpty }
}
