import LifetraceCore

// The recorder's one file of C library calls: every Glibc, Musl and Darwin symbol the recorder uses is here,
// behind a Swift function that means the same on every platform.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The operating system, as the recorder needs it.
enum SystemInterface {
    /// The process's identifier.
    static func processID() -> Int64 {
        Int64(getpid())
    }

    /// The environment variable `name`, if set.
    static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// Sleeps the calling thread for `microseconds`.
    static func sleep(microseconds: UInt32) {
        usleep(microseconds)
    }

    /// Whether file locks may be held here: not on Apple's device platforms (Mac Catalyst, built for iOS,
    /// included), where a process suspended holding a file lock is killed (exception code `0xdead10cc`, Apple, "Understanding the exception types in a crash
    /// report"), and where one app's launches never run at once anyway.
    static let holdsFileLocks: Bool = {
        #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
        return false
        #else
        return true
        #endif
    }()

    /// Takes a shared advisory lock (`flock`) on the file at `path` through a descriptor of its own, held until
    /// ``releaseLock(_:)``: what tells another recorder pruning a directory of traces that this one is still being
    /// written. Returns the descriptor, or -1 if the file cannot be opened or locked, or if ``holdsFileLocks`` is
    /// false (nothing is then held).
    static func lockWhileWriting(_ path: String) -> Int32 {
        guard holdsFileLocks else { return -1 }
        // Not inherited by a child the process starts, which would hold the lock past the trace's close.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return -1 }
        // Waits out another recorder's test of the lock (``isLockedForWriting(_:)``), which holds it a moment.
        while flock(descriptor, LOCK_SH) != 0 {
            guard errno == EINTR else {
                close(descriptor)
                return -1
            }
        }
        return descriptor
    }

    /// Releases a lock ``lockWhileWriting(_:)`` took.
    static func releaseLock(_ descriptor: Int32) {
        if descriptor >= 0 { close(descriptor) }
    }

    /// Whether a recorder, of any process (this one included), holds the lock ``lockWhileWriting(_:)`` takes on
    /// the file at `path`; always false where ``holdsFileLocks`` is false (the test would take the lock a moment).
    static func isLockedForWriting(_ path: String) -> Bool {
        guard holdsFileLocks else { return false }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return flock(descriptor, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK
    }

    /// What ``link(_:to:)`` did.
    enum LinkOutcome {
        /// `to` now names the file `from` names.
        case linked
        /// A file already has the name `to`: nothing was done.
        case exists
        /// The file system or the platform gives no second name to a file (`errno` otherwise).
        case unsupported
    }

    /// Gives the file at `from` the new name `to` (`link(2)`), atomically and never over an existing file.
    static func link(_ from: String, to: String) -> LinkOutcome {
        if systemLink(from, to) == 0 { return .linked }
        return errno == EEXIST ? .exists : .unsupported
    }

    /// Writes all of `bytes` to standard error, retrying short writes; gives up quietly if it is closed.
    static func writeToStandardError(_ bytes: UnsafeRawBufferPointer) {
        writeAll(bytes, to: 2)
    }

    /// Writes all of `bytes` to standard output, retrying short writes; gives up quietly if it is closed.
    static func writeToStandardOutput(_ bytes: UnsafeRawBufferPointer) {
        writeAll(bytes, to: 1)
    }

    private static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) {
        guard let base = bytes.baseAddress else { return }
        var done = 0
        while done < bytes.count {
            let written = write(descriptor, base + done, bytes.count - done)
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            done += written
        }
    }

    /// The current reading of `clock` in nanoseconds.
    ///
    /// `continuous` keeps counting while the device sleeps (`CLOCK_BOOTTIME` on Linux, `CLOCK_MONOTONIC_RAW` on
    /// Apple platforms, which is `mach_continuous_time` in nanoseconds, where their `CLOCK_MONOTONIC` is the same
    /// time cut to the microsecond); `monotonic` does not (`CLOCK_MONOTONIC` on Linux, `CLOCK_UPTIME_RAW`,
    /// `mach_absolute_time`, on Apple platforms); `wall` is `CLOCK_REALTIME`.
    static func nanoseconds(_ clock: TraceClock) -> Int64 {
        var spec = timespec()
        #if canImport(Darwin)
        let id: clockid_t =
            switch clock {
            case .continuous: CLOCK_MONOTONIC_RAW
            case .monotonic: CLOCK_UPTIME_RAW
            case .wall: CLOCK_REALTIME
            }
        #else
        let id: clockid_t =
            switch clock {
            case .continuous: CLOCK_BOOTTIME
            case .monotonic: CLOCK_MONOTONIC
            case .wall: CLOCK_REALTIME
            }
        #endif
        clock_gettime(id, &spec)
        return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
    }

    /// How long ago the process started (its `exec`), in nanoseconds, or `nil` if the system does not say.
    ///
    /// Apple platforms: `sysctl` `KERN_PROC_PID` gives the start as wall-clock time (microseconds). Linux:
    /// `/proc/self/stat` gives it in clock ticks since boot, on the clock `CLOCK_BOOTTIME` reads.
    static func processAge() -> Int64? {
        #if canImport(Darwin)
        var info = kinfo_proc()
        var size = MemoryLayout<kinfo_proc>.stride
        var mib: [Int32] = [CTL_KERN, KERN_PROC, KERN_PROC_PID, getpid()]
        guard sysctl(&mib, u_int(mib.count), &info, &size, nil, 0) == 0, size > 0 else { return nil }
        // `p_starttime` is a C macro for this member, which Swift does not import.
        let start = info.kp_proc.p_un.__p_starttime
        guard start.tv_sec > 0 else { return nil }
        let started = Int64(start.tv_sec) * 1_000_000_000 + Int64(start.tv_usec) * 1000
        return ProcessAge.clamped(nanoseconds(.wall) - started)
        #else
        guard let stat = readSmallFile("/proc/self/stat") else { return nil }
        let ticksPerSecond = Int64(sysconf(Int32(_SC_CLK_TCK)))
        guard let ticks = ProcessAge.startTicks(procSelfStat: stat), ticksPerSecond > 0 else { return nil }
        let started = ticks / ticksPerSecond * 1_000_000_000 + ticks % ticksPerSecond * 1_000_000_000 / ticksPerSecond
        return ProcessAge.clamped(nanoseconds(.continuous) - started)
        #endif
    }

    #if !canImport(Darwin)
    /// The first 4 KiB of a file such as `/proc/self/stat`.
    private static func readSmallFile(_ path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 4096)
        let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        return Array(bytes[0..<count])
    }
    #endif
}

/// `link(2)` of the C library, under a name that the method ``SystemInterface/link(_:to:)`` does not hide.
private func systemLink(_ from: String, _ to: String) -> Int32 {
    link(from, to)
}
