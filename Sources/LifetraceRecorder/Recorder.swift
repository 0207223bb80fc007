// The recorder's state and how it is made; what it records is in Recorder+Recording.swift, how it buffers and
// writes in Recorder+Writing.swift.

import Dispatch
public import Foundation
import LifetraceConcurrency
public import LifetraceCore
public import LifetraceFormat

/// Records lifecycle events of the running process into a `.lifetrace` trace.
///
/// An app starts one for the process with ``start(_:)`` (or ``fromEnvironment(app:sceneManifest:configuration:center:environment:)``
/// for its UI tests), which captures its lifecycle and records until ``stop()``; nothing it returns needs to be
/// kept. A recorder made with an initializer records until it is closed, captures included: it stays alive
/// while its timer or its captures run, whether or not the caller keeps it.
///
/// Safe to call from any thread. Recording an event takes the lock of the calling thread's buffer (one of
/// several, so threads rarely wait for each other) and appends a value to space reserved up front: no heap
/// allocation for events without attributes. Encoding and writing happen on a serial writer queue, never on
/// the recording thread. A timer writes what was buffered as a frame every
/// ``RecorderConfiguration/flushInterval``, so a process killed with SIGKILL loses at most that interval;
/// ``close()`` writes the last frame and the index.
///
/// The file needs no C library: its data frames are stored zstd frames (see `FrameCodec.stored`), which
/// `zstd -t` and every lifetrace reader accept, and `lifetrace convert` recompresses.
///
/// ```swift
/// let recorder = try Recorder(file: traceURL, app: "com.example.app", sceneManifest: true)
/// try recorder.captureLifecycle()                 // the UIKit notifications, from now on
/// recorder.measure(.sceneDidEnterBackground, scene: "S1") { saveEverything() }
/// let task = recorder.beginTask(name: "upload")
/// recorder.endTask(task)
/// try recorder.close()
/// ```
public final class Recorder: Sendable {
    let shards: RecorderShards
    /// Where frames go; touched only on ``writerQueue``.
    let output: LockedValue<RecorderOutput>
    let writerQueue = DispatchQueue(label: "lifetrace.recorder.writer")
    let clock: TraceClock
    /// Time for tests (``ManualTimeSource``); `nil` reads ``clock`` directly, with no call through a protocol.
    let manualTime: (any RecorderTimeSource)?
    let origin: Int64
    let configuration: RecorderConfiguration
    /// The periodic work (flushes, heartbeats): armed while events are buffered or heartbeats are asked for.
    let timer = LockedValue(RecorderTimer())
    let taskIDs = LockedValue<Int64>(0)
    /// The lifecycle captures, one per notification centre, held until the recorder closes.
    let captures = LockedValue<[ObjectIdentifier: LifecycleCapture]>([:])
    /// Set once ``close()`` began: later events are refused and counted.
    let closing = LockedValue(false)
    /// The lifecycle the header declares (its notifications are what ``captureLifecycle(from:)`` observes).
    let lifecycle: TraceHeader.Lifecycle?
    /// What the recorder reads of the system besides its clocks (the application's state, thermal state).
    let probes: SystemProbes
    /// The file the trace is written to and the lock held on it until the trace is closed, so that no other
    /// recorder prunes it meanwhile; `nil` for a recorder of a writer.
    let traceFile: RecorderFile?
    /// Where each event is also written as a `lifetrace ev=...` log line, if anywhere.
    let mirror: any EventMirror
    /// Whether ``mirror`` writes anything: tested per event before the existential is touched.
    let mirrorsEvents: Bool
    /// Where each event goes as it is recorded, for a live check (empty unless one is on).
    let tap = EventTap()

    /// Creates a new trace at `file` and starts recording the process, with `t = 0` at the process's start.
    ///
    /// The first event is `process.launch` at `t = 0`, when the process started (`exec`, as the system
    /// reports it: `sysctl` on Apple platforms, `/proc/self/stat` on Linux; the recorder's creation where it
    /// does not), with the reason `unknown` (``captureLifecycle(from:)`` records the launch options' reason on
    /// `app.didFinishLaunching` when they show one), the process id and, if iOS prewarmed the process, the
    /// attribute `prewarmed: true`. Launch times are so measured from `exec`, however late the recorder comes.
    /// Most apps call ``start(_:)`` instead, which makes the one recorder of the process.
    ///
    /// The file is created at once, so a path that cannot be written fails here. It never replaces a file: if
    /// `file` exists (an earlier launch's trace), the trace goes to a new file beside it whose name adds the
    /// launch time and the process id (``file`` says which). The header is written with the first frame, so
    /// that it can say how the events were captured (``captureLifecycle(from:)``). On Apple's device platforms
    /// the file stays writable while the device is locked after the first unlock
    /// (`completeUntilFirstUserAuthentication`), so a flush in the background does not fail.
    ///
    /// - Parameters:
    ///   - file: the trace file, created new. In an app, a file in its own container.
    ///   - app: the app's bundle identifier, for the header.
    ///   - sceneManifest: whether the app has a scene manifest, for the header.
    ///   - metadata: other header members, `["app_version": "2.3", "build": "417"]` (`TraceHeader.Key` names
    ///     the ones lifetrace knows: `app_version`, `build`, `os_version`, `device`, `test_name`, all strings).
    ///     A member the trace format types must have its type (`"build": 417` is refused: `build` is a string),
    ///     and the header's own members (`app`, `clock`, ...) are parameters, not metadata: either throws
    ///     before any file is created, since readers would refuse the header.
    ///   - clock: the clock to timestamp with; `continuous` counts time asleep.
    ///   - lifecycle: the application lifecycle the trace follows, which decides the notifications
    ///     ``captureLifecycle(from:)`` observes and the models `lifetrace check` judges it by; by default the
    ///     platform's (`TraceHeader.Lifecycle.current`).
    ///   - configuration: buffering, flushing, heartbeats and the log mirror.
    public convenience init(
        file: URL,
        app: String? = nil,
        sceneManifest: Bool? = nil,
        metadata: TraceMetadata = [:],
        clock: TraceClock = .continuous,
        lifecycle: TraceHeader.Lifecycle? = .current,
        configuration: RecorderConfiguration = .init()
    ) throws(TraceError) {
        try self.init(
            destination: .file(file), app: app, sceneManifest: sceneManifest, metadata: metadata, clock: clock,
            lifecycle: lifecycle, capture: nil, configuration: configuration, probes: .system)
    }

    /// Creates the trace file `destination` names for this launch and starts recording.
    ///
    /// - Parameter createsFileLater: whether the file is created on the writer queue when first needed, rather than
    ///   now: ``start(_:)``'s, so that the thread that starts recording does no file I/O. Events are buffered
    ///   meanwhile, and a file that cannot be created is said in the unified log, not thrown.
    convenience init(
        destination: TraceDestination, app: String?, sceneManifest: Bool?, metadata: TraceMetadata, clock: TraceClock,
        lifecycle: TraceHeader.Lifecycle?, capture: TraceHeader.CaptureMethod?, configuration: RecorderConfiguration,
        probes: SystemProbes, createsFileLater: Bool = false
    ) throws(TraceError) {
        // A header its own readers refuse would lose the trace: refused here, before a file exists.
        for (key, value) in metadata.entries {
            if let problem = TraceHeader.problem(metadata: key, value: value) {
                let path =
                    switch destination {
                    case let .file(url), let .directory(url, _): url.path
                    }
                throw TraceError(.malformed, file: path, at: .file, "metadata: \(problem)")
            }
        }
        let age = SystemInterface.processAge() ?? 0
        let wallStart = TraceClock.wall.nowNanoseconds() - age
        var header = TraceHeader(
            clock: clock, startUnixNanoseconds: wallStart, app: app,
            sceneManifest: sceneManifest, extra: metadata.entries)
        header[.source] = header[.source] ?? .string("recorder")
        header.lifecycle = lifecycle
        header.captureMethod = capture
        if age > 0 { header[.processStart] = .int(wallStart) }
        if let interval = configuration.heartbeatInterval {
            header.heartbeatNanoseconds = max(interval.nanoseconds, RecorderConfiguration.minimumTick)
        }
        let base = app ?? "trace"
        let pid = SystemInterface.processID()
        let create = { @Sendable (file: RecorderFile) throws(TraceError) -> FileSink in
            probes.fileCreation?()
            let created = try TraceDirectory.create(destination, base: base, launchUnixNanoseconds: wallStart, pid: pid)
            FileProtection.keepWritableAfterFirstUnlock(created.url.path)
            BackupExclusion.exclude(created.url.path)
            file.made(url: created.url, lock: created.lock)
            return created.sink
        }
        let file = RecorderFile()
        let output: RecorderOutput
        if createsFileLater {
            output = .deferred(
                create: { () throws(TraceError) in try create(file) }, header: header,
                options: configuration.writerOptions)
        } else {
            output = .pending(sink: try create(file), header: header, options: configuration.writerOptions)
        }
        self.init(
            output: output, clock: clock, configuration: configuration, launch: ProcessLaunch.current, age: age,
            lifecycle: lifecycle, probes: probes, file: file)
    }

    /// Records into `writer`, which already holds the trace's header; timestamps count from now.
    public convenience init(
        writer: any EventWriter, clock: TraceClock = .continuous,
        configuration: RecorderConfiguration = .init()
    ) {
        self.init(output: .ready(writer), clock: clock, configuration: configuration, launch: nil)
    }

    /// Records into `writer`, which is made with the first frame from `header` (whose `capture` member
    /// ``captureLifecycle(from:)`` may still set until then), on the time of `time`: for tests of the
    /// capture that move time by hand and post notifications.
    package convenience init(
        sink: FileSink, header: TraceHeader, time: any RecorderTimeSource,
        configuration: RecorderConfiguration = .init(), probes: SystemProbes
    ) {
        self.init(
            output: .pending(sink: sink, header: header, options: configuration.writerOptions), clock: .continuous,
            configuration: configuration, launch: nil, lifecycle: header.lifecycle, probes: probes, time: time)
    }

    /// Records into `writer` on the time of `time`, which also runs the flushes and heartbeats: for tests that
    /// move time by hand (``ManualTimeSource``).
    package convenience init(
        writer: any EventWriter, time: any RecorderTimeSource,
        configuration: RecorderConfiguration = .init(), probes: SystemProbes = .system
    ) {
        self.init(
            output: .ready(writer), clock: .continuous, configuration: configuration, launch: nil,
            probes: probes, time: time)
    }

    /// - Parameter age: how long ago the process started: the trace's `t = 0` is that long before now.
    private init(
        output: RecorderOutput, clock: TraceClock, configuration: RecorderConfiguration,
        launch: ProcessLaunch?, age: Int64 = 0, lifecycle: TraceHeader.Lifecycle? = nil,
        probes: SystemProbes = .system, file: RecorderFile? = nil, time: (any RecorderTimeSource)? = nil
    ) {
        self.output = LockedValue(output)
        self.traceFile = file
        self.clock = clock
        self.manualTime = time
        self.origin = (time?.nanoseconds() ?? clock.nowNanoseconds()) - age
        self.configuration = configuration
        self.lifecycle = lifecycle
        self.probes = probes
        self.shards = RecorderShards(totalCapacity: configuration.bufferCapacity)
        let wallStart = TraceClock.wall.nowNanoseconds() - age
        let mirror = configuration.mirror.makeMirror(
            wallStart: wallStart,
            header: output.currentHeader
                ?? {
                    var header = TraceHeader(clock: clock, startUnixNanoseconds: wallStart)
                    header.lifecycle = lifecycle
                    return header
                }(),
            output: configuration.mirrorOutput)
        self.mirror = mirror ?? NoMirror()
        self.mirrorsEvents = mirror != nil
        if let launch {
            // At t = 0, the process's start, whenever the recorder came.
            let attrs = launch.prewarmed ? [Attribute(Attribute.Key.prewarmed, .bool(true))] : nil
            if append(
                .processLaunch, relayedAt: 0,
                { state, t in
                    state.append(
                        .processLaunch, at: t, reason: "unknown", pid: SystemInterface.processID(), attrs: attrs)
                }) != nil, mirrorsEvents
            {
                mirror?.mirror(
                    LifecycleEvent(
                        t: 0, kind: .processLaunch, reason: "unknown",
                        pid: SystemInterface.processID(), attrs: attrs))
            }
        }
        if configuration.heartbeatInterval != nil {
            armTimer()
            record(.heartbeat)
        }
    }

    /// The file the trace is written to, for a recorder of a file.
    ///
    /// A recorder ``start(_:)`` made creates its file on its writer queue; asked before then, this creates it
    /// there and waits for it. `nil` if it could not be created (the unified log says why).
    public var file: URL? {
        guard let traceFile else { return nil }
        if let url = traceFile.url { return url }
        writerQueue.sync {
            let locked = output.lock()
            defer { output.unlock() }
            do throws(TraceError) {
                try locked.pointee.createFile()
            } catch {
                RecorderDiagnostics.report("cannot create the trace: \(error)")
            }
        }
        return traceFile.url
    }

    /// Nanoseconds since the trace started, on the trace's clock.
    @inline(__always)
    public func now() -> Int64 {
        if let manualTime { return manualTime.nanoseconds() - origin }
        return clock.nowNanoseconds() - origin
    }
}
