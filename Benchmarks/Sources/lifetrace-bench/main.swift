import Dispatch
import Foundation
import LifetraceCore
import LifetraceFormat
import LifetraceRecorder

// Micro-benchmarks that need code, not a command line: the recorder's cost per event.
//
// Usage: lifetrace-bench recorder EVENTS THREADS OUT
//        lifetrace-bench live EVENTS OUT
// Prints two lines:
//   `recorder-call threads=T ns_per_event=X wall_ns_per_event=Y lost=0`: the CPU time a recording thread
//     spends in `record` per call (CLOCK_THREAD_CPUTIME_ID around each burst), with all T threads recording
//     at once in bursts that fit the buffers and the writer draining between bursts: the cost an app's
//     callback pays. `wall_ns_per_event` is the same bursts' wall time per call, which on a machine with fewer
//     cores than threads also counts the time a thread waits for a core. `lost` counts events missing from
//     the file or dropped: it must be 0.
//   `recorder-sustained threads=T ns_per_event=X dropped=N`: wall time per event when recording flat out,
//     which is bound by encoding and writing on the writer queue.
// `live` prints one line (LiveCheckBench.swift):
//   `live-check off_ns=X on_ns=Y ratio=R checker_ns_per_event=C dropped=N`: the CPU time of `record` per call
//     on the recording thread with the live check off and on, in alternating bursts of one run; their ratio; the
//     process's CPU time per event the check adds (its queue included); events the check dropped. Meaningful
//     in a debug build only: a release build compiles the live check out.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

let arguments = CommandLine.arguments
let live = arguments.count == 4 && arguments[1] == "live"
guard live || (arguments.count == 5 && arguments[1] == "recorder"), let events = Int(arguments[2]),
    let threads = live ? 1 : Int(arguments[3]), threads > 0
else {
    FileHandle.standardError.write(Data("usage: lifetrace-bench recorder EVENTS THREADS OUT | live EVENTS OUT\n".utf8))
    exit(2)
}
let scenes = ["S1", "S2", "S3"]
let kinds: [EventKind] = [
    .sceneWillResignActive, .sceneDidEnterBackground, .sceneWillEnterForeground, .sceneDidBecomeActive,
]
if live {
    try liveCheckBenchmark(events: events, path: arguments[3])
    exit(0)
}

@Sendable @inline(never)
func recordBurst(_ recorder: Recorder, _ count: Int, offset: Int) {
    for i in offset..<(offset + count) {
        if i & 7 == 7 {
            recorder.record(.taskBegin, task: Int64(i), name: "sync")
        } else {
            recorder.record(kinds[i & 3], scene: scenes[(i >> 2) % 3])
        }
    }
}

@Sendable func nanoseconds(_ clock: clockid_t) -> UInt64 {
    var spec = timespec()
    clock_gettime(clock, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}

/// Runs `body(thread)` on `count` threads of their own, started together, and waits for all of them.
func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let ready = DispatchGroup()
    let done = DispatchGroup()
    let go = DispatchSemaphore(value: 0)
    for index in 0..<count {
        ready.enter()
        done.enter()
        let thread = Thread {
            ready.leave()
            go.wait()
            body(index)
            done.leave()
        }
        thread.start()
    }
    ready.wait()
    for _ in 0..<count { go.signal() }
    done.wait()
}

func countEvents(_ path: String) throws -> Int {
    let reader = try TraceReader(path: path, codec: .stored)
    var count = 0
    while try reader.next() != nil { count += 1 }
    return count
}

func benchmark(events: Int, threads: Int, path: String) throws {
    let perThread = events / threads

    // Bursts: the threads record `burst` events each at once, then the writer drains outside the timed region.
    let burst = 8_192
    let callRecorder = try Recorder(
        file: URL(fileURLWithPath: path), configuration: .init(flushInterval: .seconds(3600), bufferCapacity: 1 << 20))
    nonisolated(unsafe) let cpu = UnsafeMutablePointer<UInt64>.allocate(capacity: threads)
    nonisolated(unsafe) let wall = UnsafeMutablePointer<UInt64>.allocate(capacity: threads)
    cpu.initialize(repeating: 0, count: threads)
    wall.initialize(repeating: 0, count: threads)
    var done = 0
    while done < perThread {
        let count = min(burst, perThread - done)
        let offset = done
        onThreads(threads) { thread in
            let startWall = nanoseconds(CLOCK_MONOTONIC)
            let startCPU = nanoseconds(CLOCK_THREAD_CPUTIME_ID)
            recordBurst(callRecorder, count, offset: offset + thread * perThread)
            cpu[thread] += nanoseconds(CLOCK_THREAD_CPUTIME_ID) - startCPU
            wall[thread] += nanoseconds(CLOCK_MONOTONIC) - startWall
        }
        try callRecorder.flush()
        done += count
    }
    try callRecorder.close()
    let calls = Double(perThread * threads)
    let cpuTotal = Double((0..<threads).map { cpu[$0] }.reduce(0, +))
    let wallTotal = Double((0..<threads).map { wall[$0] }.reduce(0, +))
    // Every event recorded is in the file, after the recorder's process.launch.
    let lost = perThread * threads + 1 - (try countEvents(path)) + callRecorder.droppedEventCount
    print(
        "recorder-call threads=\(threads) ns_per_event=\(String(format: "%.1f", cpuTotal / calls))"
            + " wall_ns_per_event=\(String(format: "%.1f", wallTotal / calls)) lost=\(lost)")

    // Flat out: wall time per event, writer included.
    let sustained = try Recorder(file: URL(fileURLWithPath: path))
    let start = nanoseconds(CLOCK_MONOTONIC)
    onThreads(threads) { _ in recordBurst(sustained, perThread, offset: 0) }
    try sustained.close()
    let elapsed = Double(nanoseconds(CLOCK_MONOTONIC) - start)
    print(
        "recorder-sustained threads=\(threads) ns_per_event=\(String(format: "%.1f", elapsed / calls)) dropped=\(sustained.droppedEventCount)"
    )
}

try benchmark(events: events, threads: threads, path: arguments[4])
