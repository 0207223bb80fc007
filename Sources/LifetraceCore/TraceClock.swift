/// The clock a trace's timestamps were taken on.
public enum TraceClock: String, CaseIterable, Hashable, Sendable {
    /// Keeps counting while the device sleeps (`CLOCK_BOOTTIME`, `mach_continuous_time`).
    case continuous
    /// Stops while the device sleeps (`CLOCK_MONOTONIC` on Linux, `mach_absolute_time`).
    case monotonic
    /// Wall-clock time, which may jump.
    case wall
}
