/// The lines a crashing app writes itself (to the unified log, or to Xcode's console, where they may continue
/// another entry's message):
///
/// - `*** Terminating app due to uncaught exception 'NSInvalidArgumentException', reason: ...` (Foundation,
///   from the uncaught-exception handler), and
/// - `libc++abi: terminating due to uncaught exception of type NSException` (`libc++abi.dylib: terminating
///   with uncaught exception of type ...` before iOS 15), as the C++ runtime aborts;
///
/// and the line Xcode's debugger writes to the console as the process it runs ends on a signal, `Message from
/// debugger: Terminated due to signal 9`, which has no time and no entry of its own (it continues the run's last
/// entry).
enum AppCrashLine {
    /// Xcode's debugger's line as the debugged process ends on a signal: the signal's number follows.
    static let debuggerTermination: StaticString = "Message from debugger: Terminated due to signal "

    /// The exit reason a crash line of the app's gives: `uncaught-exception`, or `abort` for a `libc++abi`
    /// termination that names no exception.
    static func reason(_ message: String) -> String? {
        // Every line of the app passes here: its first byte decides, and only a message of several lines is
        // searched.
        let utf8 = message.utf8
        guard let first = utf8.first else { return nil }
        let multiline = UTF8Search.range(of: "\n", in: message) != nil  // memchr
        guard first == UInt8(ascii: "*") || first == UInt8(ascii: "l") || multiline else { return nil }
        if lineStarts(message, "*** Terminating app due to uncaught exception") { return "uncaught-exception" }
        if libcxxabiTerminates(message) {
            return UTF8Search.range(of: "uncaught exception", in: message) != nil ? "uncaught-exception" : "abort"
        }
        if multiline, let end = lineStart(message, debuggerTermination),
            let signal = UTF8Search.integer(message, at: end)
        {
            // The signal's name, as launchd's lines give it (`SIGKILL`).
            return SystemObservation.signalName(signal)
        }
        return nil
    }

    /// Whether a line of `message` starts `libc++abi: terminating` or `libc++abi.dylib: terminating`, found
    /// by its `++abi` (a `+` is rare in messages; an `l` is not).
    private static func libcxxabiTerminates(_ message: String) -> Bool {
        let utf8 = message.utf8
        var from = utf8.startIndex
        while let found = UTF8Search.range(of: "++abi", in: message, from: from) {
            from = found.upperBound
            guard utf8.distance(from: utf8.startIndex, to: found.lowerBound) >= 4 else { continue }
            let start = utf8.index(found.lowerBound, offsetBy: -4)
            guard utf8[start..<found.lowerBound].elementsEqual("libc".utf8),
                start == utf8.startIndex || utf8[utf8.index(before: start)] == UInt8(ascii: "\n")
            else { continue }
            let rest = utf8[found.upperBound...]
            if rest.starts(with: ": terminating".utf8) || rest.starts(with: ".dylib: terminating".utf8) { return true }
        }
        return false
    }

    /// Whether `message`, or one of its continuation lines, starts with `prefix`.
    private static func lineStarts(_ message: String, _ prefix: StaticString) -> Bool {
        lineStart(message, prefix) != nil
    }

    /// Where `prefix` ends in the first line of `message` (or of its continuation lines) that starts with it.
    private static func lineStart(_ message: String, _ prefix: StaticString) -> String.Index? {
        let utf8 = message.utf8
        var from = utf8.startIndex
        while let found = UTF8Search.range(of: prefix, in: message, from: from) {
            if found.lowerBound == utf8.startIndex || utf8[utf8.index(before: found.lowerBound)] == UInt8(ascii: "\n") {
                return found.upperBound
            }
            from = found.upperBound
        }
        return nil
    }
}
