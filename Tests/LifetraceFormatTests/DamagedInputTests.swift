import Foundation
import LifetraceCore
import LifetraceTestSupport
import LifetraceZstd
import Testing

@testable import LifetraceFormat

/// Every kind of bad input gets one exact, positioned error or warning, and never a crash.
@Suite struct DamagedInputTests {
    let files = ScratchTraces()

    func sample(count: Int = 300, frames: [Int] = [100, 100]) throws -> (
        events: [LifecycleEvent], bytes: [UInt8], offsets: [Int]
    ) {
        var rng = SplitMix64(seed: 42)
        let events = RandomTrace.events(count: count, using: &rng)
        let binary = try files.binary(header: TraceHeader(app: "com.example"), events, frameSizes: frames)
        return (events, binary.bytes, binary.frameOffsets)
    }

    @Test func truncatedLastFrameYieldsEveryEarlierEventAndAWarning() throws {
        let trace = try sample()
        let cut = trace.offsets[2] + 10
        let path = files.directory.write("cut.lifetrace", Array(trace.bytes[0..<cut]))
        let read = try files.readAll(path)
        #expect(read.events == Array(trace.events[0..<200]))
        #expect(
            read.reader.warnings.map(\.description) == [
                "\(path): truncated at byte \(cut): 200 events recovered (frame 3 at byte \(trace.offsets[2]) is incomplete)"
            ])
        #expect(read.reader.statistics.truncated)
    }

    @Test func truncationInsideAFrameHeaderIsStillATruncation() throws {
        let trace = try sample()
        let cut = trace.offsets[1] + 2
        let read = try files.readAll(files.directory.write("cut2.lifetrace", Array(trace.bytes[0..<cut])))
        #expect(read.events == Array(trace.events[0..<100]))
        #expect(read.reader.warnings.first?.kind == .truncated)
    }

    @Test func aMissingIndexIsNotDamage() throws {
        var rng = SplitMix64(seed: 5)
        let events = RandomTrace.events(count: 50, using: &rng)
        let binary = try files.binary(header: nil, events, close: false)
        let read = try files.readAll(files.directory.write("open.lifetrace", binary.bytes))
        #expect(read.events == events)
        #expect(read.reader.warnings.isEmpty)
        #expect(!read.reader.statistics.indexPresent)
    }

    @Test func aFlippedChecksumByteNamesTheFrameAndItsOffset() throws {
        let trace = try sample()
        var bytes = trace.bytes
        // The last byte of frame 2 (the second data frame) is the last byte of its checksum.
        bytes[trace.offsets[2] - 1] ^= 0x01
        let path = files.directory.write("flip.lifetrace", bytes)
        let error = try #require(files.readError(path))
        #expect(
            error.description
                == "\(path): byte \(trace.offsets[1]) (frame 2): zstd: restored data doesn't match checksum")
        #expect(error.kind == .malformed)
    }

    @Test(arguments: 0..<200)
    func randomBitFlipsNeverCrashAReader(seed: Int) throws {
        let trace = try sample(count: 120, frames: [40, 40])
        var rng = SplitMix64(seed: UInt64(seed))
        var bytes = trace.bytes
        for _ in 0..<Int.random(in: 1...3, using: &rng) {
            let index = Int.random(in: 0..<bytes.count, using: &rng)
            bytes[index] ^= UInt8(1 << Int.random(in: 0..<8, using: &rng))
        }
        let path = files.directory.write("fuzz-\(seed).lifetrace", bytes)
        // Either it reads (the flip hit a header byte that is not checked, like the flags), or it fails with a
        // positioned error: never a crash, never an unbounded allocation.
        if let error = files.readError(path) {
            #expect(error.file == path)
            #expect(error.position != .file || error.kind == .unrecognized)
        }
        _ = try? TraceRecovery.recover(input: path, output: files.directory.file("fuzz-\(seed).recovered"))
    }

    @Test func aWrongMagicIsNotATrace() throws {
        var bytes = try sample().bytes
        bytes[0] = 0x00
        let path = files.directory.write("magic.lifetrace", bytes)
        let error = try #require(files.readError(path))
        #expect(error.kind == .unrecognized)
        #expect(
            error.description
                == "\(path): byte 0: not a lifetrace trace: neither a .lifetrace header frame nor JSON Lines")
    }

    /// An input with no header and no event (an empty pipe, a run that wrote nothing) is no trace, whatever its
    /// name: read as an empty JSON Lines trace, it passed every check.
    @Test(arguments: ["", "\n\n", "  \n"])
    func anEmptyInputIsNotATrace(text: String) throws {
        let path = files.directory.write("empty.jsonl", text: text)
        let error = try #require(files.readError(path))
        #expect(error.kind == .malformed)
        let blank = text.isEmpty ? "" : " but for blank lines"
        let lastLine = max(1, text.filter { $0 == "\n" }.count)
        #expect(error.description == "\(path):\(lastLine): no header and no event: the input is empty\(blank)")
    }

    @Test func aNewerMajorVersionIsRejectedWithAnUpgradeHint() throws {
        var bytes = try sample().bytes
        bytes[12] = 2
        bytes[13] = 0
        let path = files.directory.write("v2.lifetrace", bytes)
        let error = try #require(files.readError(path))
        #expect(error.kind == .unsupportedVersion)
        #expect(
            error.description
                == "\(path): byte 12 (frame 0): written in format version 2.0; this lifetrace reads version 1.x: upgrade lifetrace"
        )
    }

    /// A block written by a hypothetical newer minor version with a kind (tag 126) this reader does not know.
    func newerMinorTrace(minor: UInt8) throws -> [UInt8] {
        var block = EventBlockLayoutTests.oneEventBlock
        block[27] = 126
        var content: [UInt8] = []
        var encoder = EventBlockEncoder()
        encoder.append(LifecycleEvent(t: 400, kind: .heartbeat))
        encoder.finish(into: &content)
        var bytes = HeaderFrame.encode(nil)
        bytes[13] = minor
        let compressor = FrameCodec.zstd(level: 3).makeCompressor()
        compressor.compressFrame(block) { bytes.append(contentsOf: $0) }
        compressor.compressFrame(content) { bytes.append(contentsOf: $0) }
        return bytes
    }

    @Test func unknownKindsOfANewerMinorVersionAreSkippedWithAWarning() throws {
        let newer = FormatConstants.minorVersion + 1
        let path = files.directory.write("v1.\(newer).lifetrace", try newerMinorTrace(minor: newer))
        let read = try files.readAll(path)
        #expect(read.events == [LifecycleEvent(t: 400, kind: .heartbeat)])
        #expect(
            read.reader.warnings.map(\.description) == [
                "\(path): skipped 1 event of kinds added in format version 1.\(newer): upgrade lifetrace to read them"
            ])
    }

    /// A handler whose end (t + dur) is past the 64-bit range is damage, named where its duration is, not
    /// an overflow in whatever reads the event next.
    @Test func aHandlerEndingPastTheRangeIsDamage() throws {
        var content: [UInt8] = []
        var encoder = EventBlockEncoder()
        encoder.append(LifecycleEvent(t: .max - 10, kind: .appWillTerminate, dur: 11))
        encoder.finish(into: &content)
        var bytes = HeaderFrame.encode(nil)
        FrameCodec.zstd(level: 3).makeCompressor().compressFrame(content) { bytes.append(contentsOf: $0) }
        let path = files.directory.write("end.lifetrace", bytes)
        let error = try #require(files.readError(path))
        // The field column starts at byte 36: 31 bytes of counts and sizes (t takes a 9-byte varint), then one
        // byte each of kinds, presence, delta lengths, duration lengths and the duration's one plane byte.
        #expect(
            error.description
                == "\(path): byte 16 (frame 1): duration of event 0 ends past the signed 64-bit range (at byte 36 of the frame's content)"
        )
    }

    @Test func unknownKindsOfTheSameMinorVersionAreDamage() throws {
        let path = files.directory.write("v1.0.lifetrace", try newerMinorTrace(minor: 0))
        let error = try #require(files.readError(path))
        #expect(
            error.description
                == "\(path): byte 16 (frame 1): unknown event kind tag 126 (at byte 27 of the frame's content)")
    }

    @Test func anAbsurdSkippableFrameSizeIsRefusedBeforeReading() throws {
        var bytes = HeaderFrame.encode(nil)
        bytes += [0x52, 0x2A, 0x4D, 0x18, 0xFF, 0xFF, 0xFF, 0xFF]
        let path = files.directory.write("huge.lifetrace", bytes)
        let error = try #require(files.readError(path))
        #expect(error.kind == .limitExceeded)
        #expect(
            error.description
                == "\(path): byte 16 (frame 1): skippable frame declares 4294967295 bytes, more than the 1048576 allowed"
        )
    }

    @Test func aDataFrameDeclaringMoreThan16MiBIsRefusedBeforeDecompressing() throws {
        var bytes = HeaderFrame.encode(nil)
        let zeros = [UInt8](repeating: 0, count: (16 << 20) + 1)
        FrameCodec.zstd(level: 1).makeCompressor().compressFrame(zeros) { bytes.append(contentsOf: $0) }
        let path = files.directory.write("bomb.lifetrace", bytes)
        let error = try #require(files.readError(path))
        #expect(error.kind == .malformed)
        #expect(
            error.description
                == "\(path): byte 16 (frame 1): data frame declares 16777217 bytes, more than the 16777216 allowed")
    }

    @Test func recoveryCopiesEveryIntactFrameAndReportsTheDamagedOne() throws {
        let trace = try sample()
        var bytes = trace.bytes
        bytes[trace.offsets[2] - 1] ^= 0x01
        let input = files.directory.write("damaged.lifetrace", bytes)
        let output = files.directory.file("repaired.lifetrace")
        let report = try TraceRecovery.recover(input: input, output: output)
        #expect(report.keptFrames == 2)
        #expect(report.keptEvents == 200)
        #expect(
            report.dropped.map(\.description) == [
                "frame 2 at byte \(trace.offsets[1]) (\(trace.offsets[2] - trace.offsets[1]) bytes): zstd: restored data doesn't match checksum"
            ])
        let read = try files.readAll(output)
        #expect(read.events == Array(trace.events[0..<100] + trace.events[200..<300]))
        #expect(read.reader.statistics.indexPresent && read.reader.statistics.indexConsistent)
        #expect(read.header == TraceHeader(app: "com.example"))
    }

    @Test func recoveryResumesAfterADamagedFrameHeader() throws {
        let trace = try sample()
        var bytes = trace.bytes
        bytes[trace.offsets[1]] = 0x00  // break the magic of the second data frame
        let input = files.directory.write("badmagic.lifetrace", bytes)
        let report = try TraceRecovery.recover(input: input, output: files.directory.file("fixed.lifetrace"))
        #expect(report.keptEvents == 200)
        #expect(report.dropped.first?.offset == trace.offsets[1])
        let read = try files.readAll(files.directory.file("fixed.lifetrace"))
        #expect(read.events == Array(trace.events[0..<100] + trace.events[200..<300]))
    }

    @Test func recoveryOfATruncatedFileDropsOnlyTheIncompleteFrame() throws {
        let trace = try sample()
        let input = files.directory.write("trunc.lifetrace", Array(trace.bytes[0..<(trace.offsets[2] + 7)]))
        let report = try TraceRecovery.recover(input: input, output: files.directory.file("t.lifetrace"))
        #expect(report.keptEvents == 200)
        #expect(report.dropped.map(\.reason) == ["incomplete frame at the end of the file"])
    }

    /// An input refused at its start (no trace, a newer major version, an empty file) leaves an existing output
    /// as it was: nothing is created or truncated before the first frame to keep.
    @Test func aRefusedInputLeavesTheOutputAsItWas() throws {
        let output = files.directory.write("precious.lifetrace", [1, 2, 3])
        let jsonLines = files.directory.write("t.jsonl", text: "{\"t\":0,\"ev\":\"heartbeat\"}\n")
        let empty = files.directory.write("empty.lifetrace", [])
        for input in [jsonLines, empty] {
            #expect(throws: TraceError.self) { try TraceRecovery.recover(input: input, output: output) }
            #expect(FileManager.default.contents(atPath: output) == Data([1, 2, 3]))
        }
        #expect(throws: TraceError(.malformed, file: empty, at: .byte(0, frame: 0), "empty file: no header frame")) {
            try TraceRecovery.recover(input: empty, output: output)
        }
    }

    /// A second header frame, which every reader refuses, is dropped and said, not passed over.
    @Test func aSecondHeaderFrameIsDroppedAndSaid() throws {
        let trace = try sample()
        let header = Array(trace.bytes[0..<trace.offsets[0]])
        let input = files.directory.write("two-headers.lifetrace", header + trace.bytes)
        #expect(throws: TraceError.self) { try files.readAll(input) }
        let output = files.directory.file("one-header.lifetrace")
        let report = try TraceRecovery.recover(input: input, output: output)
        #expect(
            report.dropped.map(\.description) == [
                "frame 1 at byte \(header.count) (\(header.count) bytes): a second header frame"
            ])
        #expect(try files.readAll(output).events == trace.events)
    }

    /// A data frame cut out of a closed trace, its index kept: every frame left reads, and the reader says that the
    /// index lists more than the file holds rather than passing half a trace for the whole.
    @Test func anIndexListingMissingFramesIsAWarning() throws {
        let trace = try sample()
        let withoutSecond = Array(trace.bytes[0..<trace.offsets[1]] + trace.bytes[trace.offsets[2]...])
        let path = files.directory.write("cut-out.lifetrace", withoutSecond)
        let read = try files.readAll(path)
        #expect(read.events == Array(trace.events[0..<100] + trace.events[200..<300]))
        #expect(
            read.reader.warnings.map(\.description) == [
                "\(path): the index lists 3 data frames of 300 events, the file holds 2 of 200: frames were removed or changed after it was written"
            ])
        #expect(read.reader.warnings.first?.kind == .indexDisagrees)
        // The whole trace has no such warning.
        let whole = try files.readAll(files.directory.write("whole.lifetrace", trace.bytes))
        #expect(whole.reader.warnings.isEmpty)
    }

    /// Attribute keys are unique within an event (the format's spec; the JSON Lines reader refuses a duplicate too):
    /// a block whose string table spells two keys alike is damage, found among the first eight keys and past them.
    @Test(arguments: [2, 12])
    func aDuplicateAttributeKeyIsDamage(keys: Int) throws {
        let names = (0..<keys).map { String(UnicodeScalar(UInt8(ascii: "a") + UInt8($0))) }
        var content: [UInt8] = []
        var encoder = EventBlockEncoder()
        encoder.append(LifecycleEvent(t: 1, kind: .heartbeat, attrs: names.map { Attribute($0, .bool(true)) }))
        encoder.finish(into: &content)
        // The last key's one byte in the string table, spelled as the first's (of twelve, the ninth's, which only
        // the keys past the first eight are compared with): two table entries, one text.
        let last = UInt8(ascii: "a") + UInt8(keys - 1)
        let twin = keys > 8 ? names[8] : names[0]
        let at = try #require(content.firstIndex(of: last))
        #expect(content.filter { $0 == last }.count == 1)
        content[at] = twin.utf8.first!
        var bytes = HeaderFrame.encode(nil)
        FrameCodec.zstd(level: 3).makeCompressor().compressFrame(content) { bytes.append(contentsOf: $0) }
        let path = files.directory.write("dup-\(keys).lifetrace", bytes)
        let error = try #require(files.readError(path))
        #expect(error.kind == .malformed)
        #expect(error.description.contains("duplicate attribute \"\(twin)\""), "\(error)")
    }
}
