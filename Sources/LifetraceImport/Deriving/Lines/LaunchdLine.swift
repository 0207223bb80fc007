/// launchd's lines on the end of the app's job `UIKitApplication:ID[...]`, in the subsystem column of a
/// Console copy, in parentheses after the process in an idevicesyslog capture (there it is
/// ``LogLine/subsystem`` too), or in the message.
enum LaunchdLine {
    /// The exit launchd logs for `bundle`'s job, if `entry` is one.
    static func observe(_ entry: LogLine, bundle: String) -> SystemObservation? {
        reason(entry, bundle: bundle).map { SystemObservation(.exited(reason: $0)) }
    }

    /// The exit reason: the signal (`SIGPIPE`, `SIGKILL`), or `exit-code-N`.
    ///
    /// - `exited due to SIGPIPE | sent by Roam[1758], ran for 4930203ms` (iOS 18);
    /// - `exited with exit code: 0`;
    /// - `Service exited due to signal: Killed: 9` (iOS 8: the signal's description and number);
    /// - `Service exited with abnormal code: 1` (iOS 8).
    static func reason(_ entry: LogLine, bundle: String) -> String? {
        let job = "UIKitApplication:" + bundle + "["
        let message = entry.message
        guard message.contains(job) || entry.subsystem?.contains(job) == true else { return nil }
        if let range = UTF8Search.range(of: "exited due to signal: ", in: message) {
            let number = message[range.upperBound...].split(separator: ":").last
                .flatMap { Int64($0.trimmingPrefix(" ").prefix { $0.isNumber }) }
            return number.map(SystemObservation.signalName) ?? "signal"
        }
        if let range = UTF8Search.range(of: "exited due to ", in: message) {
            let signal = UTF8Search.prefix(message, from: range.upperBound) {
                $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "|") || $0 == UInt8(ascii: ",")
            }
            return signal.isEmpty ? nil : String(signal)
        }
        if let range = UTF8Search.range(of: "exited with exit code: ", in: message)
            ?? UTF8Search.range(of: "exited with abnormal code: ", in: message),
            let code = UTF8Search.integer(message, at: range.upperBound)
        {
            return "exit-code-\(code)"
        }
        return nil
    }
}
