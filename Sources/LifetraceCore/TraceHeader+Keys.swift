/// The extension members lifetrace itself writes and reads, with their types: one place for each key, so
/// that a writer and a reader in different modules cannot disagree on a spelling. Every key is documented in
/// `Schemas/trace-event.schema.json` (`header`).
extension TraceHeader {
    /// The names of the extension members lifetrace knows: a misspelt key is a compile error, and a writer and a
    /// reader name a member the same way. Free-form members (a recorder's metadata, `--meta`) are read and
    /// written by name with ``TraceHeader/subscript(metadata:)``.
    public enum Key: String, CaseIterable, Hashable, Sendable {
        /// `source`: what wrote the trace (`recorder`, `simulator`, `oslog`, ...).
        case source
        /// `heartbeat_ns`: the interval the recorder wrote `heartbeat` events at.
        case heartbeat = "heartbeat_ns"
        /// `capture`: how the events were captured (``TraceHeader/CaptureMethod``).
        case capture
        /// `derived`: the events were derived from a log capture rather than recorded.
        case derived
        /// `ground_truth`: the trace holds ground-truth process events (a simulator's).
        case groundTruth = "ground_truth"
        /// `scenario`: the simulator's scenario.
        case scenario
        /// `style`: how the app receives its lifecycle (``TraceHeader/AppStyle``), which selects per-style
        /// budgets in `lifetrace.json`.
        case style
        /// `seed`: the simulator's random seed.
        case seed
        /// `faults`: the faults the simulator injected, by name.
        case faults
        /// `test_name`: the test that produced the trace.
        case testName = "test_name"
        /// `app_version`: the app's version.
        case appVersion = "app_version"
        /// `build`: the app's build number.
        case build
        /// `os_version`: the operating system and its version.
        case osVersion = "os_version"
        /// `device`: the device model.
        case device
        /// `lifecycle`: the application lifecycle the trace follows (``TraceHeader/Lifecycle``).
        case lifecycle
        /// `process_start_ns`: when the process started (exec), in Unix nanoseconds, read by a recorder.
        case processStart = "process_start_ns"
        /// `log_format`: the capture format `lifetrace import` read (`console`, `idevicesyslog`, `xcode`, ...).
        case logFormat = "log_format"
        /// `time_zone`: the zone of the capture's times, as printed, or as taken where it prints none.
        case timeZone = "time_zone"
        /// `time_zone_assumed`: the capture prints no zone; `time_zone` is the one `import` took (`--time-zone`,
        /// or UTC).
        case timeZoneAssumed = "time_zone_assumed"
        /// `year_assumed`: the capture prints no year (idevicesyslog); the year `import` took for its first entry
        /// (`--year`, or the current year).
        case yearAssumed = "year_assumed"
        /// `app_prints`: some of the derived events come from the app's own prints of its callbacks' names
        /// (`print(#function)`, `NSLog(@"%s", __PRETTY_FUNCTION__)`), each marked `from_app_print`.
        case appPrints = "app_prints"
    }

    /// How a trace's lifecycle events were captured.
    public enum CaptureMethod: String, Sendable, CaseIterable {
        /// Each callback measured where it runs (``Recorder/measure``): events carry handler durations.
        case callbacks
        /// Observed through the UIKit notifications UIKit posts for every callback: ordering holds, but the
        /// events carry no handler durations, and a scene-based app's `UIApplication` notifications are still
        /// posted although the app delegate's matching methods are not called.
        case notifications
    }

    /// The application lifecycle a trace follows: which framework's callbacks and notifications its events are,
    /// and so which lifecycle models judge it. A trace that does not say follows UIKit's.
    public enum Lifecycle: String, Sendable, CaseIterable {
        /// UIKit: iOS, iPadOS, tvOS, visionOS and Mac Catalyst apps (`UIApplication`, `UIScene`).
        case uikit
        /// WatchKit: watchOS apps (`WKApplication`, or `WKExtension` before watchOS 7).
        case watchkit
        /// AppKit: macOS apps (`NSApplication`).
        case appkit
        /// An app extension, which follows its host app's state (`NSExtensionContext`'s host notifications).
        case appExtension = "app-extension"
        /// A service: a long-running process (a server, a worker) whose named services start, become ready, shut
        /// down gracefully when asked (SIGTERM from an orchestrator) and stop (`service.*` events; swift-server's
        /// ServiceLifecycle, through `LifetraceServiceLifecycle`). None of the app models judges it.
        case service
    }

    /// The value of the extension member `key`, or `nil`; setting `nil` removes it.
    public subscript(key: Key) -> JSONValue? {
        get { self[metadata: key.rawValue] }
        set { self[metadata: key.rawValue] = newValue }
    }

    /// `style`: how the app receives its lifecycle, when the writer said and named a style lifetrace knows.
    public var appStyle: AppStyle? {
        get { self[.style]?.stringValue.flatMap(AppStyle.init(rawValue:)) }
        set { self[.style] = newValue.map { .string($0.rawValue) } }
    }

    /// `lifecycle`: the application lifecycle the trace follows, when the writer said.
    public var lifecycle: Lifecycle? {
        get { self[.lifecycle]?.stringValue.flatMap(Lifecycle.init(rawValue:)) }
        set { self[.lifecycle] = newValue.map { .string($0.rawValue) } }
    }

    /// `heartbeat_ns`: the interval heartbeats were recorded at, if positive.
    public var heartbeatNanoseconds: Int64? {
        get { self[.heartbeat]?.intValue.flatMap { $0 > 0 ? $0 : nil } }
        set { self[.heartbeat] = newValue.map { .int($0) } }
    }

    /// `capture`: how the events were captured, when the writer said.
    public var captureMethod: CaptureMethod? {
        get { self[.capture]?.stringValue.flatMap(CaptureMethod.init(rawValue:)) }
        set { self[.capture] = newValue.map { .string($0.rawValue) } }
    }

    /// `derived`: whether the events were derived from a log capture.
    public var isDerived: Bool {
        get { self[.derived]?.boolValue == true }
        set { self[.derived] = newValue ? .bool(true) : nil }
    }

    /// `ground_truth`: whether the trace holds ground-truth process events.
    public var hasGroundTruth: Bool { self[.groundTruth]?.boolValue == true }
}
