import LifetraceCore
import LifetraceFormat

/// Where a recorder's events go, touched only on its writer queue: the trace writer, made with the first
/// frame so that the header can still change before then, the merge of the shards' batches, and the count of
/// events that failed writes lost. For ``Recorder/start(_:)`` the file itself is made there too, when first
/// needed, so that the thread that starts the recorder does no file I/O.
struct RecorderOutput {
    private enum State {
        /// The file is not made yet: `create` makes it, on the writer queue.
        case deferred(
            create: @Sendable () throws(TraceError) -> FileSink, header: TraceHeader,
            options: BinaryTraceWriter.Options)
        case pending(sink: FileSink, header: TraceHeader, options: BinaryTraceWriter.Options)
        case ready(any EventWriter)
        /// The file could not be made: every write fails with this error.
        case failed(TraceError)
        case closed
    }

    private var state: State
    private var merger = BatchMerger()
    /// Events lost to failed writes (and to events a writer refused), in all.
    private(set) var lostToWrites = 0
    /// Losses not yet said in a `recorder.dropped` event, and when the first of them happened.
    private var unreportedLoss = 0
    private var firstLossT: Int64 = 0

    /// A writer that is made, header and all, when the first frame is written.
    static func pending(sink: FileSink, header: TraceHeader, options: BinaryTraceWriter.Options) -> RecorderOutput {
        RecorderOutput(state: .pending(sink: sink, header: header, options: options))
    }

    /// A writer whose file `create` makes, when the first write (or ``createFile()``) needs it.
    static func deferred(
        create: @escaping @Sendable () throws(TraceError) -> FileSink, header: TraceHeader,
        options: BinaryTraceWriter.Options
    ) -> RecorderOutput {
        RecorderOutput(state: .deferred(create: create, header: header, options: options))
    }

    /// A writer that already wrote its header.
    static func ready(_ writer: any EventWriter) -> RecorderOutput {
        RecorderOutput(state: .ready(writer))
    }

    /// The header as written, once the writer is made from it.
    private(set) var header: TraceHeader?

    /// The header as it stands: the one to write, or the one written; `nil` for a writer made elsewhere.
    var currentHeader: TraceHeader? {
        switch state {
        case let .pending(_, header, _), let .deferred(_, header, _): header
        default: header
        }
    }

    /// Whether ``close()`` was called: the output takes no more events.
    var isClosed: Bool {
        if case .closed = state { return true }
        return false
    }

    /// Whether events wait in the merge for the next frame.
    var isHoldingEvents: Bool { merger.isHoldingEvents }

    /// Changes the header, if it is not written yet; `false` if it is.
    mutating func updateHeader(_ change: (inout TraceHeader) -> Void) -> Bool {
        switch state {
        case .pending(let sink, var header, let options):
            change(&header)
            state = .pending(sink: sink, header: header, options: options)
        case .deferred(let create, var header, let options):
            change(&header)
            state = .deferred(create: create, header: header, options: options)
        default:
            return false
        }
        return true
    }

    /// Makes the file of a deferred output, if it is not made yet, without writing to it; a failure is kept, and
    /// every later write fails with it.
    mutating func createFile() throws(TraceError) {
        switch state {
        case let .deferred(create, header, options):
            do throws(TraceError) {
                state = .pending(sink: try create(), header: header, options: options)
            } catch {
                state = .failed(error)
                throw error
            }
        case let .failed(error):
            throw error
        default:
            return
        }
    }

    /// Writes the events of `batches` that may be written now (see ``BatchMerger``) as a frame.
    ///
    /// A write that fails loses the events it held: they are counted, said in a `recorder.dropped` event
    /// with the attribute `cause: "write-failed"` by the next write that succeeds, and recording goes on.
    mutating func write(_ batches: [RecorderState.Batch], cutoff: Int64) throws(TraceError) {
        guard
            batches.contains(where: { !$0.isEmpty }) || merger.isHoldingEvents || (cutoff == .max && unreportedLoss > 0)
        else { return }
        let writer = try open()
        let before = writer.writtenEventCount
        var failure: TraceError?
        var notice = 0
        var handed = 0
        var firstT: Int64?
        func announceLoss(at t: Int64) {
            let event = LifecycleEvent(
                t: t, kind: .recorderDropped, dur: t - firstLossT,
                attrs: [
                    Attribute(Attribute.Key.dropped, .int(Int64(unreportedLoss))),
                    Attribute(Attribute.Key.cause, .string("write-failed")),
                ])
            do throws(TraceError) {
                try writer.append(event)
                notice = 1
            } catch { failure = error }
        }
        merger.merge(batches, cutoff: cutoff) { event in
            if firstT == nil {
                firstT = event.t
                if unreportedLoss > 0 { announceLoss(at: max(event.t, firstLossT)) }
            }
            do throws(TraceError) { try writer.append(event) } catch { failure = failure ?? error }
            handed += 1
        }
        if firstT == nil, unreportedLoss > 0, cutoff == .max { announceLoss(at: max(merger.lastT, firstLossT)) }
        do throws(TraceError) { try writer.flush() } catch { failure = failure ?? error }
        let written = writer.writtenEventCount - before
        // The notice opens the first frame: if anything was written, it was.
        if notice == 1, written > 0 { unreportedLoss = 0 }
        let lost = min(handed, handed + notice - written)
        if lost > 0 {
            if unreportedLoss == 0 { firstLossT = firstT ?? merger.lastT }
            unreportedLoss += lost
            lostToWrites += lost
        }
        if let failure { throw failure }
    }

    /// Writes the header now, if it is not written yet: once nothing will change it, so that a process that dies
    /// before its first frame still leaves a trace its readers open.
    mutating func writeHeader() throws(TraceError) {
        _ = try open()
    }

    /// Writes the index (and the header, if nothing was written yet); the output takes no more events.
    mutating func close() throws(TraceError) {
        if case .closed = state { return }
        if case let .failed(error) = state {
            state = .closed
            throw error
        }
        let writer = try open()
        state = .closed
        try writer.close()
    }

    private mutating func open() throws(TraceError) -> any EventWriter {
        switch state {
        case .ready(let writer):
            return writer
        case .deferred, .failed:
            try createFile()
            return try open()
        case .pending(let sink, let header, let options):
            let writer = try BinaryTraceWriter(sink: sink, header: header, options: options)
            self.header = header
            state = .ready(writer)
            return writer
        case .closed:
            throw TraceError(.io, file: "<recorder>", at: .file, "the trace is already closed")
        }
    }
}
