import LifetraceConcurrency
import LifetraceFormat

/// An ``ExportEncoder`` that hands its calls to another encoder on a thread of its own, so that the analyzer and the
/// export's layout run on the caller's thread while the format's bytes are made and written on this one.
///
/// The calls go over in batches (``BatchRelay``), in the order they were made, thousands at a time: a batch crosses
/// between the threads under a lock once, not each call. A call is kept as plain numbers (``ExportCall``); a name's
/// text crosses once, with the first call that uses it, and the thread keeps its own copy, so the two threads
/// never count references to the same name. A call's event points into the block the analyzer lent; the exporter
/// pins a copy of each block (``keep(_:)``), and a batch holds the blocks its calls point into until they are
/// written. Memory is that of ``batchCount`` batches and the blocks they hold, whatever the trace's length. What
/// the other encoder writes is byte for byte what it writes called directly.
final class EncodingThread: ExportEncoder {
    /// The calls handed over at a time: about 1.8 MB of them, some 6,000 events of a random walk. Measured on the
    /// 1 M-event walk, batches of 1,024 calls took about 10 % longer than 4,096 (more hand-overs, each waking a
    /// thread), and 16,384 about 5 % less.
    static let callsPerBatch = 16_384
    /// The batches in use: one filled here, one written there, one ready between them.
    static let batchCount = 3

    /// The encoder the calls are made on, on the relay's thread, then by ``finish(_:)`` once the thread is done.
    private let encoder: any ExportEncoder
    private let relay: BatchRelay<Batch>
    private let callsPerBatch: Int
    /// What changes as calls are made, kept in place: no exclusivity check of a class's property per call.
    private let state: InPlace<State>

    private struct State {
        /// The batch being filled, its calls and the rest of its contents.
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
        relay = BatchRelay(batches: batches) { batch in replay.make(batch) }
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
        state.value.filling.value.blocks.append(block)
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

    func declare(_ track: ExportTrack, name: String) {
        var call = ExportCall(.declareTrack)
        call.track = track
        call.side = Int32(state.value.filling.value.texts.count)
        state.value.filling.value.texts.append(name)
        add(call)
    }

    func slice(on track: ExportTrack, name: ExportName, category: ExportCategory, from start: Int64, to end: Int64,
               _ arguments: ExportArguments) {
        var call = ExportCall(.slice)
        call.end = end
        add(call, track, name, category, at: start, arguments)
    }

    func begin(on track: ExportTrack, name: ExportName, category: ExportCategory, at t: Int64, _ arguments: ExportArguments) {
        add(ExportCall(.begin), track, name, category, at: t, arguments)
    }

    func end(on track: ExportTrack, at t: Int64, _ arguments: ExportArguments) {
        add(ExportCall(.end), track, nil, .callback, at: t, arguments)
    }

    func instant(on track: ExportTrack, name: ExportName, category: ExportCategory, at t: Int64, _ arguments: ExportArguments) {
        add(ExportCall(.instant), track, name, category, at: t, arguments)
    }

    /// Hands over the last calls, waits until they are written, and ends the other encoder's file.
    func finish(_ summary: ExportSummary) throws(TraceError) {
        if state.value.filling.value.callCount > 0 { relay.submit(state.value.batch) }
        relay.finish()
        try encoder.finish(summary)
    }

    /// Adds `call` on `track`, named `name`, at `t`, with `arguments`.
    @inline(__always)
    private func add(_ call: ExportCall, _ track: ExportTrack, _ name: ExportName?, _ category: ExportCategory,
                     at t: Int64, _ arguments: ExportArguments) {
        var call = call
        call.track = track
        call.category = category
        call.t = t
        if let name { call.name = carry(name) }
        call.endsSlice = arguments.endsSlice
        call.index = arguments.index ?? -1
        call.event = arguments.event
        if !arguments.extra.isEmpty {
            call.side = Int32(state.value.filling.value.extras.count)
            state.value.filling.value.extras.append(arguments.extra)
        }
        add(call)
    }

    /// What stands for `name` in a call: its key once its text has been handed over, else its place among the
    /// batch's names.
    @inline(__always)
    private func carry(_ name: ExportName) -> Int32 {
        if name.key >= 0, name.key < state.value.carried.count, state.value.carried[name.key] { return Int32(name.key) }
        if name.key >= 0 {
            if name.key >= state.value.carried.count {
                state.value.carried.append(contentsOf: repeatElement(false, count: name.key + 1 - state.value.carried.count))
            }
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
        state.value.calls[count] = call
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

    /// Calls to make and what they refer to, filled on the caller's thread and made on the relay's.
    final class Batch {
        /// What a batch holds besides its calls.
        struct Contents {
            /// The calls in ``Batch/calls``.
            var callCount = 0
            /// The names whose text crosses with this batch.
            var names: [ExportName] = []
            /// The arguments' extra values.
            var extras: [[(key: String, value: ExportValue)]] = []
            var processes: [ExportProcess] = []
            /// The tracks' names.
            var texts: [String] = []
            /// The blocks the calls' events point into.
            var blocks: [PinnedBlock] = []

            mutating func removeAll() {
                callCount = 0
                names.removeAll(keepingCapacity: true)
                extras.removeAll(keepingCapacity: true)
                processes.removeAll(keepingCapacity: true)
                texts.removeAll(keepingCapacity: true)
                blocks.removeAll(keepingCapacity: true)
            }
        }

        /// Room for the calls, plain values (``ExportCall``): written and read in place, with no count or
        /// uniqueness check of an array per call.
        let calls: UnsafeMutablePointer<ExportCall>
        /// Kept at one address, so that adding a call takes no exclusivity check on a class's property.
        let contents = InPlace(Contents())

        /// A batch of room for `capacity` calls.
        init(capacity: Int) {
            calls = .allocate(capacity: capacity)
        }

        deinit {
            calls.deallocate()
            contents.free()
        }
    }

    /// The relay's side: makes a batch's calls on the encoder, with the names carried so far.
    private final class Replay<Encoder: ExportEncoder>: @unchecked Sendable {
        let encoder: Encoder
        /// The names by key, each a copy of its own: the caller's thread counts references to the original.
        private let names = InPlace<[ExportName?]>([])

        init(_ encoder: Encoder) {
            self.encoder = encoder
        }

        deinit {
            names.free()
        }

        /// Makes `batch`'s calls, in order, then empties it.
        func make(_ batch: Batch) {
            let contents = batch.contents
            for position in 0 ..< contents.value.callCount {
                let call = batch.calls[position]
                switch call.kind {
                case .start:
                    encoder.start(origin: call.t)
                case .declareProcess:
                    encoder.declare(contents.value.processes[Int(call.side)])
                case .declareTrack:
                    encoder.declare(call.track, name: contents.value.texts[Int(call.side)])
                case .slice:
                    encoder.slice(on: call.track, name: name(call.name, contents), category: call.category, from: call.t,
                                  to: call.end, arguments(call, contents))
                case .begin:
                    encoder.begin(on: call.track, name: name(call.name, contents), category: call.category, at: call.t,
                                  arguments(call, contents))
                case .end:
                    encoder.end(on: call.track, at: call.t, arguments(call, contents))
                case .instant:
                    encoder.instant(on: call.track, name: name(call.name, contents), category: call.category, at: call.t,
                                    arguments(call, contents))
                }
            }
            contents.value.removeAll()
        }

        /// The name `reference` stands for (``ExportCall/name``), kept by key the first time it comes.
        @inline(__always)
        private func name(_ reference: Int32, _ contents: InPlace<Batch.Contents>) -> ExportName {
            if reference >= 0 { return names.value[Int(reference)]! }
            let carried = contents.value.names[Int(-1 - reference)]
            guard carried.key >= 0 else { return carried }
            let own = ExportName(String(decoding: Array(carried.text.utf8), as: UTF8.self), key: carried.key)
            if carried.key >= names.value.count {
                names.value.append(contentsOf: repeatElement(nil, count: carried.key + 1 - names.value.count))
            }
            names.value[carried.key] = own
            return own
        }

        @inline(__always)
        private func arguments(_ call: ExportCall, _ contents: InPlace<Batch.Contents>) -> ExportArguments {
            var arguments = ExportArguments(index: call.index >= 0 ? call.index : nil, event: call.event,
                                            extra: call.side >= 0 ? contents.value.extras[Int(call.side)] : [])
            arguments.endsSlice = call.endsSlice
            return arguments
        }
    }
}
