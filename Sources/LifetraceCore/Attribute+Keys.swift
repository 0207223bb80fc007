/// The attribute keys lifetrace itself writes and reads: one place for each, so that a writer and a reader in
/// different modules cannot disagree on a spelling. Every key is documented in
/// `Schemas/trace-event.schema.json` (`event.attrs`).
extension Attribute {
    /// The names of the attributes lifetrace knows.
    public enum Key {
        /// `log_line`: the input line of a log capture an imported event was derived from.
        public static let logLine = "log_line"
        /// `task_id_inferred`: the importer numbered the task because the log redacted its identifier.
        public static let taskIDInferred = "task_id_inferred"
        /// `state_at_capture_start`: the state the app was in when a capture began, not a transition it shows.
        public static let stateAtCaptureStart = "state_at_capture_start"
        /// `begun_before_capture`: a task's end whose begin happened before the capture began.
        public static let begunBeforeCapture = "begun_before_capture"
        /// `lost_from_capture`: a transition whose own log line the capture lost, derived at the first line that
        /// shows it had happened (UIKit's next deactivation line, whose previous mask says so).
        public static let lostFromCapture = "lost_from_capture"
        /// `from_app_print`: on a derived callback, the app printed the callback's name itself (`print(#function)`,
        /// `NSLog(@"%s", __PRETTY_FUNCTION__)`): the event is the app's own word, not the system's.
        public static let fromAppPrint = "from_app_print"
        /// `suspension_start_unknown`: on a derived `process.suspend`, the capture lost the suspension's own line; a
        /// later resume proves the process had been suspended, so the suspension is placed at the resume, inferred.
        public static let suspensionStartUnknown = "suspension_start_unknown"
        /// `ui_state`: on `process.launch`, the state the app's UI starts in (`inactive` or `background`),
        /// where the source knows it.
        public static let uiState = "ui_state"
        /// `process_role`: the role runningboardd gave the process (macOS captures).
        public static let processRole = "process_role"
        /// `prewarmed`: on `process.launch`, the system prewarmed the process before the user opened the app.
        public static let prewarmed = "prewarmed"
        /// `dropped`: on `recorder.dropped`, how many events were lost.
        public static let dropped = "dropped"
        /// `cause`: on `recorder.dropped`, why (`write-failed`; absent when a full buffer dropped them).
        public static let cause = "cause"
        /// `success`: on `bg.refresh.end` / `bg.processing.end`, what the app passed to `setTaskCompleted(success:)`.
        public static let success = "success"
        /// `unfinished`: the handler had not returned when its event was written, so the event has no `dur`.
        public static let unfinished = "unfinished"
        /// `scene`: on `custom.launch-reason`, the scene whose connection options gave the reason.
        public static let scene = "scene"
        /// `reason`: on `custom.launch-reason`, the launch reason a scene's connection options showed after its
        /// `scene.willConnect` was written.
        public static let reason = "reason"
        /// `success_termination`: on `service.start`, what the service's group does when its `run()` returns
        /// (`cancelGroup`, `gracefullyShutdownGroup`, `ignore`).
        public static let successTermination = "success_termination"
        /// `failure_termination`: on `service.start`, what the service's group does when its `run()` throws.
        public static let failureTermination = "failure_termination"
        /// `group_index`: on `service.start`, the service's position in its group's configuration (0 for the first):
        /// its group starts the services in this order and shuts them down in reverse of it.
        public static let groupIndex = "group_index"
        /// `error`: on `service.stopped`, the error the service's `run()` threw; on a service's `process.exit`, the
        /// error its group's `run()` threw.
        public static let error = "error"
        /// `cancelled`: on `service.stopped`, the service's task had been cancelled when `run()` ended.
        public static let cancelled = "cancelled"
        /// `ran_ns`: on `service.stopped`, how long the service's `run()` ran.
        public static let ranNanoseconds = "ran_ns"
        /// `action`: on `service.signal`, what the group does on the signal (`graceful-shutdown` or `cancel`).
        public static let action = "action"

        /// Every key above.
        public static let all = [
            logLine, taskIDInferred, stateAtCaptureStart, begunBeforeCapture, lostFromCapture,
            fromAppPrint, suspensionStartUnknown, uiState, processRole, prewarmed, dropped, cause,
            success, unfinished, scene, reason, successTermination, failureTermination, groupIndex,
            error, cancelled, ranNanoseconds, action,
        ]
    }
}
