import Dispatch
import Foundation
import LifetraceCore
@testable import LifetraceFormat
import LifetraceZstd
import LifetraceTestSupport
import Testing

/// The pipeline hands blocks from its worker to the reader in order, never more than two ahead, and
/// stops cleanly on an error from either side.
@Suite struct BlockPipelineTests {
    struct Damage: Error, Equatable { var after: Int }

    /// A producer of `count` one-event blocks (event `t` = block number), throwing `Damage` after
    /// `failAfter` blocks if set. Counts what it produced, under a lock.
    final class Producer: @unchecked Sendable {
        let count: Int
        let failAfter: Int?
        let produced = LockedValue(0)
        init(count: Int, failAfter: Int? = nil) { (self.count, self.failAfter) = (count, failAfter) }

        func produce(_ block: inout EventBlock) throws -> Bool {
            let n = produced.withLock { $0 }
            if let failAfter, n == failAfter { throw Damage(after: n) }
            guard n < count else { return false }
            block.removeAll()
            block.append(LifecycleEvent(t: Int64(n), kind: .heartbeat))
            produced.withLock { $0 += 1 }
            return true
        }
    }

    @Test func blocksArriveInOrder() throws {
        let producer = Producer(count: 1000)
        var seen: [Int64] = []
        try BlockPipeline.run(producer.produce) { block in seen.append(block.records[0].t) }
        #expect(seen == (0..<1000).map(Int64.init))
    }

    @Test func theWorkerStaysAtMostTwoBlocksAhead() throws {
        let producer = Producer(count: 50)
        var consumed = 0
        var furthestAhead = 0
        try BlockPipeline.run(producer.produce) { _ in
            furthestAhead = max(furthestAhead, producer.produced.withLock { $0 } - consumed)
            consumed += 1
        }
        #expect(consumed == 50)
        // The block being read plus the one being filled ahead of it.
        #expect(furthestAhead <= 2)
    }

    @Test func aProducerErrorComesAfterTheBlocksBeforeIt() {
        let producer = Producer(count: 100, failAfter: 7)
        var seen = 0
        #expect(throws: Damage(after: 7)) {
            try BlockPipeline.run(producer.produce) { _ in seen += 1 }
        }
        #expect(seen == 7)
    }

    @Test func aConsumerErrorStopsTheWorker() {
        let producer = Producer(count: 1_000_000)
        #expect(throws: Damage(after: 3)) {
            var seen = 0
            try BlockPipeline.run(producer.produce) { _ in
                seen += 1
                if seen == 3 { throw Damage(after: 3) }
            }
        }
        // run returned, so the worker was joined; it stopped within two blocks of the error.
        #expect(producer.produced.withLock { $0 } <= 5)
    }
}

/// Reading a pipe whose writer is still open: an error from the reader's own code must end the read at once,
/// not wait for the writer (a worker thread blocked on the pipe would).
@Suite struct PipeReadingTests {
    struct Stop: Error {}

    @Test func anErrorEndsTheReadOfAnOpenPipe() throws {
        let events = (0..<10).map { LifecycleEvent(t: Int64($0) * 1000, kind: .heartbeat) }
        // The header and the first of two frames: the rest is still to come when the reader fails.
        let (bytes, frames) = try TraceFiles().binary(header: nil, events, frameSizes: [5], close: false)
        let pipe = Pipe()
        pipe.fileHandleForWriting.write(Data(bytes[..<frames[1]]))
        nonisolated(unsafe) let reader = try TraceReader(path: "/dev/fd/\(pipe.fileHandleForReading.fileDescriptor)")
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var seen = 0
        nonisolated(unsafe) var stopped = false
        DispatchQueue.global().async {
            do {
                try reader.forEachEvent { _ in
                    seen += 1
                    throw Stop()
                }
            } catch {
                stopped = error is Stop
            }
            done.signal()
        }
        let finished = done.wait(timeout: .now() + 10) == .success
        // Unblock the reader either way, so that a failure does not hang the test run.
        pipe.fileHandleForWriting.closeFile()
        if !finished { done.wait() }
        #expect(finished, "the read waited for the pipe's writer")
        #expect(stopped && seen == 1)
    }
}
