import LifetraceFormat
import Testing

@testable import LifetraceReport

/// An encoder's bytes reach its sink in the order handed over, whole, written as they come or on a thread; a
/// failed write ends the export with that failure.
@Suite struct ExportOutputTests {
    /// Counts what a sink is asked to do; its second write fails if `failing`. Read once the output is finished.
    final class CountingSink: TraceSink {
        let failing: Bool
        var bytes: [UInt8] = []
        var writes = 0
        var flushes = 0

        init(failing: Bool = false) {
            self.failing = failing
        }

        func write(_ bytes: UnsafeRawBufferPointer) throws(TraceError) {
            writes += 1
            if failing, writes >= 2 {
                throw TraceError(.io, file: "out.json", at: .file, "write failed: no space left on device")
            }
            self.bytes.append(contentsOf: bytes)
        }

        func flush() throws(TraceError) { flushes += 1 }
    }

    /// Buffers of 1 byte, 3,000 bytes, more than a buffer keeps once written, and 10 bytes, each of its own
    /// byte value.
    static let sizes = [1, 3_000, ExportOutput.keptCapacity + 1, 10]

    @Test(arguments: [false, true])
    func theBytesArriveInOrderAndTheBufferComesBackEmpty(onThread: Bool) throws {
        let sink = CountingSink()
        let output = ExportOutput(sink: sink, onThread: onThread)
        var buffer = ByteWriter()
        var expected: [UInt8] = []
        for (position, size) in Self.sizes.enumerated() {
            let bytes = [UInt8](repeating: UInt8(position + 1), count: size)
            bytes.withUnsafeBytes { buffer.appendBytes($0) }
            expected += bytes
            output.write(&buffer)
            #expect(buffer.isEmpty)
            #expect(buffer.capacity <= ExportOutput.keptCapacity)
        }
        // Nothing gathered: nothing written.
        output.write(&buffer)
        try output.finish()
        #expect(sink.writes == Self.sizes.count)
        #expect(sink.bytes == expected)
        #expect(sink.flushes == 1)
    }

    @Test(arguments: [false, true])
    func theFirstFailureEndsTheExportAndWhatFollowsIsDropped(onThread: Bool) {
        let sink = CountingSink(failing: true)
        let output = ExportOutput(sink: sink, onThread: onThread)
        var buffer = ByteWriter()
        for byte: UInt8 in 1...5 {
            buffer.append(byte)
            output.write(&buffer)
        }
        let failure = #expect(throws: TraceError.self) { try output.finish() }
        #expect(failure?.description.contains("no space left on device") == true)
        // The first write went through, the second failed, the other three were not tried.
        #expect(sink.writes == 2)
        #expect(sink.bytes == [1])
        #expect(sink.flushes == 0)
    }
}
