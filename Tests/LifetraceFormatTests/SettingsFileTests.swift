import Foundation
import LifetraceTestSupport
import Testing

@testable import LifetraceFormat

/// A configuration, baseline or model is read whole, from a file or a pipe, and what is not one is an error naming
/// the file and saying why.
@Suite struct SettingsFileTests {
    let directory = TemporaryDirectory()

    @Test func aFileAndAPipeReadTheSame() throws {
        let text = #"{"budgets":{"background":"5s"}}"# + "\n"
        let path = directory.write("lifetrace.json", text: text)
        #expect(try SettingsFile.text(of: path, "a configuration file", limit: 1_024) == text)
        let pipe = Pipe()
        pipe.fileHandleForWriting.write(Data(text.utf8))
        pipe.fileHandleForWriting.closeFile()
        #expect(
            try SettingsFile.text(
                of: "/dev/fd/\(pipe.fileHandleForReading.fileDescriptor)", "a configuration file", limit: 1_024) == text
        )
        // A byte-order mark before the text is dropped; one inside it is the text's.
        let marked = directory.write("marked.json", [0xEF, 0xBB, 0xBF] + Array(text.utf8))
        #expect(try SettingsFile.text(of: marked, "a configuration file", limit: 1_024) == text)
        let exactly = directory.write("exactly.json", Array(repeating: UInt8(ascii: " "), count: 1_024))
        #expect(try SettingsFile.text(of: exactly, "a configuration file", limit: 1_024).count == 1_024)
    }

    @Test func whatIsNoSettingsFileIsAnErrorSayingWhy() throws {
        let missing = directory.file("missing.json")
        let large = directory.write("large.json", text: String(repeating: " ", count: 1_025) + "{}")
        let binary = directory.write("binary.json", [0x7B, 0xFF, 0x7D])
        let cases: [(String, String)] = [
            (missing, "\(missing): cannot open: No such file or directory"),
            (directory.path, "\(directory.path): is a directory"),
            (large, "\(large): 1027 bytes: a baseline may be at most 1024 bytes"),
            (binary, "\(binary): not UTF-8 text, which a baseline must be"),
        ]
        for (path, expected) in cases {
            #expect(throws: TraceError.self) { try SettingsFile.text(of: path, "a baseline", limit: 1_024) }
            do {
                _ = try SettingsFile.text(of: path, "a baseline", limit: 1_024)
            } catch {
                #expect(error.description == expected)
            }
        }
    }

    /// A pipe has no size to look at first: it is refused once it passes the limit, at that byte.
    @Test func aPipePastTheLimitIsRefusedThere() throws {
        let pipe = Pipe()
        pipe.fileHandleForWriting.write(Data(repeating: UInt8(ascii: " "), count: 2_000))
        pipe.fileHandleForWriting.closeFile()
        let path = "/dev/fd/\(pipe.fileHandleForReading.fileDescriptor)"
        do {
            _ = try SettingsFile.text(of: path, "a baseline", limit: 1_024)
            Issue.record("a pipe past the limit was read")
        } catch {
            #expect(error.description == "\(path): byte 1024: a baseline may be at most 1024 bytes")
        }
    }
}
