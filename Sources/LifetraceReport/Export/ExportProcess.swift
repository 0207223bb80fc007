import LifetraceFormat

/// A traced process as an export shows it. Its name and labels are spelled by the encoder that writes them
/// (``name``, ``labels``), from what the exporter knew when the process started: a trace of thousands of short
/// processes builds no string for them on the reading thread.
struct ExportProcess: Sendable, Hashable {
    /// How a process came to be in the trace, for its labels.
    enum Origin: Sendable, Hashable {
        /// It launched (`process.launch`), for the reason given, if any.
        case launched(reason: String?)
        /// It was running when the trace (or capture) began.
        case running
        /// A process of the export's own, with no label.
        case none
    }

    /// Perfetto's uuid of the process's own track.
    var uuid: UInt64
    /// The process's number in the export, from 1 (pids may repeat across a trace; these do not).
    var pid: Int32
    /// What it is named after: the app, or the export's own process's title.
    var title: String
    /// The system's pid, where the trace has it.
    var systemPID: Int64?
    /// How it came to be in the trace.
    var origin: Origin
    /// When it started (ns, the trace's clock).
    var start: Int64

    /// The name viewers show: the title and, where the trace has it, the system's pid.
    var name: String {
        var bytes: [UInt8] = []
        appendName(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Labels viewers show beside the name: why it launched, its system pid.
    var labels: [String] {
        (0..<labelCount).map { position in
            var bytes: [UInt8] = []
            appendLabel(position, to: &bytes)
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    /// Appends the UTF-8 bytes of ``name`` to `output`: what the encoders write for each of a trace's thousands of
    /// processes, with no string made.
    func appendName<Output: ByteAppending>(to output: inout Output) {
        output.appendUTF8(title)
        guard let systemPID else { return }
        output.appendLiteral(" (pid ")
        output.appendDecimal(systemPID)
        output.append(UInt8(ascii: ")"))
    }

    /// How many ``labels`` it has.
    var labelCount: Int {
        switch origin {
        case .launched, .running: systemPID == nil ? 1 : 2
        case .none: 0
        }
    }

    /// Appends the UTF-8 bytes of the label at `position` (below ``labelCount``) to `output`, as ``appendName(to:)``.
    func appendLabel<Output: ByteAppending>(_ position: Int, to output: inout Output) {
        if position == 1, let systemPID {
            output.appendLiteral("pid ")
            output.appendDecimal(systemPID)
            return
        }
        switch origin {
        case let .launched(reason):
            output.appendLiteral("launch: ")
            if let reason { output.appendUTF8(reason) } else { output.appendLiteral("unknown") }
        case .running: output.appendLiteral("running when the trace began")
        case .none: break
        }
    }
}
