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
        systemPID.map { "\(title) (pid \($0))" } ?? title
    }

    /// Labels viewers show beside the name: why it launched, its system pid.
    var labels: [String] {
        let origin: String
        switch self.origin {
        case let .launched(reason): origin = "launch: " + (reason ?? "unknown")
        case .running: origin = "running when the trace began"
        case .none: return []
        }
        // One array made at its size, not grown label by label.
        return systemPID.map { [origin, "pid \($0)"] } ?? [origin]
    }
}
