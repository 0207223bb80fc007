import LifetraceCore
import LifetraceTestSupport
import LifetraceZstd
import Testing

@testable import LifetraceFormat

/// Decoding frames on several threads changes nothing a reader sees: the same blocks in the same order, the
/// same statistics and warnings, and on damage the same error after the same events.
@Suite struct ParallelDecodingTests {
    let files = ScratchTraces()

    /// What reading `path` block by block yields: its events, the error it ended with, its warnings and, when
    /// it read to the end, its statistics.
    struct Reading: Equatable {
        var events: [LifecycleEvent] = []
        var error: String?
        var warnings: [String] = []
        var statistics: TraceStatistics?
    }

    static func read(_ path: String, threads: Int) -> Reading {
        var reading = Reading()
        do {
            let reader = try TraceReader(path: path)
            do {
                try reader.forEachBlock(decodingThreads: threads) { block in
                    for row in 0..<block.count { reading.events.append(block.event(at: row)) }
                }
            } catch {
                reading.error = "\(error)"
            }
            reading.warnings = reader.warnings.map(\.description)
            // After an error, how far the reading got differs: threads decoding ahead have read further.
            if reading.error == nil { reading.statistics = reader.statistics }
        } catch {
            reading.error = "\(error)"
        }
        return reading
    }

    /// A trace of `count` random events in frames of `frameSize`, with its data frames' offsets.
    func trace(count: Int = 2_000, frameSize: Int = 150) throws -> (path: String, bytes: [UInt8], offsets: [Int]) {
        var rng = SplitMix64(seed: 7)
        let events = RandomTrace.events(count: count, using: &rng)
        let binary = try files.binary(
            header: TraceHeader(app: "com.example"), events,
            frameSizes: Array(repeating: frameSize, count: count / frameSize))
        return (files.directory.write("many.lifetrace", binary.bytes), binary.bytes, binary.frameOffsets)
    }

    @Test(arguments: [2, 3, 8])
    func manyFramesReadTheSame(threads: Int) throws {
        let trace = try trace()
        let sequential = Self.read(trace.path, threads: 1)
        #expect(sequential.error == nil && sequential.events.count == 2_000)
        #expect(sequential.statistics?.dataFrames == 14 && sequential.statistics?.indexConsistent == true)
        #expect(Self.read(trace.path, threads: threads) == sequential)
    }

    @Test(arguments: PackagePaths.sampleTraces(extension: "lifetrace"))
    func everySampleReadsTheSame(path: String) {
        let sequential = Self.read(path, threads: 1)
        #expect(sequential.error == nil)
        #expect(Self.read(path, threads: 3) == sequential)
    }

    /// A damaged frame in the middle: the events of the frames before it, then its error.
    @Test func aDamagedFrameEndsTheReadingAfterTheFramesBeforeIt() throws {
        let trace = try trace()
        var bytes = trace.bytes
        bytes[trace.offsets[6] - 1] ^= 0x01  // the checksum of the sixth data frame
        let path = files.directory.write("flip.lifetrace", bytes)
        let sequential = Self.read(path, threads: 1)
        #expect(sequential.events.count == 5 * 150)
        #expect(sequential.error?.contains("(frame 6): zstd: restored data doesn't match checksum") == true)
        #expect(Self.read(path, threads: 3) == sequential)
    }

    /// A truncated end: every whole frame, and the warning counts their events.
    @Test func aTruncatedEndIsAWarningCountingTheEventsRecovered() throws {
        let trace = try trace()
        let path = files.directory.write("cut.lifetrace", Array(trace.bytes[..<(trace.offsets[10] + 20)]))
        let sequential = Self.read(path, threads: 1)
        #expect(sequential.error == nil && sequential.events.count == 10 * 150)
        #expect(sequential.warnings.count == 1 && sequential.warnings[0].contains("1500 events recovered"))
        #expect(Self.read(path, threads: 2) == sequential)
    }

    /// A frame starting before the previous one ended is found in order, as when decoding on one thread.
    @Test func timeGoingBackAcrossFramesIsTheSameError() throws {
        var bytes = HeaderFrame.encode(nil)
        let compressor = FrameCodec.zstd(level: 3).makeCompressor()
        for times in [[100, 200], [300, 400], [150, 500]] as [[Int64]] {
            var encoder = EventBlockEncoder()
            for t in times { encoder.append(LifecycleEvent(t: t, kind: .heartbeat)) }
            var content: [UInt8] = []
            encoder.finish(into: &content)
            compressor.compressFrame(content) { bytes.append(contentsOf: $0) }
        }
        let path = files.directory.write("back.lifetrace", bytes)
        let sequential = Self.read(path, threads: 1)
        #expect(sequential.events.map(\.t) == [100, 200, 300, 400])
        #expect(
            sequential.error?.hasSuffix(
                "(frame 3): block starts at t=150, before the previous block's end 400 (at byte 1 of the frame's content)"
            ) == true)
        #expect(Self.read(path, threads: 2) == sequential)
    }

    /// A reader's own failure stops the decoding threads and reaches the caller.
    @Test func theReadersFailureStopsTheDecoding() throws {
        struct Stop: Error {}
        let trace = try trace()
        let reader = try TraceReader(path: trace.path)
        var blocks = 0
        #expect(throws: Stop.self) {
            try reader.forEachBlock(decodingThreads: 3) { _ in
                blocks += 1
                if blocks == 2 { throw Stop() }
            }
        }
        #expect(blocks == 2)
    }

    /// Reading on after the end, in parallel, finds nothing more and reports nothing twice.
    @Test func readingPastTheEndAddsNothing() throws {
        let trace = try trace()
        let path = files.directory.write("cut2.lifetrace", Array(trace.bytes[..<(trace.offsets[3] + 20)]))
        let reader = try TraceReader(path: path)
        var events = 0
        while try reader.next() != nil { events += 1 }
        #expect(events == 450 && reader.warnings.count == 1)
        try reader.forEachBlock(decodingThreads: 2) { _ in Issue.record("a block after the end") }
        #expect(reader.warnings.count == 1)
    }
}
