/// ReportCrash's lines as it writes a crash report for a process: the process crashed (the report, not the log,
/// says how).
///
/// - `Formulating crash report for process NAME[PID]` (iOS, before the unified log);
/// - `Saved crash report for NAME[PID] version ...` (macOS's system.log);
/// - `Formulating fatal 309 report for corpse[PID] NAME` (macOS, the unified log).
enum ReportCrashLine {
    /// The pid and name of the process whose crash report `message` is about.
    static func crashed(_ message: String) -> (pid: Int64, name: Substring)? {
        if let marker = UTF8Search.range(of: "report for corpse[", in: message), message.hasPrefix("Formulating ") {
            guard let pid = UTF8Search.integer(message, at: marker.upperBound) else { return nil }
            let rest = message[marker.upperBound...].drop { $0 != "]" }.dropFirst()
            return (pid, rest.drop { $0 == " " })
        }
        let prefix: Substring
        if message.hasPrefix("Formulating crash report for process ") {
            prefix = message.dropFirst("Formulating crash report for process ".count)
        } else if message.hasPrefix("Saved crash report for ") {
            prefix = message.dropFirst("Saved crash report for ".count)
        } else {
            return nil
        }
        // `NAME[PID]`, the name possibly with spaces: the last `[` before the first `]`.
        guard let close = prefix.firstIndex(of: "]"), let open = prefix[..<close].lastIndex(of: "["),
            let pid = Int64(prefix[prefix.index(after: open)..<close])
        else { return nil }
        return (pid, prefix[..<open])
    }
}
