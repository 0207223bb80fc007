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
