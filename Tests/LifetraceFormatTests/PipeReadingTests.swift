import Dispatch
import Foundation
import LifetraceCore
import LifetraceTestSupport
import LifetraceZstd
import Testing

@testable import LifetraceFormat

/// Reading a pipe whose writer is still open: an error from the reader's own code must end the read at once,
/// not wait for the writer (a worker thread blocked on the pipe would).
@Suite struct PipeReadingTests {
    struct Stop: Error {}

    @Test func anErrorEndsTheReadOfAnOpenPipe() throws {
        let events = (0..<10).map { LifecycleEvent(t: Int64($0) * 1000, kind: .heartbeat) }
        // The header and the first of two frames: the rest is still to come when the reader fails.
        let (bytes, frames) = try ScratchTraces().binary(header: nil, events, frameSizes: [5], close: false)
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
