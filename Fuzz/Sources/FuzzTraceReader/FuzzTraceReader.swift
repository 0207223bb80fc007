import FuzzSupport

/// Any bytes as a `.lifetrace` file (the readers tell the format by content, so JSON Lines come too).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTraceReader(_ data: UnsafeRawPointer?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let path = FuzzInput.file("lifetrace")
    FuzzInput.write(data, size, to: path)
    FuzzInput.readTrace(path)
    return 0
}

/// The program's entry, which SwiftPM names after the target.
@_cdecl("FuzzTraceReader_main")
func entry(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer { fuzzTraceReader($0, $1) }
}
