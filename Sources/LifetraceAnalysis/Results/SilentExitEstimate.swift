import LifetraceCore

/// How the suspended total accounts for processes that ended silently while suspended.
///
/// iOS ends a suspended app without a callback (Apple, “Managing your app’s life cycle”): the trace shows the app suspended and, later, a new
/// launch, but not when the old process died. Each such interval is an upper bound of the time suspended; the
/// rest of it the app was not running. lifetrace estimates that rest from the trace itself: after a process
/// that announced its end (`applicationWillTerminate`), the time to the next launch is time not running, and
/// when the next launch comes does not depend on how the previous process ended. The suspended total
/// subtracts the mean of those observed gaps once per silent exit.
public struct SilentExitEstimate: Sendable, Hashable {
    /// Processes that ended silently while suspended (inferred, not logged by the system).
    public var exits: Int
    /// The length of their final intervals, from the last sign of life to the next launch (ns).
    public var intervals: Int64
    /// Observed gaps from a process's announced end to the next launch.
    public var relaunches: Int
    /// Their total length (ns).
    public var relaunchGaps: Int64

    /// The mean time not running before a launch (ns), when a gap was observed.
    public var notRunningMean: Int64? {
        relaunches > 0 ? relaunchGaps / Int64(relaunches) : nil
    }

    /// The time to subtract from the intervals to estimate the time suspended (ns): the mean time not
    /// running once per silent exit, at most the intervals themselves; zero when no gap was observed.
    public var notRunning: Int64 {
        guard let mean = notRunningMean else { return 0 }
        return min(intervals, mean * Int64(exits))
    }
}

extension SilentExitEstimate {
    /// One sentence for reports on how the suspended total treats silent exits; `nil` when there were none.
    public var explanation: String? {
        guard exits > 0 else { return nil }
        let processes = Plural.count(exits, "process")
        guard let mean = notRunningMean else {
            return "\(processes) ended while suspended, at unknown times: counted suspended until the next launch "
                + "(no relaunch after applicationWillTerminate to estimate the time not running from)"
        }
        return "\(processes) ended while suspended, at unknown times: the total excludes an estimated "
            + "\(Nanoseconds.short(mean)) not running before each next launch, the mean of "
            + "\(Plural.count(relaunches, "relaunch")) after applicationWillTerminate"
    }
}
