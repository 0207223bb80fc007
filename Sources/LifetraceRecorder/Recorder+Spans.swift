public import LifetraceCore

extension Recorder {
    /// Starts measuring a callback; the event is recorded at its start with the duration ``Span/end()`` measures.
    ///
    /// A log mirror writes the callback's line now and a `handler.return` line with the duration when the
    /// span ends, so the log places the callback where it began and still shows one whose handler never returns.
    public func beginSpan(_ kind: EventKind, scene: String? = nil, phase: ScenePhase? = nil) -> Span {
        let shard = shards.current
        guard
            let (sequence, t, tapped) = append(
                kind, stampNow: true, openSpan: true, in: shard,
                { state, t in
                    state.append(kind, at: t, scene: scene, phase: phase)
                })
        else {
            return Span(recorder: nil, shard: 0, sequence: -1, start: 0, kind: kind, scene: scene, phase: phase)
        }
        if mirrorsEvents { mirror.mirror(LifecycleEvent(t: t, kind: kind, scene: scene, phase: phase)) }
        // A live check sees the callback while its handler runs: written as a flush would write it, unfinished.
        if tapped, let taker = tap.current {
            taker.body(
                LifecycleEvent(
                    t: t, kind: kind, scene: scene, phase: phase,
                    attrs: [Attribute(Attribute.Key.unfinished, .bool(true))]))
        }
        return Span(recorder: self, shard: shard, sequence: sequence, start: t, kind: kind, scene: scene, phase: phase)
    }

    /// Runs `body` as the handler of a callback and records the callback with the time `body` took.
    ///
    /// For a recorder that does not capture the lifecycle (``RecordingOptions/capturesLifecycle`` off): with capture
    /// on, the framework's notification records the same callback too, and the trace holds it twice.
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

    /// Records the duration of `span`: in its event if that is still buffered, else in a `handler.return`.
    func end(_ span: Span) {
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
        // The callback's line went out when it began: its duration follows as the file's would.
        tell(tap.isOn) {
            LifecycleEvent(t: span.start + dur, kind: .handlerReturn, scene: span.scene, dur: dur, name: span.kind.name)
        }
    }
}

/// A callback being measured; ``end()`` records its duration.
public struct Span: Sendable {
    let recorder: Recorder?
    let shard: Int
    let sequence: Int
    /// When the callback began, in nanoseconds since the trace started.
    public let start: Int64
    let kind: EventKind
    let scene: String?
    let phase: ScenePhase?

    /// Records the callback's duration. Call it once, when the handler returns.
    public func end() {
        recorder?.end(self)
    }
}
