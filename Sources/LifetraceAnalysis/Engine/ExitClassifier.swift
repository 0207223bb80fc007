import LifetraceCore

/// How a process ended, decided from what the trace showed of it: the first rule below that applies.
///
/// 1. `applicationWillTerminate` ran: a clean termination.
/// 2. The trace stops with the process alive (or suspended): the trace ended, whatever was open then — a
///    background task, a handler that had not returned. Nothing in the trace shows the process ended: its
///    events go on to the trace's end. (A log capture stops wherever it was cut; a recording, wherever it was
///    stopped.)
/// 3. The exit's reason (`process.exit`'s, as a log capture derives it) is a crash — an uncaught exception, an
///    abort, a signal a fault raises — or the kernel's memory-pressure kill (jetsam): crashed, or killed by
///    jetsam, whatever it left open; the crash ended its tasks, but what was due before it is still reported.
///    The reason `exit` or `error`, which a process records itself as it ends (LifetraceServiceLifecycle does when
///    its service group's run returns or throws): exited, or exited with an error.
/// 4. A background task was open: killed with it. That is how the process ended, not a finding: a task is reported
///    only where the trace shows its deadline passing (``TaskTracker/close(at:limits:reports:)``), and the basis
///    says when it does not (a UI test's `terminate()`, a SIGKILL, while the task was young).
/// 5. `didEnterBackground` overran its budget — its duration, or, for a handler written unfinished that never
///    returned, the time its process's later events show it still running — and nothing followed: killed in
///    that handler.
/// 6. It was suspended (or idle in the background before the next launch): terminated while suspended.
/// 7. Its last state was foreground: ended in the foreground (what a crash looks like).
/// 8. Otherwise it ended running in the background.
enum ExitClassifier {
    /// What the trace showed of the process when it ended.
    struct Facts: Equatable {
        /// `applicationWillTerminate` ran.
        var terminated = false
        /// The trace was derived from a log capture.
        var derived = false
        /// A new launch ended it (rather than the trace's end or an observed exit).
        var nextLaunch = false
        /// The trace holds the exit itself (`process.exit`).
        var exitObserved = false
        /// A background task was open; one had expired.
        var openTask = false
        var expiredTask = false
        /// The open tasks no finding was reported for: their deadline had not passed when the process stopped.
        var leftOpen = TaskTracker.OpenAtStop()
        /// `didEnterBackground` overran its budget.
        var handlerOverrun = false
        /// The overrun is that of a handler written unfinished whose `handler.return` never came: known from
        /// the events its process wrote after it.
        var overrunUnreturned = false
        /// What the exit's reason says ended the process, if it says (``cause(ofExitReason:)``).
        var exitCause: ExitCause?
        /// Suspended at the end, or idle in the background before the next launch.
        var suspended = false
        /// Where the UI was last.
        var ui: ActivationState = .unattached
    }

    /// What an exit's reason says ended a process.
    enum ExitCause: Equatable {
        /// A crash: the reason as the trace gives it.
        case crash(String)
        /// The kernel's memory-pressure kill: the reason as the trace gives it.
        case jetsam(String)
        /// The process's own exit, its work done (reason `exit`).
        case exit
        /// The process's own exit, its work failed (reason `error`).
        case error
    }

    /// The signals a fault in the process raises (or its own abort): a process they end crashed. `SIGKILL` and
    /// `SIGTERM` are not among them: the system sends them to end a process it decided to end (a watchdog, a
    /// background task's expiry, a termination assertion).
    static let crashSignals: Set<String> = [
        "SIGABRT", "SIGSEGV", "SIGBUS", "SIGILL", "SIGTRAP", "SIGFPE", "SIGSYS", "SIGPIPE",
    ]

    /// What the `process.exit` reason `reason` says ended the process (the reasons `lifetrace import` derives:
    /// `Schemas/oslog-mapping.md`): `uncaught-exception` and `abort` (the app's own crash lines), `crash-report`
    /// (ReportCrash wrote one for the process) and ``crashSignals`` are crashes, `jetsam` and `jetsam-CAUSE` the
    /// kernel's memory-pressure kill, `exit` and `error` the process's own end as it records it (or, for `exit`, as
    /// SpringBoard saw it: `exited voluntarily`; `Schemas/trace-event.schema.json`); any other reason (`SIGKILL`,
    /// `exit-code-N`, `terminated`, `app-installation`) says nothing of why.
    static func cause(ofExitReason reason: String) -> ExitCause? {
        if ["uncaught-exception", "abort", "crash-report"].contains(reason) || crashSignals.contains(reason) {
            return .crash(reason)
        }
        if reason == "jetsam" || reason.hasPrefix("jetsam-") { return .jetsam(reason) }
        if reason == "exit" { return .exit }
        if reason == "error" { return .error }
        return nil
    }

    /// The tasks a process left open without a finding, as a basis names them: "1 background task open for 2.00s,
    /// its deadline not shown passing (not a finding)"; empty for none.
    static func unjudged(_ left: TaskTracker.OpenAtStop) -> String {
        guard left.count > 0, let youngest = left.youngest else { return "" }
        return left.count == 1
            ? "1 background task open for \(Nanoseconds.short(youngest)), its deadline not shown passing (not a finding)"
            : "\(left.count) background tasks open, the youngest for \(Nanoseconds.short(youngest)), their deadlines not shown passing (not a finding)"
    }

    /// `basis`, then the tasks left open without a finding, if any.
    private static func with(_ basis: String, _ left: TaskTracker.OpenAtStop) -> String {
        left.count > 0 ? basis + ", with " + unjudged(left) : basis
    }

    /// The kind of end, and why.
    static func classify(_ facts: Facts) -> (end: ProcessEnd, basis: String) {
        if facts.terminated {
            return (.cleanTerminate, "applicationWillTerminate ran")
        } else if !facts.nextLaunch, !facts.exitObserved {
            // Alive at the trace's end: what was open then (a task, a handler) is not known to have killed it.
            return (
                .traceEnded,
                facts.derived
                    ? "the capture ends while the process is alive or suspended"
                    : "the trace ends while the process is alive or suspended"
            )
        } else if let cause = facts.exitCause, facts.exitObserved {
            switch cause {
            case let .crash(reason):
                return (.crashed, with("the process exited with \(reason), a crash", facts.leftOpen))
            case let .jetsam(reason):
                return (.killedByJetsam, with("the kernel killed the process for memory (\(reason))", facts.leftOpen))
            case .exit:
                return (
                    .exited,
                    facts.derived
                        ? "the system's log shows the process exiting on its own"
                        : "the process recorded its own exit: its work returned"
                )
            case .error: return (.exitedWithError, "the process recorded its own exit: its work ended with an error")
            }
        } else if facts.openTask {
            if facts.leftOpen.count > 0, !facts.expiredTask {
                return (.killedWithBackgroundTask, "ended with " + unjudged(facts.leftOpen))
            }
            return (
                .killedWithBackgroundTask,
                facts.expiredTask
                    ? "a background task had expired without being ended" : "a background task was still open"
            )
        } else if facts.handlerOverrun {
            return (
                .killedInBackgroundHandler,
                facts.overrunUnreturned
                    ? "a didEnterBackground handler written unfinished was still running past its budget at its process's last event, and never returned"
                    : "didEnterBackground overran its budget and nothing followed"
            )
        } else if facts.suspended {
            return (.terminatedWhileSuspended, "suspended, then the process ended without a callback")
        } else if facts.ui == .active || facts.ui == .inactive {
            return (.endedInForeground, "the last state was foreground and no callback announced the end")
        } else {
            return (.endedInBackground, "running in the background, no callback announced the end")
        }
    }
}
