import Foundation
package import LifetraceCore
package import LifetraceFormat
package import LifetraceRecorder
import LifetraceZstd

/// One run of `lifetrace record`: JSON Lines taken line by line, decoded, and recorded into a crash-safe trace
/// through a recorder opened once the header is known; lines that are not lifecycle data passed back to be
/// printed, lines that do not decode counted with the first one's error.
///
/// Lines from several producers interleave in one pipe, so an event whose time is before the last one's is
/// recorded with its time raised to it, as the recorder does, and counted. ``close()`` may be called from a
/// signal handler's queue while ``take(_:)`` runs on another thread.
package final class RecordSession: @unchecked Sendable {
    /// What a run came to, in the one line `record` prints on standard error.
    package enum Summary: Sendable, Equatable {
        /// Every line was recorded and the trace closed: the note `OUT: recorded N events`.
        case complete(String)
        /// Lines were rejected, events lost or the trace not closed: the error, with the count and the first of
        /// the lines rejected and of the events lost, then what was recorded.
        case incomplete(String)
    }

    private let output: String
    /// The output file, created before the run starts; the trace is written into it once its header is known.
    private let sink: FileSink
    private let app: String?
    /// Completes the header the stream gives (or the default one) with the run's metadata.
    private let completeHeader: @Sendable (TraceHeader) -> TraceHeader
    private let strict: Bool
    private let configuration: RecorderConfiguration
    private var decoder: JSONLinesLineDecoder
    private let recorder = LazyRecorder()
    /// Guards the counts, which the summary reads after the signal queue may have closed the trace.
    private let lock = NSLock()
    private var rejectedLines = 0
    /// The first line rejected, as its error says it.
    private var firstRejection: String?
    private var events = 0
    /// Events whose time was before the last one's, recorded with it raised.
    private var raised = 0
    /// The latest time recorded so far.
    private var lastT = Int64.min

    /// A session writing into `sink`, the file at `output`.
    ///
    /// - Parameters:
    ///   - app: the app's bundle identifier, for the header when the stream has none.
    ///   - strict: whether lines that are not lifetrace JSON are rejected rather than passed through.
    ///   - completeHeader: sets the run's metadata on the header before the trace is opened.
    package init(
        output: String, sink: FileSink, app: String?, strict: Bool, configuration: RecorderConfiguration,
        completeHeader: @escaping @Sendable (TraceHeader) -> TraceHeader = { $0 }
    ) {
        self.output = output
        self.sink = sink
        self.app = app
        self.completeHeader = completeHeader
        self.strict = strict
        self.configuration = configuration
        self.decoder = JSONLinesLineDecoder(file: "-")
        // Lines from several producers interleave: a time that goes back is raised, as the recorder does.
        self.decoder.requiresTimeOrder = false
        // A test runner prints its own lines before the app's header: they pass through, counted as blank lines.
        self.decoder.headerMayFollowBlankLines = true
    }

    /// Takes one input line (without its newline); returns the line to pass through, if it is not lifecycle data
    /// and the session is not strict.
    package func take(_ line: UnsafeBufferPointer<UInt8>) throws -> String? {
        let first = line.first { $0 != 0x20 && $0 != 0x09 }
        guard first == UInt8(ascii: "{") else {
            if strict, first != nil { reject("-:\(decoder.lineNumber + 1): not a lifetrace JSON line") }
            // Keep line numbers in step with the input.
            _ = try? decoder.decode(UnsafeBufferPointer(start: nil, count: 0))
            return strict ? nil : String(decoding: line, as: UTF8.self)
        }
        do {
            switch try decoder.decode(line) {
            case let .header(header): try open(header)
            case let .event(event):
                try open(nil)
                // Refused here, with its line, rather than dropped by the recorder and counted as lost.
                if let problem = Recorder.sizeProblem(of: event) {
                    reject("-:\(decoder.lineNumber): \(problem)")
                } else if recorder.record(event) {
                    lock.withLock {
                        events += 1
                        if event.t < lastT { raised += 1 } else { lastT = event.t }
                    }
                }
            case .blank: break
            }
        } catch let error as TraceError {
            reject(error.description)
        }
        return nil
    }

    /// Counts a rejected line, keeping what the first one's error said.
    private func reject(_ description: String) {
        lock.withLock {
            rejectedLines += 1
            if firstRejection == nil { firstRejection = description }
        }
    }

    private func open(_ header: TraceHeader?) throws {
        try recorder.open {
            let header = completeHeader(header ?? TraceHeader(clock: .monotonic, app: app))
            let writer = try BinaryTraceWriter(sink: sink, header: header, options: .zstd)
            return Recorder(writer: writer, configuration: configuration)
        }
    }

    /// Writes the last frame and the index (an empty trace if no line opened one); safe to call more than
    /// once and from a signal handler's queue.
    package func close() throws {
        try open(nil)
        try recorder.close()
    }

    /// ``close()``, with the error it met, if any, returned for the summary rather than thrown.
    package func closeReportingError() -> (any Error)? {
        do {
            try close()
            return nil
        } catch {
            return error
        }
    }

    /// What was recorded: a note when everything was, else one error line with the count and the first of the
    /// lines rejected and of the events the trace lost, and `closeError`, the error closing met.
    package func summary(closeError: (any Error)?) -> Summary {
        let (events, rejected, first, raised) = lock.withLock {
            (self.events, rejectedLines, firstRejection, self.raised)
        }
        let lost = recorder.droppedEventCount
        var recorded = "recorded \(Plural.count(events, "event"))"
        if raised > 0 { recorded += " (\(raised) whose t was before the last one's, raised to it)" }
        var problems: [String] = []
        if rejected > 0, let first {
            problems.append("\(first) (\(Plural.count(rejected, "line")) rejected in all)")
        }
        if lost > 0 {
            problems.append(
                "\(output): \(lost) of the \(Plural.count(events, "event")) lost: the trace could not be written"
                    + " (its recorder.dropped events say when)")
        }
        if let closeError {
            let description = (closeError as? TraceError)?.description ?? "\(output): \(closeError)"
            problems.append(description)
        }
        guard problems.isEmpty else {
            return .incomplete(problems.joined(separator: "; ") + "; \(output): " + recorded)
        }
        return .complete("\(output): " + recorded)
    }
}
