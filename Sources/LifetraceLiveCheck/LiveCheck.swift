public import LifetraceAnalysis
public import LifetraceRecorder

/// The lifecycle rules checked while the app runs, in debug builds: each finding reported the moment the
/// recorded events prove it, a deadline (a `didEnterBackground` handler past its five seconds) while the handler
/// still runs.
///
/// ```swift
/// let recorder = Recorder.start()
/// LiveCheck.start(recorder: recorder)          // debug builds only; nothing in release
/// ```
///
/// Compiled out entirely in a release build (`DEBUG` not set): ``start(recorder:reporter:configuration:)`` then
/// returns `nil` and makes no thread, no timer, no buffer.
public enum LiveCheck {
    /// How often the checker tells the analysis the time, so that a deadline is found with no new event.
    public static let tick: Duration = .milliseconds(50)

    /// The most events waiting for the checker; past it, an event is dropped and counted, never waited for.
    public static let capacity = 4096

    /// Checks what `recorder` records from now on, reporting each finding to `reporter`: the events go to a
    /// queue of the checker's own through a bounded hand-off (the recording thread never waits), and a timer on
    /// that queue finds the deadlines that pass.
    ///
    /// - Parameter reporter: by default, standard error (``StandardErrorReporter``) and, on Apple platforms,
    ///   Xcode's runtime issues (``RuntimeIssueReporter``).
    /// - Returns: the running check, to drain or stop; `nil` in a release build.
    @discardableResult
    public static func start(
        recorder: Recorder, reporter: (any LiveCheckReporter)? = nil,
        configuration: AnalysisConfiguration = .defaults
    ) -> Session? {
        #if DEBUG
        return Session(
            checker: LiveChecker(
                recorder: recorder, reporter: reporter ?? defaultReporter,
                configuration: configuration))
        #else
        return nil
        #endif
    }

    /// Standard error everywhere, and Xcode's runtime issues where there is an Xcode.
    static var defaultReporter: any LiveCheckReporter {
        #if canImport(os)
        CombinedReporter([StandardErrorReporter(), RuntimeIssueReporter()])
        #else
        StandardErrorReporter()
        #endif
    }

    /// A running live check.
    public final class Session: Sendable {
        #if DEBUG
        let checker: LiveChecker

        init(checker: LiveChecker) {
            self.checker = checker
        }
        #endif

        /// Waits until the checker has read every event recorded before the call and judged the deadlines
        /// passed by then; its findings are reported before it returns.
        public func drain() {
            #if DEBUG
            checker.drain()
            #endif
        }

        /// Drains, stops the check and ends its analysis, reporting what the end of the recording proves (an
        /// open task past its deadline). Events recorded after it are not checked. Safe to call more than once.
        public func stop() {
            #if DEBUG
            checker.stop()
            #endif
        }

        /// The events dropped so far because the hand-off was full.
        public var droppedEventCount: Int {
            #if DEBUG
            checker.droppedEventCount
            #else
            0
            #endif
        }
    }
}
