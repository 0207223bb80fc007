// Micro-benchmarks that need code, not a command line: the recorder's cost per event.
//
// Usage: lifetrace-bench recorder EVENTS THREADS OUT
// Prints two lines:
//   `recorder-call threads=T ns_per_event=X`: the time a recording thread spends in `record`, measured in
//     bursts that fit the buffer, with the writer draining between bursts (the cost an app's callback pays);
//   `recorder-sustained threads=T ns_per_event=X`: wall time per event when recording flat out, which is
//     bound by encoding and compression on the writer queue.
import Dispatch
import Foundation
import LifetraceCore
import LifetraceRecorder

let arguments = CommandLine.arguments
guard arguments.count == 5, arguments[1] == "recorder", let events = Int(arguments[2]), let threads = Int(arguments[3])
else {
    FileHandle.standardError.write(Data("usage: lifetrace-bench recorder EVENTS THREADS OUT\n".utf8))
    exit(2)
}
nonisolated(unsafe) let scenes = ["S1", "S2", "S3"]
nonisolated(unsafe) let kinds: [EventKind] = [.sceneWillResignActive, .sceneDidEnterBackground, .sceneWillEnterForeground, .sceneDidBecomeActive]

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

func benchmark(events: Int, threads: Int, path: String) throws {
    let perThread = events / threads

    // Bursts: each thread records `burst` events, then the writer drains outside the timed region.
    let burst = 16_384
    let callRecorder = try Recorder(path: path, configuration: .init(bufferCapacity: burst * threads * 2))
    nonisolated(unsafe) let busy = UnsafeMutablePointer<UInt64>.allocate(capacity: threads)
    busy.initialize(repeating: 0, count: threads)
    var done = 0
    while done < perThread {
        let count = min(burst, perThread - done)
        let offset = done
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            let start = DispatchTime.now().uptimeNanoseconds
            recordBurst(callRecorder, count, offset: offset)
            busy[thread] += DispatchTime.now().uptimeNanoseconds - start
        }
        try callRecorder.flush()
        done += count
    }
    try callRecorder.close()
    let callNanos = (0..<threads).map { busy[$0] }.reduce(0, +)
    print("recorder-call threads=\(threads) ns_per_event=\(String(format: "%.1f", Double(callNanos) / Double(perThread * threads)))")

    // Flat out: wall time per event, writer included.
    let sustained = try Recorder(path: path)
    let start = DispatchTime.now().uptimeNanoseconds
    DispatchQueue.concurrentPerform(iterations: threads) { _ in recordBurst(sustained, perThread, offset: 0) }
    try sustained.close()
    let elapsed = DispatchTime.now().uptimeNanoseconds - start
    print("recorder-sustained threads=\(threads) ns_per_event=\(String(format: "%.1f", Double(elapsed) / Double(perThread * threads))) dropped=\(sustained.droppedEventCount)")
}

try benchmark(events: events, threads: threads, path: arguments[4])
