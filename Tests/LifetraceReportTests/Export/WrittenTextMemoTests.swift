import LifetraceFormat
import Testing

@testable import LifetraceReport

/// The bytes written for the text written last are copied when the same text comes again, and only then.
@Suite struct WrittenTextMemoTests {
    private func bytes(_ buffer: ByteWriter) -> [UInt8] {
        buffer.withBytes { Array($0) }
    }

    @Test func theSameTextCopiesTheBytesKeptAndAnotherDoesNot() {
        var memo = WrittenTextMemo()
        var buffer = ByteWriter()
        #expect(!memo.append("main", to: &buffer))
        buffer.append(UInt8(ascii: "<"))
        let start = buffer.count
        buffer.appendJSONString("main")
        memo.keep("main", written: buffer, from: start)
        #expect(memo.append("main", to: &buffer))
        #expect(bytes(buffer) == Array(#"<"main""main""#.utf8))
        #expect(!memo.append("other", to: &buffer))
        #expect(bytes(buffer) == Array(#"<"main""main""#.utf8))
    }

    @Test func aTextOverTheLimitIsNotKept() {
        var memo = WrittenTextMemo()
        let long = String(repeating: "x", count: WrittenTextMemo.limit + 1)
        var buffer = ByteWriter()
        buffer.appendJSONString(long)
        memo.keep(long, written: buffer, from: 0)
        var other = ByteWriter()
        #expect(!memo.append(long, to: &other))
        #expect(other.count == 0)
    }
}
