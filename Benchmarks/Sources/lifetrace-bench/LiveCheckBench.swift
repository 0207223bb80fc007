import Foundation
import LifetraceAnalysis
import LifetraceLiveCheck
import LifetraceRecorder

// The live check's cost to the recording thread: `record` with the check on against off, in one run.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reports nothing: the bench measures the check, not a reporter.
struct SilentReporter: LiveCheckReporter {
    func report(_ finding: Finding) {}
}

/// Records `events` events on this thread into two recorders, one with the live check on, in alternating bursts
/// that fit the check's hand-off; each burst's thread CPU time is the call's cost, the process's CPU time over
/// the burst and the check's drain what the check adds.
func liveCheckBenchmark(events: Int, path: String) throws {
    let burst = LiveCheck.capacity / 2
    let configuration = RecorderConfiguration(flushInterval: .seconds(3600), bufferCapacity: 1 << 20)
    let off = try Recorder(file: URL(fileURLWithPath: path + ".off"), configuration: configuration)
    let on = try Recorder(file: URL(fileURLWithPath: path + ".on"), configuration: configuration)
    let session = LiveCheck.start(recorder: on, reporter: SilentReporter())
    var thread = (off: UInt64(0), on: UInt64(0))
    var process = (off: UInt64(0), on: UInt64(0))
    var done = 0
    while done < events {
        let count = min(burst, events - done)
        for checked in [false, true] {
            let recorder = checked ? on : off
            let startProcess = nanoseconds(CLOCK_PROCESS_CPUTIME_ID)
            let startThread = nanoseconds(CLOCK_THREAD_CPUTIME_ID)
            recordBurst(recorder, count, offset: done)
            let spent = nanoseconds(CLOCK_THREAD_CPUTIME_ID) - startThread
            if checked { session?.drain() }
            let total = nanoseconds(CLOCK_PROCESS_CPUTIME_ID) - startProcess
            if checked {
                (thread.on, process.on) = (thread.on + spent, process.on + total)
            } else {
                (thread.off, process.off) = (thread.off + spent, process.off + total)
            }
            try recorder.flush()
        }
        done += count
    }
    let dropped = session?.droppedEventCount ?? 0
    session?.stop()
    try off.close()
    try on.close()
    let calls = Double(events)
    let offNs = Double(thread.off) / calls
    let onNs = Double(thread.on) / calls
    let checker = (Double(process.on) - Double(process.off)) / calls
    print(
        "live-check off_ns=\(String(format: "%.1f", offNs)) on_ns=\(String(format: "%.1f", onNs))"
            + " ratio=\(String(format: "%.2f", onNs / offNs)) checker_ns_per_event=\(String(format: "%.1f", checker))"
            + " dropped=\(dropped) enabled=\(session != nil)")
}
