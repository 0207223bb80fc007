import Dispatch
import LifetraceConcurrency
import LifetraceCore
public import LifetraceFormat

/// Buffering and writing: the shards' locks, the writer queue, flushes and the close.
extension Recorder {
    /// Writes every buffered event that no unfinished span holds back, as a frame.
    ///
    /// Once the trace is closed, does nothing and throws nothing, as a second ``close()`` does: the close wrote
    /// everything recorded before it, and events recorded after it are refused and counted in
    /// ``droppedEventCount``, so nothing is left to write.
    public func flush() throws(TraceError) {
        try onWriterQueue { () throws(TraceError) in try writeOut(force: false) }
    }

    /// Writes the header on the writer queue, creating the file first if it is not created yet, if it is not
    /// written yet (``RecorderOutput/writeHeader()``), without waiting for it; a failure is reported to the unified
    /// log, and the next flush tries again.
    func writeHeaderSoon() {
        writerQueue.async { [self] in
            let locked = output.lock()
            defer { output.unlock() }
            do throws(TraceError) {
                try locked.pointee.writeHeader()
            } catch {
                RecorderDiagnostics.report("could not write the trace's header: \(error)")
            }
        }
    }

    /// Creates the trace's file on the writer queue if it is not created yet, without waiting for it; a failure
    /// is reported to the unified log (and every write fails with it).
    func createFileSoon() {
        writerQueue.async { [self] in
            let locked = output.lock()
            defer { output.unlock() }
            do throws(TraceError) {
                try locked.pointee.createFile()
            } catch {
                RecorderDiagnostics.report("cannot create the trace: \(error)")
            }
        }
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
        guard closing.claim() else {
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
        // Whatever the close throws, the file is no longer being written: another launch may prune it.
        defer { traceFile?.releaseLock() }
        try onWriterQueue { () throws(TraceError) in
            try writeOut(force: true)
            let locked = output.lock()
            defer { output.unlock() }
            try locked.pointee.close()
        }
    }

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
    ) -> (Int, Int64, tapped: Bool)? {
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
            guard sequence != RecorderState.dropped else {
                shards.unlock(shard)
                // The drop is said at the next write: one due now, if nothing else would make one.
                if wasEmpty { armTimer() }
                return nil
            }
            if openSpan { locked.pointee.openSpans.append(.init(sequence: sequence, start: t)) }
            let tapped = locked.pointee.tapped
            shards.unlock(shard)
            // The first event of an empty buffer arms the timer that writes it out (rare: once per flush).
            if wasEmpty { armTimer() }
            return (sequence, t, tapped)
        }
    }

    /// Takes what may be written now from every shard and writes it, a span open longer than
    /// ``RecorderConfiguration/maxSpanHold`` (any span, `releasingSpans`) without its duration; `force` writes
    /// everything, as the close does. Runs on ``writerQueue`` only.
    func writeOut(force: Bool, releasingSpans: Bool = false) throws(TraceError) {
        // Every event stamped before `cutoff` is in a shard's buffer before that shard is taken below.
        var cutoff = force ? Int64.max : now()
        var batches: [RecorderState.Batch] = []
        batches.reserveCapacity(shards.count)
        let perShard = shards.capacity
        let hold = configuration.maxSpanHold.nanoseconds
        for index in 0..<shards.count {
            let batch = shards.withLock(index) { state in
                state.writeScheduled = false
                var batch = state.takeWritable(now: now(), maxHold: hold, force: force || releasingSpans)
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
            do throws(TraceError) {
                try body()
                return .success(())
            } catch { return .failure(error) }
        }
        try result.get()
    }
}
