import LifetraceConcurrency
import LifetraceFormat

/// An ``ExportEncoder`` that hands its calls to another encoder on a thread of its own, so that the analyzer and the
/// export's layout run on the caller's thread while the format's bytes are made and written on this one.
///
/// The calls go over in batches (``BatchRelay``), in the order they were made, thousands at a time: a batch crosses
/// between the threads under a lock once, not each call. A call is kept as plain data (``ExportCall``). A numbered
/// name's text crosses once, with the first call that uses it, and the thread keeps a copy of its own, so the two
/// threads do not count references to the names nearly every call carries (an unnumbered name, a track's name, a
/// process's, an instant's notes and an event's strings are shared, as rare or as read in place). A call's event points
/// into the block the analyzer lent; the exporter pins a copy of each block (``keep(_:)``), and a batch holds the
/// blocks its calls point into until they are written. Memory is that of ``batchCount`` batches and the blocks
/// they hold, whatever the trace's length: a batch is handed over at ``callsPerBatch`` calls or
/// ``blocksPerBatch`` blocks. What the other encoder writes is byte for byte what it writes called directly.
///
/// The other encoder (and its sink) is used on the relay's thread only, until ``finish(_:)`` has joined it; no call
/// comes after ``finish(_:)``.
final class EncodingThread: ExportEncoder {
    /// The calls handed over at a time: about 1 MB of them, some 3,000 events of a random walk. Measured on the
    /// 1 M-event walk, batches of 1,024 calls took about 10 % longer than 4,096 (more hand-overs, each waking a
    /// thread); with eight batches in use, 8,192 calls were as fast as 16,384 and held less memory.
    static let callsPerBatch = 8_192
    /// The most blocks a batch holds: a trace of small frames (a recorder's, written at every resign) hands a batch
    /// over before its pinned blocks add up. The batches hold 3,072 blocks at most between them.
    static let blocksPerBatch = 384
    /// The batches in use: one filled here, one written there, and six between them, so that neither thread waits
    /// for the other while the two cores are shared with the decoding and writing threads. Measured on the 10 M-event
    /// walk written to `/dev/null` (medians of 9 alternating runs), eight batches of 8,192 calls took 1.31 s where
    /// three of 16,384 took 1.39 s, and eight of 16,384 or five of 16,384 1.30 s; eight of 8,192 hold no more
    /// memory at the peak than three of 16,384 did (52 MB against 49 MB on that walk, 98 MB against 105 MB on a
    /// trace of 200,000 scenes' findings), where eight of 16,384 took up to 10 MB more.
    static let batchCount = 8

    /// The encoder the calls are made on, on the relay's thread, then by ``finish(_:)`` once the thread is done.
    private let encoder: any ExportEncoder
    private let relay: BatchRelay<Batch>
    private let callsPerBatch: Int
    /// What changes as calls are made, kept in place: no exclusivity check of a class's property per call.
    private let state: InPlace<State>

    private struct State {
        /// The batch being filled, its room for calls and the rest of its contents.
        var batch: Batch
        var calls: UnsafeMutablePointer<ExportCall>
        var filling: InPlace<Batch.Contents>
        /// The block the events of the calls being made point into.
        var block: PinnedBlock?
        /// Whether the text of the name numbered by each key has been handed over.
        var carried: [Bool] = []
    }

    /// An encoder that makes its calls on `encoder` on a thread of its own, `callsPerBatch` at a time; the calls
    /// are made on `encoder`'s own type, not through the protocol.
    init<Encoder: ExportEncoder>(_ encoder: Encoder, callsPerBatch: Int = EncodingThread.callsPerBatch) {
        precondition(callsPerBatch > 0, "a batch holds a call at least")
        self.encoder = encoder
        self.callsPerBatch = callsPerBatch
        let batches = (0..<Self.batchCount).map { _ in Batch(capacity: callsPerBatch) }
        let replay = Replay(encoder)
        relay = BatchRelay(batches: batches) { batch in replay.replay(batch) }
        let batch = relay.take()
        state = InPlace(State(batch: batch, calls: batch.calls, filling: batch.contents))
    }

    deinit {
        // An export that failed part way stops here: the thread writes what it was handed, then ends.
        relay.finish()
        state.free()
    }

    func keep(_ block: PinnedBlock) {
        state.value.block = block
        let filling = state.value.filling
        filling.value.blocks.append(block)
        if filling.value.blocks.count >= Self.blocksPerBatch, filling.value.callCount > 0 { handOver() }
    }

    func start(origin: Int64) {
        var call = ExportCall(.start)
        call.t = origin
        add(call)
    }

    func declare(_ process: ExportProcess) {
        var call = ExportCall(.declareProcess)
        call.side = Int32(state.value.filling.value.processes.count)
        state.value.filling.value.processes.append(process)
        add(call)
    }

    func declare(_ track: ExportTrack, name: ExportTrackName) {
        var call = ExportCall(.declareTrack)
        call.track = track
        call.side = Int32(state.value.filling.value.trackNames.count)
        state.value.filling.value.trackNames.append(name)
        add(call)
    }

    func slice(
        on track: ExportTrack, name: ExportName, category: ExportCategory, from start: Int64, to end: Int64,
        _ arguments: ExportArguments
    ) {
        var call = ExportCall(.slice)
        call.end = end
        add(call, track, name, category, at: start, arguments)
    }

    func begin(
        on track: ExportTrack, name: ExportName, category: ExportCategory, at t: Int64, _ arguments: ExportArguments
    ) {
        add(ExportCall(.begin), track, name, category, at: t, arguments)
    }

    func end(on track: ExportTrack, at t: Int64, _ arguments: ExportArguments) {
        add(ExportCall(.end), track, nil, .callback, at: t, arguments)
    }

    func instant(
        on track: ExportTrack, name: ExportName, category: ExportCategory, at t: Int64, _ arguments: ExportArguments
    ) {
        add(ExportCall(.instant), track, name, category, at: t, arguments)
    }

    func instant(
        on track: ExportTrack, name: ExportName, category: ExportCategory, at t: Int64, _ arguments: ExportArguments,
        notes: [ExportNote]
    ) {
        var call = ExportCall(.instant)
        call.notes = Int32(state.value.filling.value.notes.count)
        state.value.filling.value.notes.append(notes)
        add(call, track, name, category, at: t, arguments)
    }

    /// Hands over the last calls, waits until they are written, and ends the other encoder's file.
    func finish(_ summary: ExportSummary) throws(TraceError) {
        if state.value.filling.value.callCount > 0 { relay.submit(state.value.batch) }
        relay.finish()
        try encoder.finish(summary)
    }

    /// Adds `call` on `track`, named `name`, at `t`, with `arguments`.
    @inline(__always)
    private func add(
        _ call: ExportCall, _ track: ExportTrack, _ name: ExportName?, _ category: ExportCategory,
        at t: Int64, _ arguments: ExportArguments
    ) {
        var call = call
        call.track = track
        call.category = category
        call.t = t
        if let name { call.name = carry(name) }
        call.endsSlice = arguments.endsSlice
        if let index = arguments.index { call.index = index }
        call.event = arguments.event
        if !arguments.extras.isEmpty {
            call.side = Int32(state.value.filling.value.extras.count)
            state.value.filling.value.extras.append(arguments.extras)
        }
        add(call)
    }

    /// What stands for `name` in a call: its key once its text has been handed over, else its place among the
    /// batch's names.
    @inline(__always)
    private func carry(_ name: ExportName) -> Int32 {
        if name.key >= 0 {
            if name.key < state.value.carried.count, state.value.carried[name.key] { return Int32(name.key) }
            state.value.carried.extend(toHold: name.key, with: false)
            state.value.carried[name.key] = true
        }
        let filling = state.value.filling
        filling.value.names.append(name)
        return -Int32(filling.value.names.count)
    }

    @inline(__always)
    private func add(_ call: ExportCall) {
        let filling = state.value.filling
        let count = filling.value.callCount
        (state.value.calls + count).initialize(to: call)
        filling.value.callCount = count + 1
        if count + 1 == callsPerBatch { handOver() }
    }

    /// Hands the batch being filled to the thread and starts the next, which holds the block still read.
    private func handOver() {
        relay.submit(state.value.batch)
        let batch = relay.take()
        state.value.batch = batch
        state.value.calls = batch.calls
        state.value.filling = batch.contents
        if let block = state.value.block { batch.contents.value.blocks.append(block) }
    }
}
