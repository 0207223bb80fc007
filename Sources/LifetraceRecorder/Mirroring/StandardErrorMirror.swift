#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
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

    init(wallStart: Int64) {
        self.wallStart = wallStart
        let image = CommandLine.arguments.first ?? "unknown"
        prefix = "{\"processID\":\(getpid()),\"processImagePath\":" + Self.quoted(image)
            + ",\"subsystem\":\"lifetrace\",\"category\":\"lifecycle\",\"timestamp\":\""
    }

    func mirror(_ event: LifecycleEvent) {
        let line = prefix + Self.utcTimestamp(wallStart + event.t) + "\",\"eventMessage\":"
            + Self.quoted(lifetraceLogMessage(event)) + "}\n"
        var bytes = Array(line.utf8)
        bytes.withUnsafeMutableBytes { raw in
            var done = 0
            while done < raw.count {
                let written = write(2, raw.baseAddress! + done, raw.count - done)
                if written < 0 {
                    if errno == EINTR { continue }
                    return  // standard error is gone: the trace file still has the event
                }
                done += written
            }
        }
    }

    /// `2026-11-23 11:20:23.123456+0000` for `ns` nanoseconds since 1970.
    static func utcTimestamp(_ ns: Int64) -> String {
        var seconds = time_t(ns.dividedFloor(by: 1_000_000_000))
        let micros = (ns - Int64(seconds) * 1_000_000_000) / 1000
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(Int(parts.tm_year) + 1900, 4))-\(pad(Int(parts.tm_mon) + 1, 2))-\(pad(Int(parts.tm_mday), 2)) "
            + "\(pad(Int(parts.tm_hour), 2)):\(pad(Int(parts.tm_min), 2)):\(pad(Int(parts.tm_sec), 2)).\(pad(Int(micros), 6))+0000"
    }

    /// `text` as a JSON string.
    static func quoted(_ text: String) -> String {
        JSONValue.string(text).jsonText
    }
}

extension Int64 {
    fileprivate func dividedFloor(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor < 0) ? quotient - 1 : quotient
    }
}
