#if canImport(os)
import os
#endif

/// Where the recorder says what went wrong when no caller can hear it (a trace file that cannot be created
/// at start-up from the environment, a write that failed in the background): the unified log on Apple
/// platforms (subsystem `lifetrace`, category `recorder`, visible in Console and `log stream`), standard
/// error elsewhere.
enum RecorderDiagnostics {
    /// Says `message`.
    static func report(_ message: String) {
        #if canImport(os)
        Logger(subsystem: "lifetrace", category: "recorder").error("\(message, privacy: .public)")
        #else
        let line = Array("lifetrace recorder: \(message)\n".utf8)
        line.withUnsafeBytes { SystemInterface.writeToStandardError($0) }
        #endif
    }
}
