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
    /// It does no file I/O on the calling thread: the trace's file is created (its directory made, earlier traces
    /// pruned to their retention) on the recorder's writer queue, and events recorded before it is there are
    /// buffered and written to it. A file that cannot be created is said in the unified log (subsystem
    /// `lifetrace`, category `recorder`), and the events are lost; ``file`` is then `nil`.
    ///
    /// Calling it again while a recorder runs returns that recorder and changes nothing.
    ///
    /// - Returns: the process's recorder, for ``measure(_:scene:phase:_:)``, background tasks and markers.
    /// - Throws: metadata the trace format refuses (see ``init(file:app:sceneManifest:metadata:clock:lifecycle:configuration:)``);
    ///   the error is also written to the unified log.
    @discardableResult
    public static func start(_ options: RecordingOptions = RecordingOptions()) throws(TraceError) -> Recorder {
        try start(options, createsFileLater: true)
    }

    /// ``start(_:)``, creating the file on the writer queue (`createsFileLater`, an app's main thread) or now, where
    /// a file that cannot be created is thrown: a service's, which starts off any main thread and reports it.
    @discardableResult
    package static func start(_ options: RecordingOptions, createsFileLater: Bool) throws(TraceError) -> Recorder {
        let result: Result<Recorder, TraceError> = process.withLock { current in
            if let current { return .success(current) }
            do throws(TraceError) {
                // The file is created on the recorder's writer queue, not here: no file I/O on the thread that
                // starts the app. Events are buffered until it is there.
                let recorder = try Recorder(
                    destination: options.destination, app: options.app, sceneManifest: options.sceneManifest,
                    metadata: options.metadata, clock: options.clock, lifecycle: options.lifecycle,
                    capture: options.capturesLifecycle ? .notifications : nil, configuration: options.configuration,
                    probes: options.probes, createsFileLater: createsFileLater)
                if options.capturesLifecycle {
                    // Cannot throw: the header says "notifications" from the start.
                    _ = try? recorder.captureLifecycle(from: options.notificationCenter)
                    // Nothing changes the header from here: written as soon as the file is there, a launch that
                    // crashes before the first frame leaves a trace that opens, with no events, rather than an
                    // empty file. (Without the capture, a later captureLifecycle(from:) may still set the header's
                    // capture method.)
                    recorder.writeHeaderSoon()
                } else {
                    recorder.createFileSoon()
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
        guard
            let recorder = process.withLock({ current -> Recorder? in
                defer { current = nil }
                return current
            })
        else { return }
        try recorder.close()
    }
}
