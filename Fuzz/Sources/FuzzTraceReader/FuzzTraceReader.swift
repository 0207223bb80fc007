import FuzzSupport

/// Any bytes as a `.lifetrace` file (the readers tell the format by content, so JSON Lines come too).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTraceReader(_ data: UnsafeRawPointer?, _ size: Int) -> CInt {
    FuzzInput.fuzzTrace(data, size, suffix: "lifetrace")
}

/// The program's entry, which SwiftPM names after the target.
@_cdecl("FuzzTraceReader_main")
func entry(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer { fuzzTraceReader($0, $1) }
}
