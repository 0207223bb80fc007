import Dispatch
import Foundation
import LifetraceCore
import LifetraceFormat
import LifetraceRecorder
import LifetraceTestSupport
import Testing

/// The second set's N16 (lifetraceTests/Fixtures/Repros/SOURCE.md), as its in-process program ran it: a second
/// `close()` threw, an event recorded after `close()` was lost with `droppedEventCount` 0, and two closes at
/// once while threads recorded threw in 15 of 16 runs.
@Suite struct RecorderCloseTests {
    let directory = TemporaryDirectory()

    /// close(); record; close(): the second close does nothing, the event after the first is counted.
    @Test func closeRecordCloseCountsTheLateEvent() throws {
        let path = directory.file("ct.lifetrace")
        let recorder = try Recorder(file: URL(fileURLWithPath: path), app: "com.example.closetwice")
        recorder.record(.taskBegin, task: 1)
        try recorder.close()
        recorder.record(.taskBegin, task: 2)
        #expect(recorder.droppedEventCount == 1)
        try recorder.close()
        #expect(recorder.droppedEventCount == 1)
        let tasks = try RecorderTraces.read(path).events.compactMap(\.task)
        #expect(tasks == [1])
    }

    /// flush() after close() does nothing, as a second close does: no error, the file untouched, and an event
    /// recorded between them is counted once, as refused, not written by the flush.
    @Test func flushAfterCloseIsANoOpAndTheLateEventStaysCounted() throws {
        let path = directory.file("fc.lifetrace")
        let recorder = try Recorder(file: URL(fileURLWithPath: path), app: "com.example.flushafterclose")
        recorder.record(.taskBegin, task: 1)
        try recorder.flush()
        try recorder.close()
        let closed = try Data(contentsOf: URL(fileURLWithPath: path))
        recorder.record(.taskBegin, task: 2)
        try recorder.flush()
        recorder.flushSoon()
        try recorder.close()
        try recorder.flush()
        #expect(recorder.droppedEventCount == 1)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == closed)
        #expect(try RecorderTraces.read(path).events.compactMap(\.task) == [1])
    }

    /// Threads record while two others close at once; then more events come after the close. No close throws,
    /// every event recorded before the close began is in the file, in each thread's order, and every event after
    /// it is counted as dropped.
    @Test(arguments: 0..<4)
    func closesFromTwoThreadsWhileOthersRecord(run: Int) throws {
        let path = directory.file("stress-\(run).lifetrace")
        let recorder = try Recorder(
            file: URL(fileURLWithPath: path), app: "com.example.stress",
            configuration: .init(flushInterval: .milliseconds(5)))
        let threads = 4
        let recorded = Counts(threads)
        let stop = Flag()
        let group = DispatchGroup()
        for thread in 0..<threads {
            DispatchQueue.global().async(group: group) {
                var sequence: Int64 = 0
                while !stop.isSet {
                    if recorder.record(LifecycleEvent(t: 0, kind: .taskBegin, task: Int64(thread) << 32 | sequence)) {
                        recorded.add(thread)
                    }
                    sequence += 1
                    if sequence % 1000 == 0 { Thread.sleep(forTimeInterval: 0.00005) }
                }
            }
        }
        Thread.sleep(forTimeInterval: 0.02)
        let failures = Counts(1)
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            do { try recorder.close() } catch { failures.add(0) }
        }
        stop.set()
        group.wait()
        let droppedBefore = recorder.droppedEventCount
        for sequence in 0..<1000 { recorder.record(.taskBegin, task: Int64(99) << 32 | Int64(sequence)) }
        try recorder.close()
        #expect(failures.value(0) == 0)
        #expect(recorder.droppedEventCount == droppedBefore + 1000)
        let events = try RecorderTraces.read(path).events.compactMap(\.task)
        // Everything record() took is there, each thread's in order; nothing after the close.
        #expect(events.count == (0..<threads).reduce(0) { $0 + recorded.value($1) })
        for thread in 0..<threads {
            let mine = events.filter { $0 >> 32 == Int64(thread) }
            #expect(mine == mine.sorted())
        }
        #expect(!events.contains { $0 >> 32 == 99 })
    }
}

/// Counts several threads add to.
private final class Counts: @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [Int]
    init(_ count: Int) { counts = Array(repeating: 0, count: count) }
    func add(_ index: Int) {
        lock.lock()
        counts[index] += 1
        lock.unlock()
    }
    func value(_ index: Int) -> Int {
        lock.lock()
        defer { lock.unlock() }
        return counts[index]
    }
}

/// A flag one thread sets and others read.
private final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var flag = false
    func set() {
        lock.lock()
        flag = true
        lock.unlock()
    }
    var isSet: Bool {
        lock.lock()
        defer { lock.unlock() }
        return flag
    }
}
