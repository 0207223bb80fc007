#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
public import LifetraceCore

extension TraceClock {
    /// The current reading of this clock in nanoseconds.
    ///
    /// `continuous` keeps counting while the device sleeps (`CLOCK_BOOTTIME` on Linux, `CLOCK_MONOTONIC` on
    /// Apple platforms, which is `mach_continuous_time`); `monotonic` does not (`CLOCK_MONOTONIC` on Linux,
    /// `CLOCK_UPTIME_RAW` on Apple platforms); `wall` is `CLOCK_REALTIME`.
    public func nowNanoseconds() -> Int64 {
        var spec = timespec()
        #if canImport(Darwin)
        let id: clockid_t =
            switch self {
            case .continuous: CLOCK_MONOTONIC
            case .monotonic: CLOCK_UPTIME_RAW
            case .wall: CLOCK_REALTIME
            }
        #else
        let id: clockid_t =
            switch self {
            case .continuous: CLOCK_BOOTTIME
            case .monotonic: CLOCK_MONOTONIC
            case .wall: CLOCK_REALTIME
            }
        #endif
        clock_gettime(id, &spec)
        return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
    }
}
