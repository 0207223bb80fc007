import Foundation
@testable import LifetraceFormat
import LifetraceTestSupport
import Testing

/// A configuration, baseline or model is read whole, from a file or a pipe, and what is not one is an error naming
/// the file and saying why.
@Suite struct SettingsFileTests {
    let directory = TemporaryDirectory()

    @Test func aFileAndAPipeReadTheSame() throws {
        let text = #"{"budgets":{"background":"5s"}}"# + "\n"
        let path = directory.write("lifetrace.json", text: text)
        #expect(try SettingsFile.text(of: path, "the configuration") == text)
        let pipe = Pipe()
        pipe.fileHandleForWriting.write(Data(text.utf8))
        pipe.fileHandleForWriting.closeFile()
        #expect(try SettingsFile.text(of: "/dev/fd/\(pipe.fileHandleForReading.fileDescriptor)", "the configuration") == text)
        // A byte-order mark before the text is dropped; one inside it is the text's.
        let marked = directory.write("marked.json", [0xEF, 0xBB, 0xBF] + Array(text.utf8))
        #expect(try SettingsFile.text(of: marked, "the configuration") == text)
        let exactly = directory.write("exactly.json", Array(repeating: UInt8(ascii: " "), count: 1_024))
        #expect(try SettingsFile.text(of: exactly, "the configuration", limit: 1_024).count == 1_024)
    }

    @Test func whatIsNoSettingsFileIsAnErrorSayingWhy() throws {
        let missing = directory.file("missing.json")
        let large = directory.write("large.json", text: String(repeating: " ", count: 1_025) + "{}")
        let binary = directory.write("binary.json", [0x7B, 0xFF, 0x7D])
        let cases: [(String, Int, String)] = [
            (missing, SettingsFile.limit, "\(missing): cannot open: No such file or directory"),
            (directory.path, SettingsFile.limit, "\(directory.path): is a directory"),
            (large, 1_024, "\(large): byte 1024: the baseline is larger than 1024 bytes"),
            (binary, SettingsFile.limit, "\(binary): the baseline is not UTF-8 text"),
        ]
        for (path, limit, expected) in cases {
            #expect(throws: TraceError.self) { try SettingsFile.text(of: path, "the baseline", limit: limit) }
            do {
                _ = try SettingsFile.text(of: path, "the baseline", limit: limit)
            } catch {
                #expect(error.description == expected)
            }
        }
    }
}
