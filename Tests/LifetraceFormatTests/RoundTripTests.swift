import Foundation
import LifetraceCore
import LifetraceFormat
import LifetraceTestSupport
import Testing

/// JSON Lines → `.lifetrace` → JSON Lines loses nothing, on random traces and on every sample.
@Suite struct RoundTripTests {
    let files = ScratchTraces()

    @Test(arguments: 0..<60)
    func randomTracesSurviveBinaryAndJSONLines(seed: Int) throws {
        var rng = SplitMix64(seed: UInt64(seed))
        let header = RandomTrace.header(using: &rng)
        let events = RandomTrace.events(count: Int.random(in: 0...400, using: &rng), using: &rng)
        let sizes = (0..<Int.random(in: 0...3, using: &rng)).map { _ in Int.random(in: 0...120, using: &rng) }
        let binary = try files.binary(header: header, events, frameSizes: sizes)
        let binaryPath = files.directory.write("random.lifetrace", binary.bytes)
        let fromBinary = try files.readAll(binaryPath)
        #expect(fromBinary.header == header)
        #expect(fromBinary.events == events)

        let text = ScratchTraces.jsonLines(header: header, events)
        let jsonPath = files.directory.write("random.jsonl", text: text)
        let fromJSON = try files.readAll(jsonPath)
        #expect(fromJSON.header == header)
        #expect(fromJSON.events == events)
        #expect(ScratchTraces.jsonLines(header: fromBinary.header, fromBinary.events) == text)
    }

    @Test(arguments: PackagePaths.sampleTraces(extension: "jsonl"))
    func samplesConvertToBinaryAndBackByteForByte(path: String) throws {
        let original = try String(contentsOfFile: path, encoding: .utf8)
        let read = try files.readAll(path)
        let binary = try files.binary(header: read.header, read.events)
        let again = try files.readAll(files.directory.write("sample.lifetrace", binary.bytes))
        #expect(ScratchTraces.jsonLines(header: again.header, again.events) == original)
    }

    @Test(arguments: PackagePaths.sampleTraces(extension: "lifetrace"))
    func committedBinarySamplesMatchTheirJSONLines(path: String) throws {
        let binary = try files.readAll(path)
        let text = try files.readAll(String(path.dropLast(".lifetrace".count)) + ".jsonl")
        #expect(binary.header == text.header)
        #expect(binary.events == text.events)
        #expect(binary.reader.statistics.indexPresent && binary.reader.statistics.indexConsistent)
        #expect(binary.reader.warnings.isEmpty)
    }

    @Test func formatIsToldByContentNotByName() throws {
        var rng = SplitMix64(seed: 7)
        let events = RandomTrace.events(count: 20, using: &rng)
        let binary = try files.binary(header: nil, events)
        let disguised = files.directory.write("trace.jsonl", binary.bytes)
        let read = try files.readAll(disguised)
        #expect(read.reader.format == .binary)
        #expect(read.events == events)
        let text = files.directory.write("trace.lifetrace", text: ScratchTraces.jsonLines(header: nil, events))
        let readText = try files.readAll(text)
        #expect(readText.reader.format == .jsonLines)
        #expect(readText.events == events)
    }

    @Test func statisticsCountFramesEventsAndTimeSpan() throws {
        var rng = SplitMix64(seed: 11)
        let events = RandomTrace.events(count: 300, using: &rng)
        let binary = try files.binary(header: nil, events, frameSizes: [100, 100])
        let read = try files.readAll(files.directory.write("s.lifetrace", binary.bytes))
        let statistics = read.reader.statistics
        #expect(statistics.dataFrames == 3)
        #expect(statistics.events == 300)
        #expect(statistics.firstT == events.first?.t && statistics.lastT == events.last?.t)
        #expect(statistics.bytes == binary.bytes.count)
        #expect(statistics.indexPresent && statistics.indexConsistent)
    }

    @Test(.integration) func zstdAcceptsEveryWrittenFile() throws {
        let zstd = try #require(which("zstd"), "the zstd command is needed (scripts/test installs it)")
        var rng = SplitMix64(seed: 3)
        let events = RandomTrace.events(count: 500, using: &rng)
        let path = files.directory.write("z.lifetrace", try files.binary(header: nil, events, frameSizes: [200]).bytes)
        let result = try run(zstd, ["-t", "-q", path])
        #expect(result.status == 0, "\(result.stderr)")
    }
}
