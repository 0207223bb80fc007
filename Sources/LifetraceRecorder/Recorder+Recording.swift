import LifetraceConcurrency
public import LifetraceCore

/// Recording: the events an app records, its markers, relayed events, and what was lost.
extension Recorder {
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
        guard
            let (_, t, tapped) = append(
                kind, stampNow: true,
                { state, t in
                    state.append(
                        kind, at: t, scene: scene, task: task, name: name, phase: phase, reason: reason, pid: pid,
                        attrs: attrs)
                })
        else { return }
        tell(tapped) {
            LifecycleEvent(
                t: t, kind: kind, scene: scene, task: task, name: name, phase: phase, reason: reason, pid: pid,
                attrs: attrs)
        }
    }

    /// Records a user marker, `custom.<label>`, that happens now.
    public func mark(_ label: String, attrs: [Attribute]? = nil) {
        guard
            let (_, t, tapped) = append(
                .custom, stampNow: true, { state, t in state.append(.custom, at: t, label: label, attrs: attrs) })
        else { return }
        tell(tapped) { LifecycleEvent(t: t, kind: .custom, label: label, attrs: attrs) }
    }

    /// Records a user marker, `custom.<label>`, that happens now, about `scene`: a scene, or a service (a
    /// service's name is its events' scene), on whose lane reports draw it.
    public func mark(_ label: String, scene: String, attrs: [Attribute]? = nil) {
        guard
            let (_, t, tapped) = append(
                .custom, stampNow: true,
                { state, t in
                    state.append(.custom, at: t, label: label, scene: scene, attrs: attrs)
                })
        else { return }
        tell(tapped) { LifecycleEvent(t: t, kind: .custom, label: label, scene: scene, attrs: attrs) }
    }

    /// Records an event with the timestamp it carries, which should not be before the last one recorded.
    ///
    /// For relaying events timestamped elsewhere, as `lifetrace record` does: they are written in the order
    /// they come, a time below the last one raised to it.
    /// - Returns: `false` if the event was dropped: its buffer full, with the ``RecorderConfiguration/OverflowPolicy/drop``
    ///   policy, or the event more than the recorder keeps (over 128 KiB of text or 1,024 attributes), with any.
    @discardableResult
    public func record(_ event: LifecycleEvent) -> Bool {
        append(event.kind, relayedAt: event.t) { state, t in
            state.append(
                event.kind, at: t, label: event.label, scene: event.scene, dur: event.dur, task: event.task,
                name: event.name, phase: event.phase, reason: event.reason, pid: event.pid, attrs: event.attrs,
                relayed: true)
        } != nil
    }

    /// The most bytes of text (strings, attribute keys and values) a recorder keeps in one event; a larger event
    /// is dropped and counted in ``droppedEventCount``.
    public static let maximumEventTextBytes = RecorderState.maximumTextBytes
    /// The most attributes a recorder keeps in one event; an event with more is dropped and counted.
    public static let maximumEventAttributes = RecorderState.maximumAttributes

    /// Why a recorder would drop `event` for its size, or `nil` if it keeps it.
    public static func sizeProblem(of event: LifecycleEvent) -> String? {
        let (bytes, count) = (event.textByteCount, event.attrs?.count ?? 0)
        guard RecorderState.isTooLarge(textBytes: bytes, attributeCount: count) else { return nil }
        if count > maximumEventAttributes {
            return "\(count) attributes, more than the \(maximumEventAttributes) a recorder keeps in one event"
        }
        return "\(bytes) bytes of text, more than the \(maximumEventTextBytes) a recorder keeps in one event"
    }

    /// The number of events lost so far: dropped because a buffer was full, or held by a write that failed.
    public var droppedEventCount: Int {
        var total = output.withLock { $0.lostToWrites }
        for index in 0..<shards.count { total += shards.withLock(index) { $0.droppedTotal } }
        return total
    }
}
