import Foundation
import LifetraceTestSupport
import SystemPackage
import Testing

@testable import LifetraceFormat

/// Lines read as they arrive: a line longer than the most kept comes in pieces, and each piece after the first
/// says it goes on from the one before, so that a reader numbers lines as the file does.
@Suite struct LineStreamTests {
    @Test func aLongLineComesInPiecesThatSayTheyGoOn() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("long.log")
        let long = LineStream.maxLine * 5 / 2
        try Data(("a\n" + String(repeating: "x", count: long) + "\nb\nc").utf8).write(to: URL(fileURLWithPath: path))
        let descriptor = try FileDescriptor.open(forReading: path)
        defer { try? descriptor.close() }
        var stream = LineStream(descriptor: descriptor)
        var pieces: [(count: Int, continues: Bool)] = []
        while try stream.nextPiece({ bytes, continues in pieces.append((bytes.count, continues)) }) {}
        // 2.5 MiB of `x` in three pieces (each at least the most kept, but the last), the first not going on from
        // the line before; the lines after it are the file's third and fourth.
        #expect(pieces.count == 6)
        #expect(pieces.map(\.continues) == [false, false, true, true, false, false])
        #expect(pieces[1...3].map(\.count).reduce(0, +) == long)
        #expect(pieces[1...2].allSatisfy { $0.count >= LineStream.maxLine })
        #expect([0, 4, 5].map { pieces[$0].count } == [1, 1, 1])
    }
}
