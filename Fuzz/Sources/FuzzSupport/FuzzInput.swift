import Foundation
import LifetraceAnalysis
import LifetraceCore
import LifetraceFormat
import LifetraceReport
import LifetraceZstd

/// What every fuzz target does with an input: put it where the readers read files, and check the promises
/// lifetrace makes about any input.
public enum FuzzInput {
    /// A file on a memory file system when there is one, named for the fuzzing process.
    public static func file(_ suffix: String) -> String {
        let directory = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        return "\(directory)/lifetrace-fuzz-\(getpid()).\(suffix)"
    }

    /// Writes `size` bytes at `data` to `path`.
    public static func write(_ data: UnsafeRawPointer, _ size: Int, to path: String) {
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes: data, count: size))
    }

    /// Fuzzes the trace readers with the input at `data` written to a file ending in `suffix`.
    public static func fuzzTrace(_ data: UnsafeRawPointer?, _ size: Int, suffix: String) -> CInt {
        guard let data else { return 0 }
        let path = file(suffix)
        write(data, size, to: path)
        readTrace(path)
        return 0
    }

    /// Reads the trace at `path` as the commands do. Bad input must be a `TraceError` (a crash or another
    /// error fails the fuzzer); a trace that reads must analyze, and re-encoded in both forms it must read
    /// back to the same events.
    public static func readTrace(_ path: String) {
        var events: [LifecycleEvent] = []
        let header: TraceHeader?
        do {
            let reader = try TraceReader(path: path)
            header = reader.header
            while let event = try reader.next() {
                events.append(event)
                if events.count > 200_000 { return }  // the rest reads the same way; keep executions fast
            }
        } catch {
            return  // bad input, said as a TraceError with a position: what lifetrace promises
        }
        // Analyzed event by event, with the reports' timeline drawn on the way.
        let result = ReportedTrace.analyze(events, file: path, header: header).result
        _ = CheckOutput.render([result], format: .json)
        // The round trip of a trace of huge strings proves nothing more and takes seconds under the sanitizer.
        let textBytes = events.reduce(0) {
            $0 + ($1.scene?.utf8.count ?? 0) + ($1.name?.utf8.count ?? 0) + ($1.label?.utf8.count ?? 0)
        }
        guard textBytes < 1 << 20 else { return }
        for jsonLines in [false, true] {
            // A trace with neither a header nor an event (what `recover` makes of a trace whose header and events
            // are all damaged) has no JSON Lines form: its copy would be an empty file, which no reader takes.
            if jsonLines, header == nil, events.isEmpty { continue }
            let copy = file(jsonLines ? "copy.jsonl" : "copy.lifetrace")
            do {
                let writer = try makeEventWriter(path: copy, header: header, jsonLines: jsonLines, options: .zstd)
                for event in events { try writer.append(event) }
                try writer.close()
                let reader = try TraceReader(path: copy)
                var again: [LifecycleEvent] = []
                while let event = try reader.next() { again.append(event) }
                precondition(again == events, "a trace that reads did not read back the same after re-encoding")
                precondition(reader.header == header, "the header did not survive re-encoding")
            } catch  where jsonLines && error.kind == .limitExceeded {
                // An event whose line would be longer than a JSON Lines reader accepts is refused, naming it.
                continue
            } catch {
                preconditionFailure("a trace that reads could not be written and read again: \(error)")
            }
        }
    }
}
