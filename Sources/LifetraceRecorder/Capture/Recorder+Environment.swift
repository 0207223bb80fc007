public import Foundation
import LifetraceCore

extension Recorder {
    /// The environment variables ``fromEnvironment(app:sceneManifest:configuration:center:)`` reads, set by a
    /// UI test through `XCUIApplication.launchEnvironment`.
    public enum EnvironmentKey {
        /// `LIFETRACE_PATH`: where to write the trace. A relative path is taken in the app's Documents
        /// directory on Apple platforms (the data container `xcrun simctl get_app_container UDID BUNDLE data`
        /// prints), in the current directory elsewhere. Unset: no recording.
        public static let path = "LIFETRACE_PATH"
        /// `LIFETRACE_TEST_NAME`: the test's name, written to the header as `test_name`.
        public static let testName = "LIFETRACE_TEST_NAME"
        /// `LIFETRACE_MIRROR`: `unified-log` or `stderr` to also write each event as a log line (see
        /// ``RecorderConfiguration/LogMirror``).
        public static let mirror = "LIFETRACE_MIRROR"
    }

    /// Starts recording the lifecycle into the trace `LIFETRACE_PATH` names, or returns `nil` when it is unset
    /// or cannot be created: the one line an app needs to be recorded by its UI tests.
    ///
    /// ```swift
    /// // In the app delegate's (or SwiftUI App's) init:
    /// let lifetrace = Recorder.fromEnvironment(app: Bundle.main.bundleIdentifier, sceneManifest: true)
    ///
    /// // In the UI test:
    /// app.launchEnvironment["LIFETRACE_PATH"] = "\(name).lifetrace"
    /// ```
    ///
    /// The recorder captures the lifecycle notifications of `center` (``captureLifecycle(from:)``) until it
    /// is closed, and holds the capture itself.
    public static func fromEnvironment(
        app: String? = nil,
        sceneManifest: Bool? = nil,
        configuration: RecorderConfiguration = .init(),
        center: NotificationCenter = .default,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> Recorder? {
        guard let given = environment[EnvironmentKey.path], !given.isEmpty else { return nil }
        let path = resolveTracePath(given)
        var metadata = TraceMetadata()
        if let test = environment[EnvironmentKey.testName] { metadata[TraceHeader.Key.testName] = .string(test) }
        var configuration = configuration
        switch environment[EnvironmentKey.mirror] {
        case "unified-log": configuration.mirror = .unifiedLog
        case "stderr": configuration.mirror = .standardError
        default: break
        }
        guard let recorder = try? Recorder(file: URL(fileURLWithPath: path), app: app, sceneManifest: sceneManifest, metadata: metadata,
                                           configuration: configuration)
        else { return nil }
        recorder.keep(recorder.captureLifecycle(from: center))
        return recorder
    }

    /// `given` made absolute (see ``EnvironmentKey/path``), its directory created.
    static func resolveTracePath(_ given: String) -> String {
        var url: URL
        if given.hasPrefix("/") {
            url = URL(fileURLWithPath: given)
        } else {
            #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
            let base = FileManager.default.urls(for: .documentDirectory, in: .userDomainMask).first
                ?? URL(fileURLWithPath: NSTemporaryDirectory())
            #else
            let base = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
            #endif
            url = base.appendingPathComponent(given)
        }
        try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        return url.path
    }
}
