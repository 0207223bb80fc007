import LifetraceCore
import LifetraceFormat

/// Writes each event to standard error as one object of `log stream --style ndjson`, so that
/// `app 2>&1 | lifetrace import --live -o run.lifetrace --process NAME` records what the app recorded, with
/// no file to copy: `timestamp` (UTC, microseconds), `processID`, `processImagePath`, `subsystem`
/// `lifetrace`, `category` `lifecycle` and the `eventMessage`.
struct StandardErrorMirror: EventMirror {
    /// The wall-clock time of the trace's `t = 0`, in nanoseconds since 1970.
    let wallStart: Int64
    private let prefix: String
    private let output: @Sendable ([UInt8]) -> Void

    /// - Parameter output: where the lines go: standard error, but for tests.
    init(wallStart: Int64, output: @escaping @Sendable ([UInt8]) -> Void) {
        self.wallStart = wallStart
        self.output = output
        let image = CommandLine.arguments.first ?? "unknown"
        prefix =
            "{\"processID\":\(SystemInterface.processID()),\"processImagePath\":" + Self.quoted(image)
            + ",\"subsystem\":\"lifetrace\",\"category\":\"lifecycle\",\"timestamp\":\""
    }

    func mirror(_ event: LifecycleEvent) {
        let line =
            prefix + Self.utcTimestamp(wallStart + event.t) + "\",\"eventMessage\":"
            + Self.quoted(lifetraceLogMessage(event)) + "}\n"
        // If standard error is gone, the trace file still has the event.
        output(Array(line.utf8))
    }

    /// `2026-11-23 11:20:23.123456+0000` for `ns` nanoseconds since 1970.
    static func utcTimestamp(_ ns: Int64) -> String {
        let time = CivilTime(unixNanoseconds: ns)
        let pad = CivilTime.padded
        return "\(pad(time.year, 4))-\(pad(time.month, 2))-\(pad(time.day, 2)) "
            + "\(pad(time.hour, 2)):\(pad(time.minute, 2)):\(pad(time.second, 2)).\(pad(time.nanosecond / 1000, 6))+0000"
    }

    /// `text` as a JSON string.
    static func quoted(_ text: String) -> String {
        JSONValue.string(text).jsonText
    }
}
