public import LifetraceCore

extension TraceClock {
    /// The current reading of this clock in nanoseconds.
    ///
    /// `continuous` keeps counting while the device sleeps (`CLOCK_BOOTTIME` on Linux, `CLOCK_MONOTONIC_RAW` on
    /// Apple platforms, which is `mach_continuous_time` in nanoseconds); `monotonic` does not (`CLOCK_MONOTONIC`
    /// on Linux, `CLOCK_UPTIME_RAW` on Apple platforms); `wall` is `CLOCK_REALTIME`.
    public func nowNanoseconds() -> Int64 {
        SystemInterface.nanoseconds(self)
    }
}
