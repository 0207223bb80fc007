// The recorder's public surface and its locking together: every public method is a few lines over the same
// shards, writer queue and timer.

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
    /// The file the trace is written to, for a recorder of a file.
    public let file: URL?
    /// Where each event is also written as a `lifetrace ev=...` log line, if anywhere.
    let mirror: any EventMirror
    /// Whether ``mirror`` writes anything: tested per event before the existential is touched.
    let mirrorsEvents: Bool

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
        try self.init(destination: .file(file), app: app, sceneManifest: sceneManifest, metadata: metadata, clock: clock,
                      lifecycle: lifecycle, capture: nil, configuration: configuration, probes: .system)
    }

    /// Creates the trace file `destination` names for this launch and starts recording.
    convenience init(destination: TraceDestination, app: String?, sceneManifest: Bool?, metadata: TraceMetadata, clock: TraceClock,
         lifecycle: TraceHeader.Lifecycle?, capture: TraceHeader.CaptureMethod?, configuration: RecorderConfiguration,
         probes: SystemProbes) throws(TraceError) {
        // A header its own readers refuse would lose the trace: refused here, before a file exists.
        for (key, value) in metadata.entries {
            if let problem = TraceHeader.problem(metadata: key, value: value) {
                let path = switch destination { case let .file(url), let .directory(url, _): url.path }
                throw TraceError(.malformed, file: path, at: .file, "metadata: \(problem)")
            }
        }
        let age = SystemInterface.processAge() ?? 0
        let wallStart = TraceClock.wall.nowNanoseconds() - age
        var header = TraceHeader(clock: clock, startUnixNanoseconds: wallStart, app: app,
                                 sceneManifest: sceneManifest, extra: metadata.entries)
        header[.source] = header[.source] ?? .string("recorder")
        header.lifecycle = lifecycle
        header.captureMethod = capture
        if age > 0 { header[.processStart] = .int(wallStart) }
        if let interval = configuration.heartbeatInterval {
            header.heartbeatNanoseconds = max(interval.nanoseconds, RecorderConfiguration.minimumTick)
        }
        let created = try TraceFiles.create(destination, base: app ?? "trace", launchUnixNanoseconds: wallStart,
                                            pid: SystemInterface.processID())
        FileProtection.keepWritableAfterFirstUnlock(created.url.path)
        self.init(output: .pending(sink: created.sink, header: header, options: configuration.writerOptions),
                  clock: clock, configuration: configuration, launch: ProcessLaunch.current, age: age,
                  lifecycle: lifecycle, probes: probes, file: created.url)
    }

    /// Records into `writer`, which already holds the trace's header; timestamps count from now.
    public convenience init(writer: any EventWriter, clock: TraceClock = .continuous,
                            configuration: RecorderConfiguration = .init()) {
        self.init(output: .ready(writer), clock: clock, configuration: configuration, launch: nil)
    }

    /// Records into `writer`, which is made with the first frame from `header` (whose `capture` member
    /// ``captureLifecycle(from:)`` may still set until then), on the time of `time`: for tests of the
    /// capture that move time by hand and post notifications.
    package convenience init(sink: FileSink, header: TraceHeader, time: any RecorderTimeSource,
                             configuration: RecorderConfiguration = .init(), probes: SystemProbes) {
        self.init(output: .pending(sink: sink, header: header, options: configuration.writerOptions), clock: .continuous,
                  configuration: configuration, launch: nil, lifecycle: header.lifecycle, probes: probes, time: time)
    }

    /// Records into `writer` on the time of `time`, which also runs the flushes and heartbeats: for tests that
    /// move time by hand (``ManualTimeSource``).
    package convenience init(writer: any EventWriter, time: any RecorderTimeSource,
                             configuration: RecorderConfiguration = .init()) {
        self.init(output: .ready(writer), clock: .continuous, configuration: configuration, launch: nil, time: time)
    }

    /// - Parameter age: how long ago the process started: the trace's `t = 0` is that long before now.
    private init(output: RecorderOutput, clock: TraceClock, configuration: RecorderConfiguration,
                 launch: ProcessLaunch?, age: Int64 = 0, lifecycle: TraceHeader.Lifecycle? = nil,
                 probes: SystemProbes = .system, file: URL? = nil, time: (any RecorderTimeSource)? = nil) {
        self.output = LockedValue(output)
        self.clock = clock
        self.manualTime = time
        self.origin = (time?.nanoseconds() ?? clock.nowNanoseconds()) - age
        self.configuration = configuration
        self.lifecycle = lifecycle
        self.probes = probes
        self.file = file
        self.shards = RecorderShards(totalCapacity: configuration.bufferCapacity)
        let wallStart = TraceClock.wall.nowNanoseconds() - age
        let mirror = configuration.mirror.makeMirror(
            wallStart: wallStart,
            header: output.currentHeader ?? {
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
            if append(.processLaunch, relayedAt: 0, { state, t in
                state.append(.processLaunch, at: t, reason: "unknown", pid: SystemInterface.processID(), attrs: attrs)
            }) != nil, mirrorsEvents {
                mirror?.mirror(LifecycleEvent(t: 0, kind: .processLaunch, reason: "unknown",
                                              pid: SystemInterface.processID(), attrs: attrs))
            }
        }
        if configuration.heartbeatInterval != nil {
            armTimer()
            record(.heartbeat)
        }
    }

    /// Nanoseconds since the trace started, on the trace's clock.
    @inline(__always)
    public func now() -> Int64 {
        if let manualTime { return manualTime.nanoseconds() - origin }
        return clock.nowNanoseconds() - origin
    }

    /// Records an event that happens now.
    public func record(
        _ kind: EventKind,
        scene: String? = nil,
        task: Int64? = nil,
        name: String? = nil,
        phase: ScenePhase? = nil,
        reason: String? = nil,
        pid: Int64? = nil,
        attrs: [Attribute]? = nil
    ) {
        guard let (_, t) = append(kind, stampNow: true, { state, t in
            state.append(kind, at: t, scene: scene, task: task, name: name, phase: phase, reason: reason, pid: pid,
                         attrs: attrs)
        }) else { return }
        if mirrorsEvents {
            mirror.mirror(LifecycleEvent(t: t, kind: kind, scene: scene, task: task, name: name, phase: phase,
                                         reason: reason, pid: pid, attrs: attrs))
        }
    }

    /// Records a user marker, `custom.<label>`, that happens now.
    public func mark(_ label: String, attrs: [Attribute]? = nil) {
        guard let (_, t) = append(.custom, stampNow: true, { state, t in state.append(.custom, at: t, label: label, attrs: attrs) })
        else { return }
        if mirrorsEvents { mirror.mirror(LifecycleEvent(t: t, kind: .custom, label: label, attrs: attrs)) }
    }

    /// Records a user marker, `custom.<label>`, that happens now, about `scene`: a scene, or a service (a
    /// service's name is its events' scene), on whose lane reports draw it.
    public func mark(_ label: String, scene: String, attrs: [Attribute]? = nil) {
        guard let (_, t) = append(.custom, stampNow: true, { state, t in
            state.append(.custom, at: t, label: label, scene: scene, attrs: attrs)
        }) else { return }
        if mirrorsEvents { mirror.mirror(LifecycleEvent(t: t, kind: .custom, label: label, scene: scene, attrs: attrs)) }
    }

    /// Records an event with the timestamp it carries, which should not be before the last one recorded.
    ///
    /// For relaying events timestamped elsewhere, as `lifetrace record` does: they are written in the order
    /// they come, a time below the last one raised to it.
    /// - Returns: `false` if the event was dropped (only with the ``RecorderConfiguration/OverflowPolicy/drop`` policy).
    @discardableResult
    public func record(_ event: LifecycleEvent) -> Bool {
        append(event.kind, relayedAt: event.t) { state, t in
            state.append(event.kind, at: t, label: event.label, scene: event.scene, dur: event.dur, task: event.task,
                         name: event.name, phase: event.phase, reason: event.reason, pid: event.pid, attrs: event.attrs,
                         relayed: true)
        } != nil
    }

    /// The number of events lost so far: dropped because a buffer was full, or held by a write that failed.
    public var droppedEventCount: Int {
        var total = output.withLock { $0.lostToWrites }
        for index in 0..<shards.count { total += shards.withLock(index) { $0.droppedTotal } }
        return total
    }

    /// Writes every buffered event that no unfinished span holds back, as a frame.
    ///
    /// Once the trace is closed, does nothing and throws nothing, as a second ``close()`` does: the close wrote
    /// everything recorded before it, and events recorded after it are refused and counted in
    /// ``droppedEventCount``, so nothing is left to write.
    public func flush() throws(TraceError) {
        try onWriterQueue { () throws(TraceError) in try writeOut(force: false) }
    }

    /// Writes what is buffered without waiting for it.
    public func flushSoon() {
        writerQueue.async { try? self.writeOut(force: false) }
    }

    /// Whether ``close()`` began.
    public var isClosed: Bool {
        closing.withLock { $0 }
    }

    /// Stops the timer and the captures, writes everything (unfinished spans without `dur`) and the index.
    ///
    /// Safe to call more than once and from several threads at once: the first call closes, the others wait
    /// for it to finish and return (throwing nothing). Events recorded after it began are refused and counted
    /// in ``droppedEventCount``.
    public func close() throws(TraceError) {
        let first = closing.withLock { closing in
            defer { closing = true }
            return !closing
        }
        guard first else {
            waitForWriter()
            return
        }
        let stopped = captures.withLock { captures in
            defer { captures.removeAll() }
            return Array(captures.values)
        }
        for capture in stopped { capture.stop() }
        for index in 0..<shards.count { shards.withLock(index) { $0.isClosed = true } }
        timer.withLock { $0.stop(closing: true) }
        try onWriterQueue { () throws(TraceError) in
            try writeOut(force: true)
            let locked = output.lock()
            defer { output.unlock() }
            try locked.pointee.close()
        }
    }

    // MARK: - Internals

    /// Appends under the lock of shard `shard`; returns the event's sequence number and timestamp, or `nil` if
    /// it was dropped.
    ///
    /// The timestamp is taken under the lock (or, for relayed events, raised to the shard's last one), so each
    /// shard's buffer is in time order.
    @inline(__always)
    func append(
        _ kind: EventKind,
        stampNow: Bool = false,
        relayedAt relayedT: Int64 = 0,
        openSpan: Bool = false,
        in shard: Int? = nil,
        _ store: (inout RecorderState, Int64) -> Int
    ) -> (Int, Int64)? {
        let shard = shard ?? shards.current
        let capacity = shards.capacity
        while true {
            let locked = shards.lock(shard)
            let t = max(stampNow ? now() : relayedT, locked.pointee.lastT)
            guard !locked.pointee.isClosed else {
                locked.pointee.noteDrop(at: t)
                shards.unlock(shard)
                return nil
            }
            guard locked.pointee.count < capacity else {
                if configuration.overflowPolicy == .drop {
                    locked.pointee.noteDrop(at: t)
                    shards.unlock(shard)
                    return nil
                }
                let schedule = !locked.pointee.writeScheduled
                locked.pointee.writeScheduled = true
                shards.unlock(shard)
                if schedule {
                    writerQueue.async { try? self.writeOut(force: false) }
                } else {
                    SystemInterface.sleep(microseconds: 20)  // the writer swaps the buffer out in O(1)
                }
                continue
            }
            let wasEmpty = locked.pointee.count == 0
            locked.pointee.reportDrops(at: t)
            let sequence = store(&locked.pointee, t)
            if openSpan { locked.pointee.openSpans.append(.init(sequence: sequence, start: t)) }
            shards.unlock(shard)
            // The first event of an empty buffer arms the timer that writes it out (rare: once per flush).
            if wasEmpty { armTimer() }
            return (sequence, t)
        }
    }

    /// Takes what may be written now from every shard and writes it; runs on ``writerQueue`` only.
    func writeOut(force: Bool) throws(TraceError) {
        // Every event stamped before `cutoff` is in a shard's buffer before that shard is taken below.
        var cutoff = force ? Int64.max : now()
        var batches: [RecorderState.Batch] = []
        batches.reserveCapacity(shards.count)
        let perShard = shards.capacity
        let hold = configuration.maxSpanHold.nanoseconds
        for index in 0..<shards.count {
            let batch = shards.withLock(index) { state in
                state.writeScheduled = false
                var batch = state.takeWritable(now: now(), maxHold: hold, force: force)
                // A full buffer held back entirely by open spans would stall recording: let the spans go.
                if batch.isEmpty, state.count >= perShard {
                    batch = state.takeWritable(now: now(), maxHold: 0, force: true)
                }
                return batch
            }
            if let held = batch.heldFrom { cutoff = min(cutoff, held) }
            if !batch.isEmpty { batches.append(batch) }
        }
        let locked = output.lock()
        defer { output.unlock() }
        // A closed trace takes nothing more; its shards are closed too, so `batches` is empty.
        guard !locked.pointee.isClosed else { return }
        try locked.pointee.write(batches, cutoff: cutoff)
    }

    /// Waits until the writer has done what it was asked so far (flushes the timer scheduled): for tests.
    package func waitForWriter() {
        writerQueue.sync {}
    }

    /// Runs `body` on the writer queue and waits for it.
    func onWriterQueue(_ body: () throws(TraceError) -> Void) throws(TraceError) {
        let result: Result<Void, TraceError> = writerQueue.sync {
            do throws(TraceError) { try body(); return .success(()) } catch { return .failure(error) }
        }
        try result.get()
    }
}
