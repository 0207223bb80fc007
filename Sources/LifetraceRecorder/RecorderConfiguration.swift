import LifetraceCore
public import LifetraceFormat

/// How a ``Recorder`` buffers, flushes and what it does when its buffer is full.
public struct RecorderConfiguration: Sendable {
    /// What `record` does when the buffer holds ``bufferCapacity`` events.
    public enum OverflowPolicy: Sendable {
        /// The recording thread writes the buffer out itself: nothing is lost, but that call blocks on I/O.
        case block
        /// The event is dropped and counted; the next event recorded is preceded by a `recorder.dropped`
        /// event saying how many were lost and over what time, so lost data never looks like suspension.
        case drop
    }

    /// Where a recorder also writes each event, as a `lifetrace ev=...` log line that `lifetrace import`
    /// reads exactly: the way to get a trace out of an app with no file to copy.
    public enum LogMirror: Sendable {
        /// Nowhere: only the trace file.
        case none
        /// Standard error, one `log stream --style ndjson` object per event:
        /// `app 2>&1 | lifetrace import --live -o run.lifetrace --process app`.
        case standardError
        /// The unified log through `os.Logger` (subsystem `lifetrace`, category `lifecycle`) on Apple
        /// platforms: `log stream --style ndjson | lifetrace import --live ...`; standard error elsewhere.
        case unifiedLog
        /// Standard output, as lifetrace JSON Lines: a header line, then one line per event, so that
        /// `lifetrace record -o run.lifetrace -- service` records what the process records, the trace written by
        /// the process that outlives it (a service killed with SIGKILL loses nothing it had printed).
        case standardOutputJSONLines

        /// The mirror `LIFETRACE_MIRROR` asks for (``Recorder/EnvironmentKey/mirror``): `unified-log`, `stderr`
        /// or `stdout`; `nil` for anything else.
        package init?(environmentValue: String?) {
            switch environmentValue {
            case "unified-log": self = .unifiedLog
            case "stderr": self = .standardError
            case "stdout": self = .standardOutputJSONLines
            default: return nil
            }
        }

        /// - Parameter header: the trace's header, for a mirror that writes one.
        func makeMirror(
            wallStart: Int64, header: @autoclosure () -> TraceHeader,
            output: (@Sendable ([UInt8]) -> Void)?
        ) -> (any EventMirror)? {
            let standardError =
                output ?? { bytes in bytes.withUnsafeBytes { SystemInterface.writeToStandardError($0) } }
            switch self {
            case .none: return nil
            case .standardOutputJSONLines:
                let standardOutput =
                    output ?? { bytes in bytes.withUnsafeBytes { SystemInterface.writeToStandardOutput($0) } }
                return JSONLinesMirror(header: header(), output: standardOutput)
            case .standardError: return StandardErrorMirror(wallStart: wallStart, output: standardError)
            case .unifiedLog:
                #if canImport(os)
                return UnifiedLogMirror()
                #else
                return StandardErrorMirror(wallStart: wallStart, output: standardError)
                #endif
            }
        }
    }

    /// The shortest flush or heartbeat interval a recorder keeps to (1 ms).
    static let minimumTick: Int64 = 1_000_000

    /// How often buffered events are written as a frame. A process killed with SIGKILL loses at most the
    /// events of the last interval.
    public var flushInterval: Duration
    /// If set, a `heartbeat` event is recorded at this interval while the process runs.
    public var heartbeatInterval: Duration?
    /// The number of events buffered between flushes, across all recording threads.
    public var bufferCapacity: Int
    /// What to do when the buffer is full.
    public var overflowPolicy: OverflowPolicy
    /// How long a measured callback's event may wait in the buffer for its duration. A span's event is written
    /// at its start position, so the events after it wait with it; at a flush, a span open longer than this is
    /// written without `dur` and with the attribute `unfinished: true`, and its duration follows in a
    /// `handler.return` event when the handler returns. With the default, zero, no flush waits for a handler:
    /// a process killed inside a handler that never returns still leaves the callback, begun and not ended,
    /// and everything before the last flush in the trace. The writes made before the process may be suspended
    /// (resigning active, entering the background, a background task's end) wait for no span, whatever this is.
    public var maxSpanHold: Duration
    /// Framing and compression of the trace: stored frames, with no C library, by default.
    public var writerOptions: BinaryTraceWriter.Options
    /// Where each event is also written as a log line.
    public var mirror: LogMirror
    /// Where the standard-error mirror's lines go instead of standard error: for tests.
    package var mirrorOutput: (@Sendable ([UInt8]) -> Void)?

    /// Creates a configuration: by default a 1 s flush interval, no heartbeat, 64 Ki events of buffer,
    /// blocking on overflow, no span hold, stored frames and no log mirror.
    public init(
        flushInterval: Duration = .seconds(1),
        heartbeatInterval: Duration? = nil,
        bufferCapacity: Int = 1 << 16,
        overflowPolicy: OverflowPolicy = .block,
        maxSpanHold: Duration = .zero,
        writerOptions: BinaryTraceWriter.Options = .init(),
        mirror: LogMirror = .none
    ) {
        self.mirror = mirror
        self.flushInterval = flushInterval
        self.heartbeatInterval = heartbeatInterval
        self.bufferCapacity = max(bufferCapacity, 16)
        self.overflowPolicy = overflowPolicy
        self.maxSpanHold = maxSpanHold
        self.writerOptions = writerOptions
    }
}

extension Duration {
    /// The duration in whole nanoseconds.
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
