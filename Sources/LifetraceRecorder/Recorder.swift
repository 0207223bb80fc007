import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
public import LifetraceCore
public import LifetraceFormat

/// Records lifecycle events of the running process into a `.lifetrace` trace.
///
/// Safe to call from any thread. Recording an event takes a lock and appends a value to a buffer reserved up
/// front: no heap allocation for events without attributes. Encoding and compression happen on a serial
/// writer queue, never on the recording thread: a full buffer is handed over whole while recording goes on
/// in a second one. A timer writes the buffer as a zstd frame every ``RecorderConfiguration/flushInterval``,
/// so a process killed with SIGKILL loses at most that interval; ``close()`` writes the last frame and the
/// index.
///
/// ```swift
/// let recorder = try Recorder(path: "run.lifetrace", app: "com.example.app", sceneManifest: true)
/// recorder.record(.sceneWillConnect, scene: "S1")
/// recorder.measure(.sceneDidEnterBackground, scene: "S1") { saveEverything() }
/// let task = recorder.beginTask(name: "upload")
/// recorder.endTask(task)
/// try recorder.close()
/// ```
public final class Recorder: Sendable {
    private let state: LockedValue<RecorderState>
    /// The writer, touched only on ``writerQueue``.
    private let output: LockedValue<any EventWriter>
    private let writerQueue = DispatchQueue(label: "lifetrace.recorder.writer")
    private let clock: TraceClock
    private let origin: Int64
    private let configuration: RecorderConfiguration
    private let timer: LockedValue<(any DispatchSourceTimer)?>

    /// Opens `path` and starts recording, with `t = 0` now.
    ///
    /// - Parameters:
    ///   - path: the trace file, created or truncated.
    ///   - app: the app's bundle identifier, for the header.
    ///   - sceneManifest: whether the app has a scene manifest, for the header.
    ///   - metadata: other header members.
    ///   - clock: the clock to timestamp with; `continuous` counts time asleep.
    public convenience init(
        path: String,
        app: String? = nil,
        sceneManifest: Bool? = nil,
        metadata: [(key: String, value: JSONValue)] = [],
        clock: TraceClock = .continuous,
        configuration: RecorderConfiguration = .init()
    ) throws(TraceError) {
        let header = TraceHeader(clock: clock, startUnixNanoseconds: TraceClock.wall.nowNanoseconds(), app: app,
                                 sceneManifest: sceneManifest, extra: metadata)
        let writer = try BinaryTraceWriter(sink: try FileSink(path: path), header: header,
                                           options: configuration.writerOptions)
        self.init(writer: writer, clock: clock, configuration: configuration)
    }

    /// Records into `writer`, which already holds the trace's header; timestamps count from now.
    public init(writer: any EventWriter, clock: TraceClock = .continuous, configuration: RecorderConfiguration = .init()) {
        self.output = LockedValue(writer)
        self.clock = clock
        self.origin = clock.nowNanoseconds()
        self.configuration = configuration
        self.state = LockedValue(RecorderState(capacity: configuration.bufferCapacity))
        self.timer = LockedValue(nil)
        startTimer()
    }

    /// Nanoseconds since the trace started, on the trace's clock.
    @inline(__always)
    public func now() -> Int64 {
        clock.nowNanoseconds() - origin
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
        _ = append(kind, stampNow: true) { state, t in
            state.append(kind, at: t, scene: scene, task: task, name: name, phase: phase, reason: reason, pid: pid,
                         attrs: attrs)
        }
    }

    /// Records a user marker, `custom.<label>`, that happens now.
    public func mark(_ label: String, attrs: [Attribute]? = nil) {
        _ = append(.custom, stampNow: true) { state, t in state.append(.custom, at: t, label: label, attrs: attrs) }
    }

    /// Records an event with the timestamp it carries, which must not be before the last one recorded.
    ///
    /// For relaying events timestamped elsewhere, as `lifetrace record` does.
    /// - Returns: `false` if the event was dropped (only with the ``RecorderConfiguration/OverflowPolicy/drop`` policy).
    @discardableResult
    public func record(_ event: LifecycleEvent) -> Bool {
        append(event.kind, relayedAt: event.t) { state, t in
            state.append(event.kind, at: t, label: event.label, scene: event.scene, dur: event.dur, task: event.task,
                         name: event.name, phase: event.phase, reason: event.reason, pid: event.pid, attrs: event.attrs)
        } != nil
    }

    /// Starts measuring a callback; the event is recorded at its start with the duration ``Span/end()`` measures.
    public func beginSpan(_ kind: EventKind, scene: String? = nil, phase: ScenePhase? = nil) -> Span {
        guard let (sequence, t) = append(kind, stampNow: true, openSpan: true, { state, t in
            state.append(kind, at: t, scene: scene, phase: phase)
        }) else {
            return Span(recorder: nil, sequence: -1, start: 0)
        }
        return Span(recorder: self, sequence: sequence, start: t)
    }

    /// Runs `body` as the handler of a callback and records the callback with the time `body` took.
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

    /// Records `task.begin` for a new background task id and returns the id.
    public func beginTask(name: String? = nil) -> Int64 {
        let id = state.withLock { state -> Int64 in
            state.nextTaskID += 1
            return state.nextTaskID
        }
        record(.taskBegin, task: id, name: name)
        return id
    }

    /// Records `task.end` for `task`.
    public func endTask(_ task: Int64) {
        record(.taskEnd, task: task)
    }

    /// The number of events dropped so far because the buffer was full.
    public var droppedEventCount: Int {
        state.withLock { $0.droppedTotal }
    }

    /// Writes every buffered event that no unfinished span holds back, as a frame.
    public func flush() throws(TraceError) {
        try onWriterQueue { () throws(TraceError) in try writeOut(force: false) }
    }

    /// Stops the timer, writes everything (unfinished spans without `dur`) and the index.
    public func close() throws(TraceError) {
        timer.withLock { timer in
            timer?.cancel()
            timer = nil
        }
        try onWriterQueue { () throws(TraceError) in
            try writeOut(force: true)
            var failure: TraceError?
            output.withLock { writer in
                do throws(TraceError) { try writer.close() } catch { failure = error }
            }
            if let failure { throw failure }
        }
    }

    // MARK: - Internals

    /// Appends under the lock; returns the event's sequence number and timestamp, or `nil` if it was dropped.
    ///
    /// The timestamp is taken under the lock (or, for relayed events, raised to the last one), so the buffer
    /// is always in time order.
    @inline(__always)
    private func append(
        _ kind: EventKind,
        stampNow: Bool = false,
        relayedAt relayedT: Int64 = 0,
        openSpan: Bool = false,
        _ store: (inout RecorderState, Int64) -> Int
    ) -> (Int, Int64)? {
        while true {
            let locked = state.lock()
            let t = max(stampNow ? now() : relayedT, locked.pointee.lastT)
            guard locked.pointee.count < configuration.bufferCapacity else {
                if configuration.overflowPolicy == .drop {
                    locked.pointee.noteDrop(at: t)
                    state.unlock()
                    return nil
                }
                let schedule = !locked.pointee.writeScheduled
                locked.pointee.writeScheduled = true
                state.unlock()
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
            state.unlock()
            return (sequence, t)
        }
    }

    /// Records the duration of the span `sequence` if its event is still buffered.
    fileprivate func endSpan(sequence: Int, start: Int64) {
        let end = now()
        state.withLock { state in
            guard let open = state.openSpans.firstIndex(where: { $0.sequence == sequence }) else { return }
            state.openSpans.remove(at: open)
            _ = state.setDuration(max(end - start, 0), of: sequence)
        }
    }

    /// Takes what may be written now and writes it; runs on ``writerQueue`` only.
    private func writeOut(force: Bool) throws(TraceError) {
        let capacity = configuration.bufferCapacity
        let batch = state.withLock { state in
            state.writeScheduled = false
            let batch = state.takeWritable(now: now(), maxHold: configuration.maxSpanHold.nanoseconds, force: force)
            // A full buffer held back entirely by open spans would stall recording: let the spans go.
            if batch.isEmpty, state.count >= capacity {
                return state.takeWritable(now: now(), maxHold: 0, force: true)
            }
            return batch
        }
        try write(batch)
    }

    /// Encodes and writes `batch` as (at least) one frame; runs on ``writerQueue`` only.
    private func write(_ batch: RecorderState.Batch) throws(TraceError) {
        guard !batch.isEmpty else { return }
        var failure: TraceError?
        output.withLock { writer in
            do throws(TraceError) {
                for index in batch.events.indices {
                    let attrs = batch.attrs.isEmpty ? nil : batch.attrs[batch.firstSequence + index]
                    try writer.append(batch.events[index].event(strings: batch.strings, attrs: attrs))
                }
                try writer.flush()
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }

    /// Runs `body` on the writer queue and waits for it.
    private func onWriterQueue(_ body: () throws(TraceError) -> Void) throws(TraceError) {
        let result: Result<Void, TraceError> = writerQueue.sync {
            do throws(TraceError) { try body(); return .success(()) } catch { return .failure(error) }
        }
        try result.get()
    }

    private func startTimer() {
        let queue = DispatchQueue(label: "lifetrace.recorder.flush")
        let source = DispatchSource.makeTimerSource(queue: queue)
        let flushNanos = max(configuration.flushInterval.nanoseconds, 1_000_000)
        let heartbeatNanos = configuration.heartbeatInterval.map { max($0.nanoseconds, 1_000_000) }
        let tick = min(flushNanos, heartbeatNanos ?? flushNanos)
        source.schedule(deadline: .now() + .nanoseconds(Int(tick)), repeating: .nanoseconds(Int(tick)),
                        leeway: .nanoseconds(Int(tick / 20)))
        let ticker = RecorderTicker(flushEvery: flushNanos, heartbeatEvery: heartbeatNanos)
        source.setEventHandler { [weak self] in
            guard let self else { return }
            let now = self.now()
            if ticker.heartbeatDue(at: now) { self.record(.heartbeat) }
            if ticker.flushDue(at: now) { self.writerQueue.async { try? self.writeOut(force: false) } }
        }
        timer.withLock { $0 = source }
        source.resume()
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
        guard now - lastFlush >= flushEvery * 9 / 10 else { return false }
        lastFlush = now
        return true
    }
}

/// A callback being measured; ``end()`` records its duration.
public struct Span: Sendable {
    fileprivate let recorder: Recorder?
    fileprivate let sequence: Int
    /// When the callback began, in nanoseconds since the trace started.
    public let start: Int64

    /// Records the callback's duration. Call it once, when the handler returns.
    public func end() {
        recorder?.endSpan(sequence: sequence, start: start)
    }
}
