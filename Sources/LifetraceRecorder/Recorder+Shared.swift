import LifetraceConcurrency
import LifetraceCore
public import LifetraceFormat

extension Recorder {
    /// The process's recorder, the one ``start(_:)`` made; `nil` before it and after ``stop()``.
    public static var shared: Recorder? {
        process.withLock { $0 }
    }

    private static let process = LockedValue<Recorder?>(nil)

    /// Starts recording the process into a new trace, once: the one call an app makes, in its app delegate's
    /// (or SwiftUI `App`'s) `init` on the main thread.
    ///
    /// ```swift
    /// try Recorder.start()
    /// ```
    ///
    /// The recorder lives until ``stop()``, held by the process (``shared``): nothing the caller keeps or drops
    /// changes that. It captures the lifecycle notifications from its first event, so the header is right
    /// from the first frame; if the app already finished launching, it records the application's and its
    /// scenes' states first, so that a late start checks clean; and it writes everything buffered before the
    /// app can be suspended. Each launch gets a trace of its own (``TraceDestination``), the earlier ones
    /// kept within their retention; ``previousTrace(in:)`` finds the last session's.
    ///
    /// Calling it again while a recorder runs returns that recorder and changes nothing.
    ///
    /// - Returns: the process's recorder, for ``measure(_:scene:phase:_:)``, background tasks and markers.
    /// - Throws: the file could not be created; the error is also written to the unified log.
    @discardableResult
    public static func start(_ options: RecordingOptions = RecordingOptions()) throws(TraceError) -> Recorder {
        let result: Result<Recorder, TraceError> = process.withLock { current in
            if let current { return .success(current) }
            do throws(TraceError) {
                let recorder = try Recorder(
                    destination: options.destination, app: options.app, sceneManifest: options.sceneManifest,
                    metadata: options.metadata, clock: options.clock, lifecycle: options.lifecycle,
                    capture: options.capturesLifecycle ? .notifications : nil, configuration: options.configuration,
                    probes: options.probes)
                if options.capturesLifecycle {
                    // Cannot throw: the header says "notifications" from the start.
                    _ = try? recorder.captureLifecycle(from: options.notificationCenter)
                    // Nothing changes the header from here: written now, a launch that crashes before the first
                    // frame leaves a trace that opens, with no events, rather than an empty file. (Without the
                    // capture, a later captureLifecycle(from:) may still set the header's capture method.)
                    recorder.writeHeaderNow()
                }
                current = recorder
                return .success(recorder)
            } catch {
                RecorderDiagnostics.report("cannot start recording: \(error)")
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Stops the process's recorder: writes everything and the index, and closes the trace. The next
    /// ``start(_:)`` starts a new trace.
    public static func stop() throws(TraceError) {
        guard let recorder = process.withLock({ current -> Recorder? in
            defer { current = nil }
            return current
        }) else { return }
        try recorder.close()
    }
}
