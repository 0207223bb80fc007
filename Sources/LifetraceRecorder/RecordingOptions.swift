public import Foundation
public import LifetraceCore

/// What ``Recorder/start(_:)`` records and where: everything has a default an app can use as it is.
public struct RecordingOptions: Sendable {
    /// Where the trace goes: by default a new file per launch in ``TraceDestination/standardDirectory``.
    public var destination: TraceDestination
    /// The app's bundle identifier, for the header and the files' names: by default the main bundle's.
    public var app: String?
    /// Whether the app has a scene manifest, for the header: by default whether the main bundle's
    /// Info.plist has `UIApplicationSceneManifest`.
    public var sceneManifest: Bool?
    /// The lifecycle the app follows: by default the platform's (`TraceHeader.Lifecycle.current`).
    public var lifecycle: TraceHeader.Lifecycle?
    /// Other header members: `["app_version": "2.3", "build": "417"]`, each of the type the trace format gives
    /// it (`TraceHeader.problem(metadata:value:)`), or the recorder refuses to start.
    public var metadata: TraceMetadata
    /// The clock to timestamp with; `continuous` counts time asleep.
    public var clock: TraceClock
    /// Buffering, flushing, heartbeats and the log mirror.
    public var configuration: RecorderConfiguration
    /// Whether the lifecycle notifications are captured (``Recorder/captureLifecycle(from:)``): by default
    /// they are. Without it the app records its callbacks itself (``Recorder/measure(_:scene:phase:_:)``).
    public var capturesLifecycle: Bool
    /// The notification centre the capture observes: `.default`, where the frameworks post.
    public var notificationCenter: NotificationCenter
    /// What the recorder reads of the system: for tests.
    package var probes: SystemProbes = .system

    /// Options with every default; set what differs.
    public init(
        destination: TraceDestination = .standard,
        app: String? = Bundle.main.bundleIdentifier,
        sceneManifest: Bool? = RecordingOptions.mainBundleHasSceneManifest,
        lifecycle: TraceHeader.Lifecycle? = .current,
        metadata: TraceMetadata = [:],
        clock: TraceClock = .continuous,
        configuration: RecorderConfiguration = .init(),
        capturesLifecycle: Bool = true,
        notificationCenter: NotificationCenter = .default
    ) {
        self.destination = destination
        self.app = app
        self.sceneManifest = sceneManifest
        self.lifecycle = lifecycle
        self.metadata = metadata
        self.clock = clock
        self.configuration = configuration
        self.capturesLifecycle = capturesLifecycle
        self.notificationCenter = notificationCenter
    }

    /// Whether the main bundle's Info.plist declares a scene manifest (`UIApplicationSceneManifest`); `nil`
    /// for a process with no Info.plist (a command-line tool, a test runner on Linux).
    public static var mainBundleHasSceneManifest: Bool? {
        guard let info = Bundle.main.infoDictionary, !info.isEmpty else { return nil }
        return info["UIApplicationSceneManifest"] != nil
    }
}
