import FuzzSupport
import LifetraceFormat
import LifetraceZstd

/// Any bytes as a damaged `.lifetrace` file for `lifetrace recover`: refused with a `TraceError`, or
/// recovered into a file every reader reads to its end with no error, not truncated and with its index, holding
/// exactly the events the report says were kept. Never a crash (a precondition in the frame scanner once trapped on damage inside
/// a frame's blocks).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRecover(_ data: UnsafeRawPointer?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let input = FuzzInput.file("damaged.lifetrace")
    let output = FuzzInput.file("recovered.lifetrace")
    FuzzInput.write(data, size, to: input)
    let report: TraceRecovery.Report
    do {
        report = try TraceRecovery.recover(input: input, output: output, codec: .zstd)
    } catch {
        return 0  // not a binary trace, or its header unreadable past repair: said as an error
    }
    do {
        let reader = try TraceReader(path: output)
        var events = 0
        while try reader.next() != nil { events += 1 }
        let skipped = reader.statistics.skippedUnknownKinds
        precondition(
            events + skipped == report.keptEvents,
            "the recovered file holds \(events) events, the report says \(report.keptEvents)")
        precondition(!reader.statistics.truncated, "the recovered file is truncated")
        precondition(
            reader.statistics.indexPresent && reader.statistics.indexConsistent,
            "the recovered file's index is missing or wrong")
    } catch {
        preconditionFailure("a recovered file does not read: \(error)")
    }
    FuzzInput.readTrace(output)
    return 0
}

/// The program's entry, which SwiftPM names after the target.
@_cdecl("FuzzRecover_main")
func entry(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer { fuzzRecover($0, $1) }
}
