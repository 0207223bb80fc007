import Foundation
import LifetraceConcurrency
package import LifetraceCore

/// Where a recorder hands each event the moment it records it, beside its buffers and its log mirror: the feed
/// of a live check (`LifetraceLiveCheck`), which must see a callback while its handler still runs — the buffers
/// hold a measured callback until it returns and write only at a flush.
///
/// With no live check, a recorded event costs nothing more: whether the tap is on is read from the shard the
/// recording thread holds locked anyway (``RecorderState/tapped``); with one, a lock and a call.
package final class EventTap: Sendable {
    /// The function events go to, in a box: a function value kept in a generic container and read through
    /// `inout` is re-abstracted, and so wrapped in one more thunk, at every read in an unoptimised build, until a
    /// call through the pile overflows the stack. A class reference is read as it is.
    final class Sink: Sendable {
        let body: @Sendable (LifecycleEvent) -> Void

        init(_ body: @escaping @Sendable (LifecycleEvent) -> Void) {
            self.body = body
        }
    }

    private let sink = LockedValue<Sink?>(nil)

    init() {}

    /// What events go to, if anything.
    var current: Sink? {
        sink.withLock { $0 }
    }

    /// Whether events go anywhere.
    var isOn: Bool {
        sink.withLock { $0 != nil }
    }

    /// Sends each event to `body` from now on (`nil`: to nothing), and tells every shard of `shards` whether to
    /// hand events over.
    func set(_ body: (@Sendable (LifecycleEvent) -> Void)?, shards: RecorderShards) {
        let box = body.map(Sink.init)
        sink.withLock { $0 = box }
        for index in 0..<shards.count { shards.withLock(index) { $0.tapped = box != nil } }
    }
}

extension Recorder {
    /// Hands each event recorded from now on to `body`, on the recording thread, as soon as it is recorded: a
    /// measured callback when it begins, marked `unfinished: true`, its duration in a `handler.return` when it
    /// ends; a recorder that recorded its process's launch hands that first. `body` must return at once.
    ///
    package func tapEvents(_ body: @escaping @Sendable (LifecycleEvent) -> Void) {
        if traceFile != nil {
            body(LifecycleEvent(t: 0, kind: .processLaunch, reason: "unknown", pid: SystemInterface.processID()))
        }
        tap.set(body, shards: shards)
    }

    /// The trace's header as it stands (its capture method may still be set until the first frame).
    package var headerSoFar: TraceHeader {
        output.withLock { $0.currentHeader } ?? TraceHeader(clock: clock, startUnixNanoseconds: 0)
    }

    /// The trace's file name, once the file is made; `live` before, or for a recorder of a writer.
    package var liveCheckName: String {
        traceFile?.url?.lastPathComponent ?? "live"
    }

    /// Stops handing events to what ``tapEvents(_:)`` was given.
    package func untapEvents() {
        tap.set(nil, shards: shards)
    }

    /// Hands the event `make` makes to the log mirror and, when `tapped` (the shard said so), to the tap, if
    /// either takes it.
    @inline(__always)
    func tell(_ tapped: Bool, _ make: () -> LifecycleEvent) {
        guard mirrorsEvents || tapped else { return }
        let taker = tapped ? tap.current : nil
        guard mirrorsEvents || taker != nil else { return }
        let event = make()
        if mirrorsEvents { mirror.mirror(event) }
        taker?.body(event)
    }
}
