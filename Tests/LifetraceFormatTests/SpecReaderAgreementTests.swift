import Foundation
import LifetraceCore
import LifetraceFormat
import LifetraceTestSupport
import Testing

/// `scripts/lifetrace_read.py`, written from `Schemas/lifetrace-format.md` alone, reads every trace to the
/// same events as the Swift reader: the specification is complete.
@Suite(.integration) struct SpecReaderAgreementTests {
    let files = ScratchTraces()

    func pythonDump(_ path: String) throws -> ShellResult {
        let python = try #require(which("python3"), "python3 is needed (scripts/test installs it)")
        return try run(python, [PackagePaths.path("scripts/lifetrace_read.py"), path])
    }

    @Test(arguments: PackagePaths.sampleTraces(extension: "lifetrace"))
    func pythonReaderAgreesOnEverySample(path: String) throws {
        let read = try files.readAll(path)
        let python = try pythonDump(path)
        #expect(python.status == 0, "\(python.stderr)")
        #expect(python.stdout == ScratchTraces.jsonLines(header: read.header, read.events))
    }

    @Test(arguments: 0..<8)
    func pythonReaderAgreesOnRandomTraces(seed: Int) throws {
        var rng = SplitMix64(seed: UInt64(1000 + seed))
        let header = RandomTrace.header(using: &rng)
        let events = RandomTrace.events(count: 300, using: &rng)
        let path = files.directory.write(
            "r.lifetrace", try files.binary(header: header, events, frameSizes: [100]).bytes)
        let python = try pythonDump(path)
        #expect(python.status == 0, "\(python.stderr)")
        #expect(python.stdout == ScratchTraces.jsonLines(header: header, events))
    }

    @Test func pythonReaderReportsTruncationLikeTheSwiftReader() throws {
        var rng = SplitMix64(seed: 9)
        let events = RandomTrace.events(count: 200, using: &rng)
        let trace = try files.binary(header: nil, events, frameSizes: [100])
        let cut = trace.frameOffsets[1] + 5
        let path = files.directory.write("cut.lifetrace", Array(trace.bytes[0..<cut]))
        let python = try pythonDump(path)
        #expect(python.status == 0)
        #expect(python.stdout == ScratchTraces.jsonLines(header: nil, Array(events[0..<100])))
        #expect(python.stderr == "\(path): truncated at byte \(cut): 100 events recovered\n")
    }
}
