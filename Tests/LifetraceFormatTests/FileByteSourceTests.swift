import LifetraceTestSupport
import Testing

@testable import LifetraceFormat

/// The read window holds what a frame needs and grows only with bytes that arrive.
@Suite struct FileByteSourceTests {
    let directory = TemporaryDirectory()

    /// A file of `count` bytes numbered 0, 1, 2, ... (mod 251, so that a slide is visible in the values).
    func file(_ count: Int) -> String {
        directory.write("bytes-\(count).bin", (0..<count).map { UInt8($0 % 251) })
    }

    /// A frame whose size field claims 16 MiB in a 400-byte file: asking for it returns the 400 bytes there
    /// are, and the window never grows past its first chunk.
    @Test func aClaimBeyondTheFileCostsNoMoreThanTheFile() throws {
        let source = try FileByteSource(path: file(400))
        #expect(try source.fill(atLeast: 16 << 20) == 400)
        #expect(source.reachedEOF)
        #expect(source.capacity == FileByteSource.chunkSize)
    }

    /// A frame larger than a chunk grows the window by doubling, to no more than twice the bytes asked for,
    /// and the bytes arrive in order across the growth and after the window slides.
    @Test(arguments: [FileByteSource.chunkSize + 1, 3 * FileByteSource.chunkSize + 17])
    func aLargeFrameGrowsTheWindowAndKeepsTheBytes(size: Int) throws {
        let source = try FileByteSource(path: file(size + 1000))
        #expect(try source.fill(atLeast: 10) >= 10)
        source.consume(10)
        #expect(try source.fill(atLeast: size) >= size)
        #expect(source.capacity <= 2 * (size + FileByteSource.chunkSize))
        source.withAvailableBytes { bytes in
            #expect(bytes.prefix(size).enumerated().allSatisfy { $0.element == UInt8(($0.offset + 10) % 251) })
        }
        #expect(source.offset == 10)
    }
}
