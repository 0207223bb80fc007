// The recorder's public surface and its locking together: every public method is a few lines over the same
// shards, writer queue and timer.

import Dispatch
public import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import LifetraceConcurrency
public import LifetraceCore
public import LifetraceFormat

/// Records lifecycle events of the running process into a `.lifetrace` trace.
///
/// Safe to call from any thread. Recording an event takes the lock of the calling thread's buffer (one of
/// several, so threads rarely wait for each other) and appends a value to space reserved up front: no heap
/// allocation for events without attributes. Encoding and writing happen on a serial writer queue, never on
/// the recording thread. A timer writes what was buffered as a frame every
/// ``RecorderConfiguration/flushInterval``, so a process killed with SIGKILL loses at most that interval;
/// ``close()`` writes the last frame and the index.
///
/// The file needs no C library: its data frames are stored zstd frames (see ``FrameCodec/stored``), which
/// `zstd -t` and every lifetrace reader accept, and `lifetrace convert` recompresses.
///
/// ```swift
/// let recorder = try Recorder(file: traceURL, app: "com.example.app", sceneManifest: true)
/// let capture = recorder.captureLifecycle()       // the UIKit notifications, from now on
/// recorder.measure(.sceneDidEnterBackground, scene: "S1") { saveEverything() }
/// let task = recorder.beginTask(name: "upload")
/// recorder.endTask(task)
/// try recorder.close()
/// ```
public final class Recorder: Sendable {
    private let shards: RecorderShards
    /// Where frames go; touched only on ``writerQueue``.
    private let output: LockedValue<RecorderOutput>
    private let writerQueue = DispatchQueue(label: "lifetrace.recorder.writer")
    private let clock: TraceClock
    /// Time for tests (``ManualTimeSource``); `nil` reads ``clock`` directly, with no call through a protocol.
    private let manualTime: (any RecorderTimeSource)?
    private let origin: Int64
    private let configuration: RecorderConfiguration
    /// Stops the periodic work; `nil` once stopped.
    private let timer: LockedValue<(@Sendable () -> Void)?>
    private let taskIDs = LockedValue<Int64>(0)
    /// Captures the recorder holds itself (``fromEnvironment(app:sceneManifest:configuration:center:environment:)``),
    /// stopped when it closes.
    private let captures = LockedValue<[LifecycleCapture]>([])
    /// Where each event is also written as a `lifetrace ev=...` log line, if anywhere.
    private let mirror: any EventMirror
    /// Whether ``mirror`` writes anything: tested per event before the existential is touched.
    private let mirrorsEvents: Bool

    /// Opens `file` and starts recording the process, with `t = 0` now.
    ///
    /// The first event is `process.launch`, with the reason `unknown` (``captureLifecycle(from:)`` records the
    /// launch options' reason on `app.didFinishLaunching` when they show one), the process id and, if iOS
    /// prewarmed the process, the attribute `prewarmed: true`. Create one recorder per process, as early as
    /// the app allows (the app delegate's or the SwiftUI `App`'s `init`).
    ///
    /// The file is created (or truncated) at once, so a path that cannot be written fails here; its header is
    /// written with the first frame, so that it can say how the events were captured
    /// (``captureLifecycle(from:)``). On Apple's device platforms the file stays writable while the device
    /// is locked after the first unlock (`completeUntilFirstUserAuthentication`), so a flush in the background
    /// does not fail.
    ///
    /// - Parameters:
    ///   - file: the trace file, created or truncated. In an app, a file in its own container.
    ///   - app: the app's bundle identifier, for the header.
    ///   - sceneManifest: whether the app has a scene manifest, for the header.
    ///   - metadata: other header members, `["app_version": "2.3", "build": "417"]` (``TraceHeader/Key`` names
    ///     the ones lifetrace knows: `app_version`, `build`, `os_version`, `device`, `test_name`).
    ///   - clock: the clock to timestamp with; `continuous` counts time asleep.
    ///   - configuration: buffering, flushing, heartbeats and the log mirror.
    public convenience init(
        file: URL,
        app: String? = nil,
        sceneManifest: Bool? = nil,
        metadata: TraceMetadata = [:],
        clock: TraceClock = .continuous,
        configuration: RecorderConfiguration = .init()
    ) throws(TraceError) {
        let path = file.path
        var header = TraceHeader(clock: clock, startUnixNanoseconds: TraceClock.wall.nowNanoseconds(), app: app,
                                 sceneManifest: sceneManifest, extra: metadata.entries)
        header[extra: TraceHeader.Key.source] = header[extra: TraceHeader.Key.source] ?? .string("recorder")
        if let interval = configuration.heartbeatInterval {
            header.heartbeatNanoseconds = max(interval.nanoseconds, RecorderConfiguration.minimumTick)
        }
        let sink = try FileSink(path: path)
        FileProtection.keepWritableAfterFirstUnlock(path)
        self.init(output: .pending(sink: sink, header: header, options: configuration.writerOptions), clock: clock,
                  configuration: configuration, launch: ProcessLaunch.current)
    }

    /// Records into `writer`, which already holds the trace's header; timestamps count from now.
    public convenience init(writer: any EventWriter, clock: TraceClock = .continuous,
                            configuration: RecorderConfiguration = .init()) {
        self.init(output: .ready(writer), clock: clock, configuration: configuration, launch: nil)
    }

    /// Records into `writer` on the time of `time`, which also runs the flushes and heartbeats: for tests that
    /// move time by hand (``ManualTimeSource``).
    package convenience init(writer: any EventWriter, time: any RecorderTimeSource,
                             configuration: RecorderConfiguration = .init()) {
        self.init(output: .ready(writer), clock: .continuous, configuration: configuration, launch: nil, time: time)
    }

    private init(output: RecorderOutput, clock: TraceClock, configuration: RecorderConfiguration,
                 launch: ProcessLaunch?, time: (any RecorderTimeSource)? = nil) {
        self.output = LockedValue(output)
        self.clock = clock
        self.manualTime = time
        self.origin = time?.nanoseconds() ?? clock.nowNanoseconds()
        self.configuration = configuration
        self.shards = RecorderShards(totalCapacity: configuration.bufferCapacity)
        let mirror = configuration.mirror.makeMirror(wallStart: TraceClock.wall.nowNanoseconds())
        self.mirror = mirror ?? NoMirror()
        self.mirrorsEvents = mirror != nil
        self.timer = LockedValue(nil)
        if let launch {
            record(.processLaunch, reason: "unknown", pid: Int64(getpid()),
                   attrs: launch.prewarmed ? [Attribute(Attribute.Key.prewarmed, .bool(true))] : nil)
        }
        startTimer()
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

    /// Starts measuring a callback; the event is recorded at its start with the duration ``Span/end()`` measures.
    public func beginSpan(_ kind: EventKind, scene: String? = nil, phase: ScenePhase? = nil) -> Span {
        let shard = shards.current
        guard let (sequence, t) = append(kind, stampNow: true, openSpan: true, in: shard, { state, t in
            state.append(kind, at: t, scene: scene, phase: phase)
        }) else {
            return Span(recorder: nil, shard: 0, sequence: -1, start: 0, kind: kind, scene: scene, phase: phase)
        }
        return Span(recorder: self, shard: shard, sequence: sequence, start: t, kind: kind, scene: scene, phase: phase)
    }

    /// Runs `body` as the handler of a callback and records the callback with the time `body` took.
    @discardableResult
    public func measure<R>(
        _ kind: EventKind,
        scene: String? = nil,
        phase: ScenePhase? = nil,
        _ body: () throws -> R
    ) rethrows -> R {
        let span = beginSpan(kind, scene: scene, phase: phase)
        defer { span.end() }
        return try body()
    }

    /// Records `task.begin` for a task numbered anew and returns its number, for ``endTask(_:)``.
    public func beginTask(name: String? = nil) -> TaskID {
        let id = nextTaskID()
        record(.taskBegin, task: id, name: name)
        return TaskID(rawValue: id)
    }

    /// A task id not handed out before: 1, 2, 3, ...
    func nextTaskID() -> Int64 {
        taskIDs.withLock { next -> Int64 in
            next += 1
            return next
        }
    }

    /// Records `task.end` for `task`.
    public func endTask(_ task: TaskID) {
        record(.taskEnd, task: task.rawValue)
    }

    /// The number of events lost so far: dropped because a buffer was full, or held by a write that failed.
    public var droppedEventCount: Int {
        var total = output.withLock { $0.lostToWrites }
        for index in 0..<shards.count { total += shards.withLock(index) { $0.droppedTotal } }
        return total
    }

    /// Sets the header's `capture` member, if the header is not written yet (it is written with the first
    /// frame); `false` if it was.
    @discardableResult
    func setCaptureMethod(_ method: TraceHeader.CaptureMethod) -> Bool {
        output.withLock { output in output.updateHeader { $0.captureMethod = method } }
    }

    /// Writes every buffered event that no unfinished span holds back, as a frame.
    public func flush() throws(TraceError) {
        try onWriterQueue { () throws(TraceError) in try writeOut(force: false) }
    }

    /// Writes what is buffered without waiting for it: for a moment the app may be suspended after, such as
    /// resigning active or entering the background.
    public func flushSoon() {
        writerQueue.async { try? self.writeOut(force: false) }
    }

    /// Keeps `capture` until the recorder closes.
    func keep(_ capture: LifecycleCapture) {
        captures.withLock { $0.append(capture) }
    }

    /// Stops the timer and the captures the recorder holds, writes everything (unfinished spans without
    /// `dur`) and the index.
    public func close() throws(TraceError) {
        for capture in captures.withLock({ $0 }) { capture.stop() }
        timer.withLock { timer in
            timer?()
            timer = nil
        }
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
    private func append(
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
                    usleep(20)  // the writer swaps the buffer out in O(1); encoding happens after that
                }
                continue
            }
            locked.pointee.reportDrops(at: t)
            let sequence = store(&locked.pointee, t)
            if openSpan { locked.pointee.openSpans.append(.init(sequence: sequence, start: t)) }
            shards.unlock(shard)
            return (sequence, t)
        }
    }

    /// Records the duration of `span`: in its event if that is still buffered, else in a `handler.return`.
    fileprivate func end(_ span: Span) {
        let dur = max(now() - span.start, 0)
        let written = shards.withLock(span.shard) { state -> Bool in
            guard let open = state.openSpans.firstIndex(where: { $0.sequence == span.sequence }) else { return true }
            state.openSpans.remove(at: open)
            return !state.setDuration(dur, of: span.sequence)
        }
        if written {
            // The event went out at a flush while the handler ran (marked `unfinished`): its duration follows.
            _ = append(.handlerReturn, stampNow: true, in: span.shard) { state, t in
                state.append(.handlerReturn, at: t, scene: span.scene, dur: dur, name: span.kind.name)
            }
        }
        if mirrorsEvents {
            mirror.mirror(LifecycleEvent(t: span.start, kind: span.kind, scene: span.scene, dur: dur, phase: span.phase))
        }
    }

    /// Takes what may be written now from every shard and writes it; runs on ``writerQueue`` only.
    private func writeOut(force: Bool) throws(TraceError) {
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
        try locked.pointee.write(batches, cutoff: cutoff)
    }

    /// Waits until the writer has done what it was asked so far (flushes the timer scheduled): for tests.
    package func waitForWriter() {
        writerQueue.sync {}
    }

    /// Runs `body` on the writer queue and waits for it.
    private func onWriterQueue(_ body: () throws(TraceError) -> Void) throws(TraceError) {
        let result: Result<Void, TraceError> = writerQueue.sync {
            do throws(TraceError) { try body(); return .success(()) } catch { return .failure(error) }
        }
        try result.get()
    }

    private func startTimer() {
        let flushNanos = max(configuration.flushInterval.nanoseconds, RecorderConfiguration.minimumTick)
        let heartbeatNanos = configuration.heartbeatInterval.map { max($0.nanoseconds, RecorderConfiguration.minimumTick) }
        // Ticks at half the flush interval: an event is on disk within one interval of being recorded, whenever
        // in the interval it came and however late the timer fires.
        let tick = min(flushNanos / 2, heartbeatNanos ?? flushNanos)
        let ticker = RecorderTicker(flushEvery: flushNanos, heartbeatEvery: heartbeatNanos)
        let time = manualTime ?? SystemTimeSource(clock: clock)
        let stop = time.schedule(every: tick) { [weak self] in
            guard let self else { return }
            let now = self.now()
            if ticker.heartbeatDue(at: now) { self.record(.heartbeat) }
            if ticker.flushDue(at: now) { self.writerQueue.async { try? self.writeOut(force: false) } }
        }
        timer.withLock { $0 = stop }
        if heartbeatNanos != nil { record(.heartbeat) }
    }
}

/// Decides, on each timer tick, whether a heartbeat and a flush are due. Touched only on the timer's queue.
private final class RecorderTicker: @unchecked Sendable {
    private let flushEvery: Int64
    private let heartbeatEvery: Int64?
    private var lastFlush: Int64 = 0
    private var lastHeartbeat: Int64 = 0

    init(flushEvery: Int64, heartbeatEvery: Int64?) {
        self.flushEvery = flushEvery
        self.heartbeatEvery = heartbeatEvery
    }

    func heartbeatDue(at now: Int64) -> Bool {
        guard let heartbeatEvery, now - lastHeartbeat >= heartbeatEvery * 9 / 10 else { return false }
        lastHeartbeat = now
        return true
    }

    func flushDue(at now: Int64) -> Bool {
        guard now - lastFlush >= flushEvery * 9 / 20 else { return false }
        lastFlush = now
        return true
    }
}

/// A callback being measured; ``end()`` records its duration.
public struct Span: Sendable {
    fileprivate let recorder: Recorder?
    fileprivate let shard: Int
    fileprivate let sequence: Int
    /// When the callback began, in nanoseconds since the trace started.
    public let start: Int64
    fileprivate let kind: EventKind
    fileprivate let scene: String?
    fileprivate let phase: ScenePhase?

    /// Records the callback's duration. Call it once, when the handler returns.
    public func end() {
        recorder?.end(self)
    }
}
