public import Foundation
import LifetraceCore

extension Recorder {
    /// The environment variables ``fromEnvironment(app:sceneManifest:configuration:center:environment:)`` reads,
    /// set by a UI test through `XCUIApplication.launchEnvironment`.
    public enum EnvironmentKey {
        /// `LIFETRACE_PATH`: where to write the trace (see ``TraceDestination/path(_:relativeTo:)``): a file,
        /// or a directory if it ends with `/`. A relative path is taken in the app's container (its Documents
        /// directory on Apple platforms), in the current directory elsewhere. An existing file is never
        /// replaced: a relaunch writes a new file beside it. Unset: no recording.
        public static let path = "LIFETRACE_PATH"
        /// `LIFETRACE_TEST_NAME`: the test's name, written to the header as `test_name`.
        public static let testName = "LIFETRACE_TEST_NAME"
        /// `LIFETRACE_MIRROR`: `unified-log` or `stderr` to also write each event as a log line, `stdout` as
        /// lifetrace JSON Lines on standard output (see ``RecorderConfiguration/LogMirror``).
        public static let mirror = "LIFETRACE_MIRROR"
    }

    /// Starts the process's recorder (``start(_:)``) into the trace `LIFETRACE_PATH` names, or returns `nil`
    /// when it is unset: the one line an app needs to be recorded by its UI tests. A trace that cannot be created
    /// is said in the unified log (``start(_:)`` creates it off the calling thread).
    ///
    /// ```swift
    /// // In the app delegate's (or SwiftUI App's) init:
    /// Recorder.fromEnvironment()
    ///
    /// // In the UI test:
    /// app.launchEnvironment["LIFETRACE_PATH"] = "\(name).lifetrace"
    /// ```
    ///
    /// The recorder captures the lifecycle until ``stop()``; the value returned need not be kept.
    @discardableResult
    public static func fromEnvironment(
        app: String? = Bundle.main.bundleIdentifier,
        sceneManifest: Bool? = RecordingOptions.mainBundleHasSceneManifest,
        configuration: RecorderConfiguration = .init(),
        center: NotificationCenter = .default,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> Recorder? {
        guard
            let options = recordingOptions(
                app: app, sceneManifest: sceneManifest, configuration: configuration,
                center: center, environment: environment)
        else { return nil }
        return try? start(options)
    }

    /// The options the environment asks for; `nil` if `LIFETRACE_PATH` is unset or empty.
    static func recordingOptions(
        app: String?, sceneManifest: Bool?, configuration: RecorderConfiguration,
        center: NotificationCenter, environment: [String: String]
    ) -> RecordingOptions? {
        guard let given = environment[EnvironmentKey.path], !given.isEmpty else { return nil }
        var metadata = TraceMetadata()
        if let test = environment[EnvironmentKey.testName] { metadata[.testName] = .string(test) }
        var configuration = configuration
        if let mirror = RecorderConfiguration.LogMirror(environmentValue: environment[EnvironmentKey.mirror]) {
            configuration.mirror = mirror
        }
        return RecordingOptions(
            destination: .path(given), app: app, sceneManifest: sceneManifest, metadata: metadata,
            configuration: configuration, notificationCenter: center)
    }
}
