import Foundation
import LifetraceCore
import LifetraceTestSupport
import LifetraceZstd
import Testing

@testable import LifetraceFormat

/// Stored frames (RFC 8878 frames of raw blocks), written and read in Swift alone: the path by which an app
/// records with no C library. libzstd and the `zstd` command are the independent judges.
@Suite struct StoredFrameTests {
    let files = ScratchTraces()

    func storedFrame(_ content: [UInt8]) -> [UInt8] {
        FrameCodec.stored.makeCompressor().compressFrame(content) { Array($0) }
    }

    func decompress(_ frame: [UInt8], with codec: FrameCodec) throws(DecodeFailure) -> [UInt8] {
        let decompressor = codec.makeDecompressor()
        return try frame.withBytes { (bytes) throws(DecodeFailure) in
            try decompressor.decompress(bytes, limit: FormatConstants.maxFrameContentSize) { Array($0) }
        }
    }

    /// Every byte of a small frame, derived by hand from RFC 8878 §3.1.1.
    @Test func aSmallFrameIsLaidOutAsTheRFCSays() {
        #expect(
            storedFrame(Array("abc".utf8)) == [
                0x28, 0xB5, 0x2F, 0xFD,  // magic 0xFD2FB528
                0xA4,  // descriptor: content size in 4 bytes (flag 2), single segment, checksum, no dictionary
                0x03, 0x00, 0x00, 0x00,  // content size 3
                0x19, 0x00, 0x00,  // block header: size 3 << 3, raw (type 0), last block (bit 0)
                0x61, 0x62, 0x63,  // the content
                0x99, 0x09, 0x77, 0xAD,  // low 4 bytes of XXH64("abc") = 0x44BC2CF5AD770999, little-endian
            ])
    }

    /// Contents around the 128 KiB block limit split into blocks of at most 128 KiB, and libzstd reads them
    /// back to the same bytes as the Swift reader.
    @Test(arguments: [1, 1000, 128 << 10, (128 << 10) + 1, 300_000])
    func libzstdAndTheSwiftReaderAgree(size: Int) throws {
        var rng = SplitMix64(seed: UInt64(size))
        let content = (0..<size).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        let frame = storedFrame(content)
        let layout = try #require(
            try frame.withBytes { (bytes) throws(DecodeFailure) in try ZstdFrameLayout.parse(bytes) })
        #expect(layout.frameSize == frame.count)
        #expect(layout.blocks.count == (size + (128 << 10) - 1) / (128 << 10))
        #expect(layout.blocks.allSatisfy { $0.kind == .raw && $0.size <= 128 << 10 })
        #expect(try decompress(frame, with: .stored) == content)
        #expect(try decompress(frame, with: .zstd) == content)
    }

    /// A raw block above 128 KiB is refused by the scanner, whichever codec reads: libzstd's one-shot
    /// decompression alone would accept it.
    @Test(arguments: ["stored", "zstd"])
    func anOversizedRawBlockIsDamage(codecName: String) throws {
        let size = (128 << 10) + 1
        var frame: [UInt8] = [0x28, 0xB5, 0x2F, 0xFD, 0xA4]
        frame.appendUInt32LE(UInt32(size))
        let header = UInt32(size) << 3 | 1
        frame += [UInt8(header & 0xFF), UInt8((header >> 8) & 0xFF), UInt8(header >> 16)]
        var content: [UInt8] = []
        var encoder = EventBlockEncoder()
        encoder.append(LifecycleEvent(t: 1, kind: .heartbeat))
        encoder.finish(into: &content)
        content += [UInt8](repeating: 0, count: size - content.count)
        frame += content
        frame.appendUInt32LE(UInt32(truncatingIfNeeded: content.withUnsafeBytes { XXH64.hash($0) }))
        let path = files.directory.write("big-block.lifetrace", HeaderFrame.encode(nil) + frame)
        let error = try #require(files.readError(path, codec: codecName == "stored" ? .stored : .zstd))
        #expect(error.kind == .malformed)
        // The header frame takes 16 bytes, the data frame's header 9 (magic, descriptor, content size): the
        // block header is at byte 25.
        #expect(
            error.description
                == "\(path): byte 25 (frame 1): zstd: raw block of 131073 bytes is larger than the 131072 bytes a block of this frame may hold"
        )
    }

    /// A compressed frame is refused by the Swift reader with what reads it; a damaged checksum is damage.
    @Test func theStoredReaderRefusesCompressionAndDamage() throws {
        let content = [UInt8](repeating: 7, count: 5000)
        let compressed = FrameCodec.zstd.makeCompressor().compressFrame(content) { Array($0) }
        #expect(throws: DecodeFailure.self) { try decompress(compressed, with: .stored) }
        do { _ = try decompress(compressed, with: .stored) } catch {
            #expect(error.message.contains("stored frames only"))
        }
        var damaged = storedFrame(content)
        damaged[100] ^= 1
        do {
            _ = try decompress(damaged, with: .stored)
            Issue.record("a flipped content byte was not noticed")
        } catch {
            #expect(error.message == "zstd: restored data doesn't match checksum")
        }
    }

    /// A whole trace written with stored frames: `zstd -t` accepts it, `zstd -dc` prints the blocks, the
    /// specification's Python reader and both Swift codecs read the same events.
    @Test(.integration) func aStoredTraceIsAValidZstdFileThatEveryReaderReads() throws {
        var rng = SplitMix64(seed: 77)
        let header = RandomTrace.header(using: &rng)
        let events = RandomTrace.events(count: 400, using: &rng)
        let trace = try files.binary(header: header, events, frameSizes: [150, 150], codec: .stored)
        let path = files.directory.write("stored.lifetrace", trace.bytes)
        #expect(try files.readAll(path, codec: .stored).events == events)
        #expect(try files.readAll(path, codec: .zstd).events == events)
        let zstd = try #require(which("zstd"), "zstd is needed (scripts/setup installs it)")
        let tested = try run(zstd, ["-t", path])
        #expect(tested.status == 0, "\(tested.stderr)")
        let python = try #require(which("python3"))
        let dumped = try run(python, [PackagePaths.path("scripts/lifetrace_read.py"), path])
        #expect(dumped.status == 0, "\(dumped.stderr)")
        #expect(dumped.stdout == ScratchTraces.jsonLines(header: header, events))
    }
}
