import Benchmark
import Foundation
import LifetraceCore
import LifetraceRecorder

/// The recorder's `record` call, what an app's lifecycle callback pays.
enum RecorderBenchmarks {
    /// Events recorded per iteration.
    static let eventsPerIteration = 1_000

    static let scenes = ["S1", "S2", "S3"]
    static let kinds: [EventKind] = [
        .sceneWillResignActive, .sceneDidEnterBackground, .sceneWillEnterForeground, .sceneDidBecomeActive,
    ]

    /// Records `eventsPerIteration` events: scene callbacks on three scenes, and one event in eight a background
    /// task beginning, with its name (the strings are interned once, then found again).
    @inline(never)
    static func recordEvents(_ recorder: Recorder) {
        for i in 0..<eventsPerIteration {
            if i & 7 == 7 {
                recorder.record(.taskBegin, task: Int64(i), name: "sync")
            } else {
                recorder.record(kinds[i & 3], scene: scenes[(i >> 2) % 3])
            }
        }
    }

    /// A recorder writing a trace file in `directory`, with a buffer that holds several iterations' events and a
    /// flush interval no iteration reaches, so that only the benchmark's own flushes write.
    static func makeRecorder(in directory: URL, name: String) throws -> Recorder {
        try Recorder(
            file: directory.appendingPathComponent(name), app: "com.example.bench",
            configuration: .init(flushInterval: .seconds(3600), bufferCapacity: 1 << 16))
    }

    static func register(in directory: URL) {
        // Into the buffer only: the buffer is written out before each iteration, outside the measurement.
        // A record call appends plain data under its shard's lock and its strings are interned once, so it
        // allocates nothing: the threshold is the empty measurement's count, with no tolerance. One malloc per
        // event would add 1,000.
        let buffered = Box<Recorder>()
        Benchmark(
            "Recorder.record.1000events.buffered",
            configuration: MicroBenchmark.configuration(mallocTolerance: 0),
            closure: { benchmark in
                let recorder = buffered.value!
                try recorder.flush()
                benchmark.startMeasurement()
                recordEvents(recorder)
                benchmark.stopMeasurement()
            },
            setup: { buffered.value = try makeRecorder(in: directory, name: "buffered.lifetrace") },
            teardown: { try buffered.value?.close() }
        )

        // The same events, then a flush that encodes them as a frame and writes it to the file, on the writer
        // queue: a handful of allocations per frame, none per event. Today 5 above the empty measurement (the
        // list of shard batches in `writeOut`, the merge's cursors in `BatchMerger.merge`, and three below the
        // writer's Swift code, in the synchronous hop to its queue); now and then one more, when the file's
        // frame index (`BinaryTraceWriter.endFrame`) grows. 2 of tolerance for that.
        let flushed = Box<Recorder>()
        Benchmark(
            "Recorder.recordAndFlush.1000events",
            configuration: MicroBenchmark.configuration(mallocTolerance: 2),
            closure: { _ in
                let recorder = flushed.value!
                recordEvents(recorder)
                try recorder.flush()
            },
            setup: { flushed.value = try makeRecorder(in: directory, name: "flushed.lifetrace") },
            teardown: { try flushed.value?.close() }
        )
    }
}
