#if canImport(os)
import os
import LifetraceCore

/// Writes each event to the unified log with `os.Logger` (subsystem `lifetrace`, category `lifecycle`), as a
/// public `lifetrace ev=...` message: `log stream --style ndjson` from a Mac, or `simctl spawn UDID log
/// stream` for a simulator, piped to `lifetrace import --live`, records the same events with no file to copy.
struct UnifiedLogMirror: EventMirror {
    private let logger = Logger(subsystem: "lifetrace", category: "lifecycle")

    func mirror(_ event: LifecycleEvent) {
        let message = lifetraceLogMessage(event)
        logger.log("\(message, privacy: .public)")
    }
}
#endif
